"""A seat's button during a Sorry! board game: "Draw" for that seat, when the companion
draws the cards (BOARD.md's electronic deck) and it is that seat's turn with no card
waiting. With real cards the companion cannot know the card, so the press is refused in
one sentence (the touchscreen's card pad is the way).

Seats follow the board, clockwise from red (red, blue, yellow, green, empty colours left
out): players sit at their colour's side, and the LED board lights them in that order.
"""

from __future__ import annotations

from collections.abc import Callable

from companion.errors import CompanionError
from companion.session import Result, Session


def board_seat_draw(session: Session, seat: int, companion_draws: Callable[[], bool]) -> Result:
    from games.board.rules import RULES, draw_card

    state = session.state
    rules = session.rules
    if state is None or rules is None:
        raise CompanionError("no game is open; start a new game first", code="no_game")
    position = RULES.state_json(state)
    players = [p["name"] for p in position["players"]]  # the board's clockwise order
    if seat >= len(players):
        raise CompanionError(f"only {len(players)} play, so this seat is empty",
                             code="empty_seat", players=len(players))
    if not companion_draws():
        raise CompanionError("seat buttons draw only when the companion draws the cards; "
                             "tap the card drawn on the screen", code="board_real_cards")
    name = players[seat]
    if position["turn"] != name:
        raise CompanionError(f"it is {position['turn']}'s turn, not {name}'s",
                             code="board_not_your_turn", turn=position["turn"], name=name)
    if position["card"] is not None:
        raise CompanionError("a card is waiting for its move; move first",
                             code="board_card_waiting")
    return session.submit(RULES.parse_event({"type": "draw", "card": draw_card(state)}))
