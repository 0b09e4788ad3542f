"""The state of a board game between two events: the board, whose turn, the card waiting
for a move, and the deck as counts (BOARD.md "Deck"), all frozen.

Deck counts: `unseen` is, per card, how many are neither discarded nor waiting to be
played: the draw pile's contents (and, in the adult variation, the hands', which the
companion cannot see). A draw that finds the pile empty first shuffles the discards in.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from games.board.rules.cards import CARDS, deck_counts
from games.board.rules.events import BoardSetup
from games.board.rules.geometry import COLORS
from games.board.rules.position import HOME_I, Position

__all__ = ["HAND", "BoardState", "initial_state"]

HAND = 5  # cards in each hand in the adult variation


class BoardState(NamedTuple):
    setup: BoardSetup
    position: Position
    names: tuple[str, ...]  # per seat, in `position.colors` (clockwise) order
    turn: int | None  # the seat to play; None once the game is over
    card: str | None  # drawn (or played from a hand) and waiting for its move
    unseen: tuple[int, ...]  # per card of CARDS
    discards: tuple[int, ...]  # per card of CARDS
    finished: tuple[int, ...] = ()  # seats whose pawns are all HOME, in finishing order

    @property
    def over(self) -> bool:
        return self.turn is None

    @property
    def color(self) -> str | None:
        """The colour to play, None once the game is over."""
        return None if self.turn is None else self.position.colors[self.turn]

    @property
    def winner(self) -> str | None:
        return self.names[self.finished[0]] if self.finished else None

    @property
    def hands(self) -> int:
        """Cards held in hands (adult variation), the one waiting to be played excluded."""
        if not self.position.settings.adult:
            return 0
        return HAND * len(self.names) - (self.card is not None)

    @property
    def draw_pile(self) -> int:
        return sum(self.unseen) - self.hands

    def remaining(self) -> dict[str, int]:
        """How many of each card the pile (and hands) still hold: what makes the deck fair."""
        return dict(zip(CARDS, self.unseen, strict=True))

    def home(self, seat: int) -> int:
        return sum(1 for x in self.position.pawns[seat] if x == HOME_I)

    def seat_of(self, color: str) -> int:
        return self.position.colors.index(color)

    def with_(self, **changes: Any) -> BoardState:
        """A copy with some fields changed (faster than `_replace`: it runs on every event)."""
        get = changes.get
        return BoardState(get("setup", self.setup), get("position", self.position),
                          get("names", self.names), get("turn", self.turn),
                          get("card", self.card), get("unseen", self.unseen),
                          get("discards", self.discards), get("finished", self.finished))


def initial_state(setup: BoardSetup) -> BoardState:
    """Seats clockwise by colour; `first` plays first; a full deck (hands dealt, adult)."""
    order = sorted(range(len(setup.colors)), key=lambda i: COLORS.index(setup.colors[i]))
    colors = tuple(setup.colors[i] for i in order)
    names = tuple(setup.players[i] for i in order)
    position = Position.start(setup.edition, setup.settings, colors)
    counts = deck_counts(setup.settings.deck)
    return BoardState(setup, position, names, names.index(setup.first), None,
                      tuple(counts[c] for c in CARDS), (0,) * len(CARDS))
