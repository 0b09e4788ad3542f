"""What an event did, for the screen, the voice and the statistics (`Transition.outcomes`)."""

from __future__ import annotations

from typing import NamedTuple

from games.board.rules.moves import Blocked, Option

__all__ = ["DrawAgain", "Drew", "Finished", "Forfeited", "Moved", "NoPlayed", "Placed",
           "Reshuffled", "Returned"]


class Reshuffled(NamedTuple):
    """The draw pile was empty: the discards became the new pile."""

    cards: int


class Drew(NamedTuple):
    color: str
    card: str


class Moved(NamedTuple):
    color: str
    option: Option


class Forfeited(NamedTuple):
    """No option for the card: it is discarded. `why` is what `explain` words."""

    color: str
    card: str
    why: tuple[Blocked, ...]
    again: bool = False  # the classic 2: the same player draws again


class DrawAgain(NamedTuple):
    """Classic 2: the same player draws again (after a move or a forfeit, never a win)."""

    color: str


class Finished(NamedTuple):
    """`color`'s last pawn is HOME; place 1 wins the game."""

    color: str
    place: int


class NoPlayed(NamedTuple):
    """Adult variation: no playable card, `card` discarded and one drawn."""

    color: str
    card: str


class Placed(NamedTuple):
    """A correction of the board by the scorekeeper."""

    color: str
    src: str
    dst: str


class Returned(NamedTuple):
    """Adult variation: after a correction the card waiting has no move; back to the hand."""

    color: str
    card: str
