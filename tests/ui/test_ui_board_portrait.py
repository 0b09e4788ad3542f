"""The board at 480x800 in large text (issue 35.5), by touch on the real app: a 2016 game
in French started from the setup screen with real cards, Ana's pawns put on the track and
HOME by correcting the board, then a 7 tapped: eight moves. Seen before: the board 290-336
px wide on a 480 px screen, pawns about 12 px, the list of moves a row and a half high. Now
the board takes the width while the moves wait behind one button, and that button shows
the moves in the board's place, in a list over half the screen high (four of the eight
French rows whole at once: its splits run to five lines), each row whole."""

from __future__ import annotations

import pytest
from board_play import drag_pawn, open_list, scroll_to
from kivy.core.window import Window
from layout_helpers import picture, problems, resize, set_text_size, shot_path, window_rect
from test_ui_board_whole_game import start_by_touch

from games.board.screens.board_view import BoardView

SIZE = (480, 800)
TRACK_PAWN = 0.68  # a track pawn's width, in cells (board_view: a radius of 0.34 cell)


@pytest.fixture
def window_back():
    yield
    Window.size = (800, 480)


def test_a_seven_in_portrait_large_text_shows_a_wide_board_and_then_every_move(
    driver, window_back
):
    d = driver(language="fr")
    resize(d, SIZE)
    set_text_size(d, "large")
    start_by_touch(d, ["Ana", "Ben"], "2016")
    d.tap_id("board", "correct_button")
    for square in ("T8", "T22", "red:HOME"):  # a 7: each track pawn, or split six ways
        drag_pawn(d, "red:START", square)
    d.tap_id("board", "correct_button")
    d.tap_code("card:7")
    options = d.app.models["board"].snap.options
    assert len(options) == 8, [o["kind"] for o in options]
    screen = d.app.screen("board")
    board = screen.ids.board
    d.frames(3)
    assert board.side >= 0.95 * SIZE[0], f"the board is {board.side:.0f} px wide"
    assert board.cell * TRACK_PAWN >= 18, f"pawns of {board.cell * TRACK_PAWN:.0f} px"
    assert not problems(d, (BoardView,)), problems(d, (BoardView,))
    picture(d, shot_path(SIZE, "board-seven-wide", "fr", "large"))

    assert open_list(d) == 1
    d.frames(3)
    rows = [b for b in d.buttons() if b.code.startswith("opt")]
    assert len(rows) == len(options)
    view = rows[0].parent.parent.parent  # option button, its row, the rows, the list
    top, bottom = window_rect(view)[3], window_rect(view)[1]
    whole = [r.text for r in rows if bottom - 1 <= r.to_window(r.x, r.y)[1]
             and r.to_window(r.x, r.top)[1] <= top + 1]
    assert top - bottom >= 0.55 * SIZE[1], f"the list is {top - bottom:.0f} px high"
    # French splits run to five lines here: four whole rows at once (one and a half before)
    assert len(whole) >= 4, f"{len(whole)} moves read at once"
    assert not problems(d, (BoardView,)), problems(d, (BoardView,))
    picture(d, shot_path(SIZE, "board-seven-list", "fr", "large"))
    before = d.app.models["board"].state
    scroll_to(d, rows[-1].code)  # the last move, a short scroll away
    d.tap(rows[-1])
    assert d.app.models["board"].state != before and d.app.models["board"].phase in ("card", "over")
    assert not screen.list_open and board.side >= 0.9 * SIZE[0]
