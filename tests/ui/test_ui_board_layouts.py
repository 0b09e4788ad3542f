"""The board screen at every display size of the table-screen issue, in both languages,
with a 7 to split and its "Why?" open: nothing overlaps, no text is larger than its box,
every button is at least 48 px. Sizes are changed in this one process, as for every
other screen (layout_helpers); pictures go to the scratch screenshots/<W>x<H>/ folder,
which `make screenshots` copies to docs/screenshots/."""

from __future__ import annotations

import pytest
from board_screen_helpers import ScriptDoor, position
from kivy.core.window import Window
from layout_helpers import SCRATCH, SIZES, overlaps, picture, resize, size_id, small_targets
from ui_helpers import holds_colour, image_size, pixel_spread

from ui.board.board_view import BoardView
from ui.board.door import BoardSnapshot
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

    def make(size, lang, snap):
        door = ScriptDoor(snap)
        d = driver(board_door=door, language=lang)
        d.app.show("board")
        d.app.board.refresh()
        resize(d, size)
        made.append(d)
        return d, door

    yield make
    Window.size = (800, 480)


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("size", SIZES, ids=size_id)
def test_the_board_screen_fits_every_display(sized, size, lang):
    snap = BoardSnapshot(position(PAWNS, card="7", draw_pile=31), SEVEN, companion_draws=True,
                         undo={"type": "draw", "card": "7", "name": "Ana"})
    d, _door = sized(size, lang, snap)
    d.tap(d.button(code="why0"))
    assert d.label("board", "why_label") != ""
    board = d.app.screen("board").ids.board
    assert min(board.size) >= min(size) * 0.5, "the board is drawn large"
    assert not d.overflowing_labels(), d.overflowing_labels()
    assert not overlaps(d, (BoardView,)), overlaps(d, (BoardView,))
    assert not small_targets(d), small_targets(d)
    path = picture(d, SCRATCH / size_id(size) / f"board-seven-{lang}.png")
    assert image_size(path) == size
    assert pixel_spread(path) > 12
    if size == SIZES[0]:  # the colours test_colour_vision.py reasons about are the drawn ones
        for rgba in (*PLAYER_RGBA.values(), HIGHLIGHT_LIGHT, HIGHLIGHT_DARK):
            assert holds_colour(path, rgba), f"{rgba} is not on the board as drawn"


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("size", SIZES, ids=size_id)
def test_the_board_setup_fits_every_display(sized, size, lang):
    d, _door = sized(size, lang, None)
    d.app.screen("board_setup").offer(["Ana", "Ben", "Chloé"], ["red", "blue", "yellow"],
                                      "Ana")
    d.app.show("board_setup")
    d.frames(4)
    assert not d.overflowing_labels(), d.overflowing_labels()
    assert not overlaps(d, (BoardView,)), overlaps(d, (BoardView,))
    assert not small_targets(d), small_targets(d)
    path = picture(d, SCRATCH / size_id(size) / f"board-setup-names-{lang}.png")
    assert pixel_spread(path) > 12
