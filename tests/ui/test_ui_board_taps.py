"""A board move in as few taps as its choice needs (issue 35.5 and 35.8), by touch on the
real app at 800x480 in English: a pawn with only one destination moves at its one tap,
Undo one tap away; and the taps a move takes, counted over whole games played on the
board (the card, then the pawn, then where it goes when there is a choice), are the
figures the README says.
"""

from __future__ import annotations

import pytest
from board_play import Scorekeeper, tap_key
from layout_helpers import picture, shot_path
from test_ui_board_whole_game import play_to_the_end, start_by_touch
from ui_helpers import REPO

from games.board.screens.layout import key


def pawns(d, color: str) -> list[str]:
    return next(p["pawns"] for p in d.app.models["board"].state["players"] if p["color"] == color)


def test_a_pawn_with_one_destination_moves_at_one_tap_and_undo_is_one_tap(driver):
    d = driver()
    start_by_touch(d, ["Ana", "Ben"], "classic")
    d.tap_code("card:1")  # Ana's 1: a pawn out of START, the only move there is
    assert d.app.models["board"].phase == "move"
    steps = len(d.app.session.update.steps)
    tap_key(d, key("START", "red"))  # the pawn: one tap
    d.frames(2)
    assert len(d.app.session.update.steps) == steps + 1, d.app.models["board"].message
    assert sorted(pawns(d, "red")) == ["START", "START", "START", "T4"]
    undo = d.app.screen("board").ids.board_undo
    assert undo.text.startswith("Undo: Ana"), undo.text
    picture(d, shot_path((800, 480), "board-one-tap", "en"))
    d.tap(undo)
    assert pawns(d, "red") == ["START"] * 4 and d.app.models["board"].phase == "move"


def test_a_pawn_with_two_destinations_still_asks_where(driver):
    d = driver()
    start_by_touch(d, ["Ana", "Ben"], "classic")
    d.tap_code("card:1")
    tap_key(d, key("START", "red"))
    d.tap_code("card:10")  # Ben's turn: no pawn out, a 10 forfeits
    d.frames(2)
    assert d.app.models["board"].phase == "card" and d.app.models["board"].state["turn"] == "Ana"
    d.tap_code("card:10")  # Ana: T4 forward 10, or back 1: two destinations
    assert d.app.models["board"].phase == "move"
    steps = len(d.app.session.update.steps)
    tap_key(d, "T4")
    d.frames(2)
    assert len(d.app.session.update.steps) == steps, "moved without saying where"
    assert sorted(d.app.models["board"].targets) == ["T14", "T3"]
    tap_key(d, "T14")
    d.frames(2)
    assert "T14" in pawns(d, "red")


@pytest.mark.slow
@pytest.mark.parametrize("edition,seed", [("classic", 11), ("2016", 13)])
def test_the_taps_a_move_takes_over_a_whole_game_are_the_readme_s(driver, edition, seed):
    d = driver()
    start_by_touch(d, ["Ana", "Ben"], edition)
    keeper = Scorekeeper(d, seed, on_board_only=True)
    play_to_the_end(d, keeper)
    draws, taps = keeper.touches["draw"], keeper.touches["move"]
    per_move = (draws + taps) / keeper.moves
    print(f"{edition}: {keeper.moves} moves, {draws} cards tapped, {taps} taps on the board:"
          f" {per_move:.2f} taps a move with the card")
    assert per_move < 3.0, per_move  # three a move before: the card, the pawn, the square
    readme = (REPO / "README.md").read_text()
    assert "one tap for a pawn that has one place to go" in readme
