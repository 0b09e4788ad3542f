"""What the board camera says on the board screen, read in full at 800x480 and 480x800 in
both languages: a board no option gives (one sentence, "Correct the board" one tap away)
and an unsure move (only the candidates listed and lit). Pictures go to the scratch
screenshots/<W>x<H>/ folder (`make screenshots`)."""

from __future__ import annotations

import pytest
from board_screen_helpers import board_shown, position
from kivy.core.window import Window
from layout_helpers import SCRATCH, picture, resize, size_id

from games.board.rules import Move
from games.board.rules.moves import generate
from games.board.rules.position import Position
from games.board.screens.door import BoardSnapshot
from games.board.screens.snapshot import option_dict

PAWNS = {"red": ["T10", "S2", "START", "START"], "blue": ["START", "T30", "T14", "HOME"]}
MISMATCH = {"en": "Red's pawn should be on square 17, not 2 squares short",
            "fr": "Le pion rouge devrait être sur la case 17, pas 2 cases avant"}


def seven() -> BoardSnapshot:
    found = generate(Position.parse({"edition": "classic", "pawns": PAWNS}), "7", "red")
    return BoardSnapshot(position(PAWNS, card="7"), [option_dict(Move.of(o)) for o in found])


@pytest.fixture
def board_at(driver):
    def make(size, lang):
        d, _ = board_shown(driver, seven(), lang)
        resize(d, size)
        return d

    yield make
    Window.size = (800, 480)


def message_in_full(d) -> None:
    label = d.app.screen("board").ids.message_label
    assert label.text and label.font_size >= 14
    assert label.texture_size[1] <= label.height + 1, "nothing cut"


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("size", [(800, 480), (480, 800)], ids=size_id)
def test_a_mismatch_and_an_unsure_move_are_read_in_full(board_at, size, lang):
    d = board_at(size, lang)
    model = d.app.models["board"]
    model.camera_mismatch(MISMATCH.__getitem__)
    d.frames(3)
    message_in_full(d)
    assert d.app.screen("board").ids.correct_button.text in model.message
    picture(d, SCRATCH / size_id(size) / f"board-camera-mismatch-{lang}.png")
    legs = [o["legs"] for o in model.snap.options[:2]]
    model.camera_asked(legs)
    d.frames(3)
    message_in_full(d)
    assert [r["index"] for r in model.rows] == [0, 1] and model.preview
    picture(d, SCRATCH / size_id(size) / f"board-camera-unsure-{lang}.png")
