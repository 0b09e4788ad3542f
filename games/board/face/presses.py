"""A seat's button during a Sorry! board game: "Draw" for that seat, when the companion
draws the cards (BOARD.md's electronic deck) and it is that seat's turn with no card
waiting. With real cards the companion cannot know the card, so the press is refused in
one sentence (the touchscreen's card pad is the way).

Seats follow the board, clockwise from red (red, blue, yellow, green, empty colours left
out): players sit at their colour's side, and the LED board lights them in that order.
"""

from __future__ import annotations

from companion.errors import CompanionError
from companion.session import AnyResult, Live, Session


def board_seat_draw(session: Session, seat: int) -> AnyResult:
    from games.board.rules import RULES, Draw, draw_card

    live = Live(session, RULES)
    state = live.state
    if state is None:
        raise CompanionError("no game is open; start a new game first", code="no_game")
    players = state.names  # the board's clockwise order
    if seat >= len(players):
        raise CompanionError(f"only {len(players)} play, so this seat is empty",
                             code="empty_seat", players=len(players))
    if state.setup.draws != "companion":
        raise CompanionError("seat buttons draw only when the companion draws the cards; "
                             "tap the card drawn on the screen", code="board_real_cards")
    name, turn = players[seat], None if state.turn is None else players[state.turn]
    if turn != name:
        raise CompanionError(f"it is {turn}'s turn, not {name}'s",
                             code="board_not_your_turn", turn=turn, name=name)
    if state.card is not None:
        raise CompanionError("a card is waiting for its move; move first",
                             code="board_card_waiting")
    return live.submit(Draw(draw_card(state)), by="button")
