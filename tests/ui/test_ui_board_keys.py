"""Keys 1-4 on a laptop are the seat buttons in a board game too: the face of the open game
(games.board.face) makes a seat's key its "Draw" when the companion draws the cards,
and a key out of turn is one sentence on the board screen."""

from __future__ import annotations

from kivy.core.window import Window
from test_ui_board_whole_game import start_by_touch

from games.board.rules import RULES


def key(seat: int) -> None:
    Window.dispatch("on_key_down", 49 + seat, 0, str(seat + 1), [])


def test_a_seat_key_draws_for_that_seat_when_the_companion_draws(driver):
    d = driver()
    start_by_touch(d, ["Ana", "Ben"], "classic", companion_draws=True)
    position = RULES.state_json(d.app.session.state)
    seats = [p["name"] for p in position["players"]]  # the board's clockwise order
    turn = seats.index(position["turn"])
    steps = len(d.app.session.update.steps)
    key(1 - turn)
    d.wait_for(lambda: "turn" in d.app.models["board"].message, "the out-of-turn sentence")
    assert position["turn"] in d.app.models["board"].message
    assert len(d.app.session.update.steps) == steps  # nothing drawn
    key(turn)
    d.wait_for(lambda: len(d.app.session.update.steps) == steps + 1,
               "the card drawn for the seat whose turn it is")
    assert d.app.session.update.steps[-1].event.to_json()["type"] == "draw"
