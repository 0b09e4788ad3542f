"""Per-player figures of one board game, counted from its effective steps' outcomes, so an
undone move never counts and no rule is restated here.

Counters: `moves`, `bumps` (opponents' pawns a player sent to START: bumps, slides,
Sorry!s), `sorrys` (Sorry! cards played as a Sorry!), `forfeits` (turns with no option),
`pawns_home`. The core adds games and wins from the summary.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from games.board.rules.outcomes import Forfeited, Moved

__all__ = ["COUNTERS", "game_counters"]

COUNTERS = ("bumps", "sorrys", "forfeits", "moves", "pawns_home")


def game_counters(steps: Iterable[Any]) -> dict[str, dict[str, int]]:
    """name -> counter -> value, every seated player present (zeros included)."""
    steps = list(steps)
    if not steps:
        return {}
    last = steps[-1].after
    names = dict(zip(last.position.colors, last.names, strict=True))
    out = {name: dict.fromkeys(COUNTERS, 0) for name in names.values()}
    for step in steps:
        for outcome in step.outcomes:
            if isinstance(outcome, Moved):
                mine = out[names[outcome.color]]
                mine["moves"] += 1
                mine["bumps"] += sum(1 for c in outcome.option.bumped if c != outcome.color)
                mine["sorrys"] += outcome.option.kind == "sorry"
            elif isinstance(outcome, Forfeited):
                out[names[outcome.color]]["forfeits"] += 1
    for seat, name in enumerate(last.names):
        out[name]["pawns_home"] = last.home(seat)
    return out
