"""Bots that play whole board games against the rules: every choice is a legal option.

A bot draws with the electronic deck (`draw_card`, seeded), then takes a winning option if
there is one, else one that bumps an opponent if `greedy`, else any option. Game i of a
seed is always the same game. The events returned (setup first) are the transcript.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from companion.game import Step
from games.board.rules.deck import draw_card
from games.board.rules.events import (
    BoardEvent,
    BoardSetup,
    Draw,
    NoPlay,
    parse_event,
    parse_setup,
)
from games.board.rules.geometry import COLORS, TRACK_LEN, start_exit
from games.board.rules.moves import Option, has_options
from games.board.rules.position import HOME_I, START_I, is_safety
from games.board.rules.rules import RULES, options
from games.board.rules.state import BoardState

__all__ = ["SimulatedBoardGame", "choose", "simulate_board"]

MAX_EVENTS = 20_000  # a game of random bots that has not ended by then is "stalled"
NAMES = ("Ana", "Ben", "Cy", "Dee")


@dataclass
class SimulatedBoardGame:
    events: list[Any]  # the setup, then every event, as typed objects
    state: BoardState
    stalled: bool = False


def progress(color: str, loc: int) -> int:
    """How far a pawn of `color` has come: START 0, X 1, ..., E 59, S1..S5 60..64, HOME 65."""
    if loc in (START_I, HOME_I):
        return 0 if loc == START_I else 65
    if is_safety(loc):
        return loc - 1
    return (loc - 1 - start_exit(color)) % TRACK_LEN + 1


_PROGRESS = {c: tuple(progress(c, loc) for loc in range(HOME_I + 1)) for c in COLORS}


def _gain(option: Option) -> int:
    table = _PROGRESS[option.color]
    return sum(table[x] for x in option.board[option.colors.index(option.color)])


def choose(found: tuple[Option, ...], rng: random.Random, greedy: float = 0.9) -> Option:
    """A bot's pick: a win; else, most of the time, the option that brings its own pawns
    furthest; else any option (so every kind of option gets played)."""
    wins = [o for o in found if o.wins]
    if wins:
        return wins[0]
    if len(found) > 1 and rng.random() < greedy:
        return max(found, key=_gain)
    return rng.choice(found)


def simulate_board(rng: random.Random, *, edition: str = "classic", players: int = 4,
                   settings: dict[str, Any] | None = None,
                   max_events: int = MAX_EVENTS,
                   record: list[Any] | None = None) -> SimulatedBoardGame:
    """One whole game; `record` (a list) receives each step (event, before, after,
    outcomes), as the core's `Game.steps` would hold them, for the statistics."""
    setup: BoardSetup = parse_setup({
        "type": "setup", "game": "board", "edition": edition, "players": list(NAMES[:players]),
        "first": rng.choice(NAMES[:players]), "settings": settings or {}})
    state = RULES.initial_state(setup)
    events: list[Any] = [setup]
    adult = setup.settings.adult
    while not state.over and len(events) < max_events:
        if state.card is None:
            card = draw_card(state, rng)
            color = state.color
            assert color is not None
            event: BoardEvent = Draw(card)
            if adult and not has_options(state.position, card, color):
                # the bot holds no real hand: a card the counts allow, and when it has no
                # move, "no playable card" with it
                event = NoPlay(card)
        else:
            event = parse_event(choose(options(state), rng).event)
        tr = RULES.apply(state, event)
        if record is not None:
            record.append(Step(event, state, tr.state, tr.outcomes))
        state = tr.state
        events.append(event)
    return SimulatedBoardGame(events, state, stalled=not state.over)
