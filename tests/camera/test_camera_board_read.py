"""Reading a still board (games.board.camera.read) on rectified pictures drawn here."""

from __future__ import annotations

import numpy as np
import pytest

PAPER = (225, 228, 230)
PALE_BLUE = (230, 185, 150)  # a blue print as the teach photo's light showed it
DEEP_BLUE = (200, 110, 40)  # the same print in a warmer, stronger light: a pawn's blue
DEEP_YELLOW = (30, 200, 235)


def _picture(patch: tuple[int, int, int] | None, square: str) -> np.ndarray:
    from games.board.camera import cells

    picture = np.zeros((cells.SIZE, cells.SIZE, 3), np.uint8)
    picture[:] = PAPER
    if patch is not None:
        x0, y0, x1, y1 = cells.box(square)
        picture[y0 + 2:y1 - 2, x0 + 2:x1 - 2] = patch
    return picture


@pytest.mark.parametrize(("colors", "seen"), [(("red", "yellow"), ""), (("red", "blue"), "blue")])
def test_a_print_of_a_colour_no_one_plays_is_no_pawn_in_another_light(colors, seen):
    # 20,000 recording 33 (held out, then read): a blue slide's end on T19 of a red and
    # yellow game read as a blue pawn once the lamp made the print as deep as a pawn, and a
    # move was missed; a blue pawn there can only be one when blue plays
    from games.board.camera.read import Taught, read

    taught = Taught(_picture(PALE_BLUE, "T19").astype(np.float32),
                    {"red": 177.0, "yellow": 27.0, "green": 60.0, "blue": 112.0},
                    dict.fromkeys(colors, 60.0), colors)
    assert read(_picture(DEEP_BLUE, "T19"), taught).squares["T19"] == seen
    # a pawn of a seated colour there is still read
    assert read(_picture(DEEP_YELLOW, "T19"), taught).squares["T19"] == "yellow"


def test_a_pawn_on_paper_the_teach_photo_cut_to_white_is_seen_in_a_dimmer_lamp():
    # 60,000 recording 17 (then a development seed): the teach photo's paper was cut at
    # 255 in blue and green, the game's lamp dimmer; a changed channel the taught one cut
    # told nothing, so a yellow pawn (its red near the paper's) changed under 12 % of its
    # square and six moves were asked, two missed. A value cut is a floor: darker than it
    # is still a change (brighter than it is not: the paper may have been brighter still)
    from games.board.camera import cells
    from games.board.camera.read import Taught, read

    cut = np.float32((255, 255, 245))
    taught = Taught(np.full((cells.SIZE, cells.SIZE, 3), cut, np.float32),
                    {"red": 0.0, "yellow": 24.0, "green": 60.0, "blue": 112.0},
                    {"red": 60.0, "yellow": 60.0}, ("red", "yellow"))
    dim = np.full((cells.SIZE, cells.SIZE, 3), cut * 0.85, np.float32)
    x0, y0, x1, y1 = cells.box("T7")
    pawn = dim.copy()
    pawn[y0 + 3:y1 - 3, x0 + 3:x1 - 3] = np.float32((24, 182, 226)) * 0.85  # yellow plastic
    reading = read(pawn.astype(np.uint8), taught)
    assert reading.squares["T7"] == "yellow"
    assert "T7" not in reading.doubtful
    # the paper alone in that dimmer lamp is no change
    assert not [k for k, v in read(dim.astype(np.uint8), taught).squares.items() if v]
