"""The board screen at every display size of the table-screen issue, in both languages,
with a 7 to split and its "Why?" open: nothing overlaps, no text is larger than its box
or under 14 px, every button is at least 48 px; the same in large text at 800x480 and
480x800 (no text under 17.5 px). Sizes are changed in this one process, as for every
other screen (layout_helpers); pictures go to the scratch screenshots/<W>x<H>/ folder,
which `make screenshots` copies to docs/screenshots/."""

from __future__ import annotations

import pytest
from board_play import open_list
from board_screen_helpers import board_shown, position
from kivy.core.window import Window
from layout_helpers import (
    LARGE_TEXT_SIZES,
    SIZES,
    overlaps,
    picture,
    resize,
    set_text_size,
    shot_path,
    size_id,
    small_targets,
    small_texts,
)
from ui_helpers import holds_colour, image_size, pixel_spread

from games.board.screens.board_view import BoardView
from games.board.screens.door import BoardSnapshot
from ui.theme import HIGHLIGHT_DARK, HIGHLIGHT_LIGHT, PLAYER_RGBA

PAWNS = {"red": ["START", "T10", "T22", "S2"], "blue": ["START", "T14", "T30", "HOME"],
         "yellow": ["START", "START", "T36", "HOME"], "green": ["T50", "S5", "HOME", "HOME"]}
SEVEN = [
    {"kind": "forward", "legs": [["T10", "T17"]], "bumped": []},
    {"kind": "forward", "legs": [["T22", "T29"]], "bumped": []},
    {"kind": "split", "legs": [["T10", "T16"], ["S2", "S3"]], "bumped": []},
    {"kind": "split", "legs": [["T10", "T14"], ["S2", "S5"]], "bumped": ["blue"]},
    {"kind": "split", "legs": [["T10", "T13"], ["S2", "HOME"]], "bumped": []},
]


@pytest.fixture
def sized(driver):
    made = []

    def make(size, lang, snap, text_size="normal"):
        d, door = board_shown(driver, snap, lang)
        set_text_size(d, text_size)
        resize(d, size)
        made.append(d)
        return d, door

    yield make
    Window.size = (800, 480)


# every display in normal text; large text where it is most at risk (layout_helpers)
SIZED = [(size, "normal") for size in SIZES] + [(size, "large") for size in LARGE_TEXT_SIZES]
SIZED_IDS = [f"{size_id(size)}-{text}" for size, text in SIZED]


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize(("size", "text_size"), SIZED, ids=SIZED_IDS)
def test_the_board_screen_fits_every_display(sized, size, text_size, lang):
    snap = BoardSnapshot(position(PAWNS, card="7", draw_pile=31), SEVEN, companion_draws=True,
                         undo={"type": "draw", "card": "7", "name": "Ana"})
    d, _door = sized(size, lang, snap, text_size)
    board = d.app.screen("board").ids.board
    assert min(board.size) >= min(size) * 0.5, "the board is drawn large"
    if open_list(d):  # portrait: the moves waited behind one button, the board took the width
        assert board.side == 0  # the list in the board's place
    d.tap(d.button(code="why0"))
    assert d.label("board", "why_label") != ""
    assert not d.overflowing_labels(), d.overflowing_labels()
    assert not overlaps(d, (BoardView,)), overlaps(d, (BoardView,))
    assert not small_targets(d), small_targets(d)
    assert not small_texts(d), small_texts(d)
    path = picture(d, shot_path(size, "board-seven", lang, text_size))
    assert image_size(path) == size
    assert pixel_spread(path) > 12
    if size == SIZES[0] and text_size == "normal":
        # the colours test_colour_vision.py reasons about are the drawn ones
        for rgba in (*PLAYER_RGBA.values(), HIGHLIGHT_LIGHT, HIGHLIGHT_DARK):
            assert holds_colour(path, rgba), f"{rgba} is not on the board as drawn"


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize(("size", "text_size"), SIZED, ids=SIZED_IDS)
def test_the_board_setup_fits_every_display(sized, size, text_size, lang):
    d, _door = sized(size, lang, None, text_size)
    d.app.screen("board_setup").offer(["Ana", "Ben", "Chloé"], ["red", "blue", "yellow"],
                                      "Ana")
    d.app.show("board_setup")
    d.frames(4)
    assert not d.overflowing_labels(), d.overflowing_labels()
    assert not overlaps(d, (BoardView,)), overlaps(d, (BoardView,))
    assert not small_targets(d), small_targets(d)
    assert not small_texts(d), small_texts(d)
    path = picture(d, shot_path(size, "board-setup-names", lang, text_size))
    assert pixel_spread(path) > 12
