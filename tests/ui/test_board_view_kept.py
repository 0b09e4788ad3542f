"""The board view keeps each place's pawns once built (BoardView._piece): a move builds
the places it changed that were never drawn before, not every pawn; and a board drawn
from kept pieces looks as one drawn fresh."""

from __future__ import annotations

from board_screen_helpers import position
from kivy.core.window import Window  # noqa: F401  (the GL context the pictures need)

from games.board.screens.board_view import BoardView

PAWNS = {"red": ["START", "START", "T10", "S2"], "blue": ["START", "T14", "HOME", "HOME"]}
MOVED = {**PAWNS, "red": ["START", "T4", "T10", "S2"]}  # a pawn out of START: two places


def _view(pawns: dict[str, list[str]]) -> BoardView:
    view = BoardView(size=(400, 400))
    view.state = position(pawns)
    view.draw_board()
    view.draw_pawns()
    return view


def _pieces(view: BoardView) -> list[int]:
    return [id(piece) for piece in view._pawns.children]


def _picture(view: BoardView) -> bytes:
    return bytes(view.export_as_image().texture.pixels)


def test_a_move_builds_only_the_places_it_changed():
    view = _view(PAWNS)
    before = _pieces(view)
    view.state = position(MOVED)
    view.draw_pawns()
    after = _pieces(view)
    assert len(after) == len(before) + 1  # one more pawn on the track
    assert len(set(after) - set(before)) == 2  # red's START (one pawn fewer) and T4
    view.state = position(PAWNS)  # undone: every place as it was drawn before
    view.draw_pawns()
    assert _pieces(view) == before


def test_a_board_of_kept_pieces_looks_as_one_drawn_fresh():
    view = _view(PAWNS)
    for pawns in (MOVED, PAWNS, MOVED):
        view.state = position(pawns)
        view.draw_pawns()
        assert _picture(view) == _picture(_view(pawns))
