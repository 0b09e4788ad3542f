"""Every answer of the board screen read in full: a forfeit, a 10 that must go back, an 11
that may be declined and a 7 split, with the engine's own options and sentences, at the
five displays in both languages. The answer is never cut, never shrunk under 14 px and
needs no scrolling; the action area gives up its room, and keeps 48 px targets. Pictures
of each go to the scratch screenshots/<W>x<H>/ folder (`make screenshots`)."""

from __future__ import annotations

import pytest
from board_screen_helpers import board_shown, position
from kivy.core.window import Window
from layout_helpers import (
    SCRATCH,
    SIZES,
    overlaps,
    picture,
    resize,
    size_id,
    small_targets,
    small_texts,
)

from games.board.rules import Forfeited, Move
from games.board.rules.explain import explain
from games.board.rules.moves import blocked, generate
from games.board.rules.position import Position
from games.board.screens.board_view import BoardView
from games.board.screens.door import BoardSnapshot
from games.board.screens.snapshot import option_dict

OTHERS = {"blue": ["START", "T30", "T14", "HOME"]}


def _engine(pawns: dict[str, list[str]], card: str) -> tuple[Position, tuple]:
    p = Position.parse({"edition": "classic", "pawns": pawns})
    return p, generate(p, card, "red")


def forfeit() -> BoardSnapshot:
    """The longest kind of forfeit: a pawn in START, three that would pass HOME, no switch."""
    pawns = {"red": ["START", "T2", "S3", "S5"], "blue": ["START"] * 4}
    p, found = _engine(pawns, "11")
    assert found == ()
    out = Forfeited("red", "11", blocked(p, "11", "red"))
    last = {"what": "forfeit", "name": "Ana", "card": "11", "draw_again": False,
            "why": {lang: explain(out, lang) for lang in ("en", "fr")}, "seq": 1}
    return BoardSnapshot(position(pawns), [], last=last)


def _options(pawns: dict[str, list[str]], card: str) -> BoardSnapshot:
    _p, found = _engine(pawns, card)
    return BoardSnapshot(position(pawns, card=card),
                         [option_dict(Move.of(o)) for o in found],
                         companion_draws=True)


SCENES = {
    "forfeit": forfeit,
    "ten-back": lambda: _options({"red": ["S2", "HOME", "HOME", "HOME"], **OTHERS}, "10"),
    "eleven-decline": lambda: _options({"red": ["T58", "HOME", "HOME", "HOME"], **OTHERS},
                                       "11"),
    "seven-split": lambda: _options({"red": ["T10", "S2", "HOME", "HOME"], **OTHERS}, "7"),
}


@pytest.fixture
def sized(driver):
    def make(size, lang):
        d, door = board_shown(driver, forfeit(), lang)
        resize(d, size)
        return d, door

    yield make
    Window.size = (800, 480)


def show(d, door, snap: BoardSnapshot) -> None:
    door.show(snap)
    d.frames(3)


def read_in_full(d) -> None:
    ids = d.app.screen("board").ids
    assert ids.why_label.text, "the answer is shown"
    assert ids.answer_view.height >= ids.answer.height - 1, "the answer needs no scrolling"
    assert ids.why_label.font_size >= 14 and ids.message_label.font_size >= 14
    assert ids.why_label.texture_size[1] <= ids.why_label.height + 1, "nothing cut"


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("size", SIZES, ids=size_id)
def test_every_answer_is_read_in_full_at_every_display(sized, size, lang):
    d, door = sized(size, lang)
    for name, scene in SCENES.items():
        show(d, door, scene())
        if name != "forfeit":  # an option's why, asked: the decline's for the 11
            rows = d.app.models["board"].rows
            asked = rows[-1]["index"] if name == "eleven-decline" else 0
            assert name != "eleven-decline" or rows[-1]["kind"] == "decline"
            d.app.screen("board").explain(asked)
            d.frames(3)
        read_in_full(d)
        why = d.app.screen("board").ids.why_label.text
        assert not any(code in why for code in (" T1", " S2", "G1", "start_move"))
        assert not overlaps(d, (BoardView,)), overlaps(d, (BoardView,))
        assert not small_targets(d), small_targets(d)
        assert not small_texts(d), small_texts(d)
        picture(d, SCRATCH / size_id(size) / f"board-{name}-{lang}.png")
        if name == "seven-split":  # a split pressed in the list: its squares on the board
            d.app.models["board"].show_option(1)
            d.frames(2)
            assert len(d.app.screen("board").ids.board.preview) == 2
            picture(d, SCRATCH / size_id(size) / f"board-seven-pressed-{lang}.png")
            d.app.models["board"].show_option(None)


def test_the_players_questions_are_answered_the_moment_they_arise(sized):
    """BOARD.md's two questions: overshooting HOME (a forfeit says it without asking), and
    must a 10 go back 1 (its why says it is compulsory)."""
    d, door = sized((800, 480), "en")
    why = d.app.screen("board").ids.why_label.text
    assert "would pass HOME" in why and "exact count" in why
    show(d, door, SCENES["ten-back"]())
    assert "compulsory" in d.app.screen("board").ids.why_label.text  # without asking
