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
