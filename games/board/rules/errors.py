"""The board game's refusals: each a core CompanionError with a `code` and its facts.

`games.board.rules.explain` words every code below in English and French, so the
screen can say a refusal in either language from `code` and `params` alone.
"""

from __future__ import annotations

from companion.errors import BadEvent, IllegalEvent

__all__ = ["BadPosition", "IllegalMove", "IllegalPlace"]


class BadPosition(BadEvent):
    """A position (or a setup's board) that cannot exist: two pawns on a square, a square
    that is none, the wrong number of pawns."""


class IllegalMove(IllegalEvent):
    """A draw, move or no_play the board rules refuse now."""


class IllegalPlace(IllegalEvent):
    """A board correction (`place`) that would leave an impossible board."""
