"""The card game's statistics counters, read from the engine's outcomes on the effective
steps (`Game.steps`), so an undone event never counts and no rule is restated here.

A round "won" is a round whose advance for reaching 21 went to that player: kept
(ROUND_KEPT, also after a block) or stolen (STOLEN).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from games.revenge.rules.engine import Happening

__all__ = ["COUNTERS", "RoundProgress", "counters", "progress_history"]

COUNTERS = ("rounds_won", "busts", "steals", "steals_blocked")  # in the order shown
_COUNTED = {
    Happening.ROUND_KEPT: ("rounds_won",),
    Happening.STOLEN: ("rounds_won", "steals"),
    Happening.BUST: ("busts",),
    Happening.STEAL_BLOCKED: ("steals_blocked",),
}


@dataclass(frozen=True, slots=True)
class RoundProgress:
    """Every seat's progress right after round `round` ended."""

    round: int
    progress: tuple[int, ...]


def counters(steps: Sequence[Any]) -> dict[str, dict[str, int]]:
    """Per player (every seat, in seat order): rounds won, busts, steals, steals blocked."""
    if not steps:
        return {}
    names = steps[0].before.setup.players
    counts = [dict.fromkeys(COUNTERS, 0) for _ in names]
    for step in steps:
        for out in step.outcomes:
            if out.seat is not None:
                for key in _COUNTED.get(out.what, ()):
                    counts[out.seat][key] += 1
    return dict(zip(names, counts, strict=True))


def progress_history(steps: Sequence[Any]) -> tuple[RoundProgress, ...]:
    """Progress after each ended round, for the game-over picture.

    Followed outcome by outcome (an advance's value is the new progress), because one
    event can end two rounds: a card logged while a window is open closes it first.
    """
    history: list[RoundProgress] = []
    for step in steps:
        progress = list(step.before.progress)
        for out in step.outcomes:
            if out.what in (Happening.ADVANCE, Happening.MOVE_BACK) and out.seat is not None:
                progress[out.seat] = int(out.value or 0)
            elif out.what is Happening.ROUND_ENDED:
                history.append(RoundProgress(int(out.value or 0), tuple(progress)))
    return tuple(history)
