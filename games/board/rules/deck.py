"""The electronic deck: the companion draws the card, fairly, from the counts in the state.

The draw is random, so it happens here, outside the pure rules; the card it returns is
submitted as a `draw` event, which is what the journal keeps. Replaying the journal
therefore never draws again: it reads the cards that were drawn.
"""

from __future__ import annotations

import random

from games.board.rules.cards import CARDS
from games.board.rules.errors import IllegalMove
from games.board.rules.state import BoardState

__all__ = ["draw_card"]

_SYSTEM = random.SystemRandom()


def draw_card(state: BoardState, rng: random.Random | None = None) -> str:
    """A card drawn from what the pile holds now (the discards, once it is empty), each
    remaining card equally likely: submit it as `Draw(card)`. In the adult variation the
    companion cannot see the hands: it picks among the cards not yet played (a bot's hand)."""
    if state.over:
        raise IllegalMove("the game is over; there is nothing to draw", code="draw_over")
    if state.card is not None:
        raise IllegalMove(f"a {state.card} is waiting for its move; choose one of its "
                          "options first", code="card_waiting", card=state.card)
    counts = state.unseen
    if state.draw_pile <= 0 and not state.position.settings.adult:
        counts = tuple(u + d for u, d in zip(state.unseen, state.discards, strict=True))
    k = (rng or _SYSTEM).randrange(sum(counts))
    for card, n in zip(CARDS, counts, strict=True):
        if k < n:
            return card
        k -= n
    raise AssertionError("unreachable: k is below the total")
