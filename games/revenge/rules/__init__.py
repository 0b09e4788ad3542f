"""The Sorry! Revenge card game (RULES.md, TRANSCRIPT.md) behind `companion.rules.Rules`.

`RULES` is what the core uses; the names below are the game's public vocabulary for the
screens, voice, lamps and LED board (cards, events, state, what happened), so that
`ui/` and `hardware/` import this package and never its modules.

>>> from companion.game import Game
>>> game = Game(Setup.create(["Ana", "Ben"]))
>>> _ = game.push(Play(Card.parse("7")))
>>> RULES.state_json(game.state)["total"], "7" in legal_cards(RULES.options(game.state))
(7, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from companion.rules import GameSummary, Rules
from games.revenge.rules.cards import (
    ALL_CARDS,
    MAX_NUMBER,
    MAX_SLIDE,
    Card,
    CardKind,
)
from games.revenge.rules.engine import (
    Happening,
    Outcome,
    apply,
    apply_parts,
    countdown,
    options,
    outcomes_of,
)
from games.revenge.rules.events import (
    COLORS,
    MAX_PAWNS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    Close,
    Color,
    EndPlay2,
    Event,
    Play,
    Press,
    Setup,
    Tiebreak,
    Variant,
    parse_event,
    parse_setup,
)
from games.revenge.rules.state import Awaiting, Cause, GameState, Window, initial_state
from games.revenge.rules.stats import COUNTERS, RoundProgress, counters, progress_history

__all__ = [
    "ALL_CARDS", "COLORS", "COUNTERS", "MAX_NUMBER", "MAX_PAWNS", "MAX_PLAYERS", "MAX_SLIDE",
    "MIN_PLAYERS", "RULES", "Awaiting", "Card", "CardKind", "Cause", "Close", "Color", "EndPlay2",
    "Event", "GameState", "Happening", "Outcome", "Play", "Press", "RevengeRules", "RoundProgress",
    "Setup", "Tiebreak", "Variant", "Window", "flip_targets", "legal_cards", "outcomes_of",
    "progress_history",
]


class RevengeRules:
    """The card game's rules for the core (companion.rules.Rules)."""

    name = "revenge"
    counters = COUNTERS  # the stats counters, in the order the screens show them

    # The engine's functions themselves: no extra call per event on the hot path.
    apply = staticmethod(apply)
    apply_parts = staticmethod(apply_parts)  # Game.push's (companion.game)
    options = staticmethod(options)
    countdown = staticmethod(countdown)

    def parse_setup(self, obj: dict[str, Any]) -> Setup:
        return parse_setup(obj)

    def parse_event(self, obj: dict[str, Any]) -> Event:
        return parse_event(obj)

    def initial_state(self, setup: Setup) -> GameState:
        return initial_state(setup)

    def state_json(self, state: GameState) -> dict[str, Any]:
        return state.to_json()

    def summary(self, state: GameState) -> GameSummary:
        winner = state.winner  # (asked once per event: one summary per table and winner)
        return _summary(state.setup.players, None if winner is None else state.name(winner))

    def stats(self, steps: Sequence[Any]) -> dict[str, dict[str, int]]:
        return counters(steps)

    def describe(self, state: GameState) -> str:
        """`replay` without --json: a few readable lines (players, total, turn, winner)."""
        return describe(state)

    def rounds_played(self, steps: Sequence[Any]) -> int:
        """Rounds that ended in the effective history (the history's ROUNDS column)."""
        return len(progress_history(steps))


@lru_cache(maxsize=64)
def _summary(players: tuple[str, ...], winner: str | None) -> GameSummary:
    """A state's summary: the same immutable value all game long, so built once."""
    return GameSummary(players, winner, winner is not None)


RULES: Rules[Setup, GameState, Event] = RevengeRules()  # mypy checks the class against it


def legal_cards(events: Sequence[object]) -> frozenset[str]:
    """The codes of the cards some legal event plays (the others are greyed out)."""
    return frozenset(e.card.code for e in events if isinstance(e, Play))


def flip_targets(events: Sequence[object]) -> tuple[str, ...]:
    """The players a flip-back SORRY! may name now (empty: play it with no target)."""
    return tuple(e.target for e in events if isinstance(e, Play) and e.target is not None)


def describe(state: GameState) -> str:
    """A few readable lines: each player's HOME pawns, the total, whose turn, the winner."""
    lines = [
        f"{p.name:<12} {p.color.value:<6} home {p.home}/{state.setup.pawns}  "
        f"progress {p.progress}/{state.goal}  hand {p.hand}"
        for p in state.players
    ]
    lines.append(f"round {state.round}, total {state.total}, "
                 f"direction {'forward' if state.direction == 1 else 'reverse'}, "
                 f"draw pile {state.draw_pile}")
    if state.winner is not None:
        lines.append(f"winner: {state.name(state.winner)}")
    elif state.tiebreak is not None:
        lines.append("tiebreaker: " + ", ".join(state.name(s) for s in state.tiebreak.tied))
    else:
        waiting = f" (awaiting {state.awaiting.value})" if state.awaiting else ""
        lines.append(f"next: {state.turn_name}{waiting}")
    return "\n".join(lines)
