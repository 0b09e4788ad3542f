"""Core benchmarks: engine throughput, journal append latency, resume time, simulation.

- events/s: the events of many simulated games (every table size, undo/redo and ignored
  presses included) pushed through fresh `Game`s; setup and transcript parsing excluded.
- journal append: every `Journal.append` of a 10,000-event game, on the disk under the
  temporary folder (WAL, synchronous=FULL: each append is durable when it returns).
- resume: that 10,000-event game, unfinished, from `Journal.open` through `unfinished()`
  to `Session.open_game` (what the app does after a crash or power cut).
- simulated games/s: whole 4-player games, the bots' cards following the engine's.

The 10,000-event game repeats a legal cycle (numbers, Slides, Switch, Take 2, Play 2, a
21 with a SORRY! call and a Don't Be SORRY!, a flip-back left to close) that leaves
progress where it was, so no one wins: simulated games end after ~60 events.
"""

from __future__ import annotations

import random
import tempfile
import time
from typing import Any

from bench import Row, percentile
from companion.game import Game
from companion.games.revenge import Event, Setup, parse_event
from companion.games.revenge.simulate import random_options, simulate
from companion.journal import Journal
from companion.session import Session

EVENTS_GOAL = 50_000  # events applied per second
APPEND_P99_GOAL_MS = 10.0
RESUME_GOAL_S = 0.2
RESUME_EVENTS = 10_000
STREAM_GAMES = 400
SIM_GAMES = 200


def simulated_stream(games: int, seed: int = 2024) -> list[list[Event]]:
    """Transcripts of `games` simulated games of mixed tables (setup first in each)."""
    out = []
    for n in range(games):
        rng = random.Random(f"bench/{seed}/{n}")
        out.append(simulate(rng, **random_options(rng)).events)
    return out


def events_per_second(transcripts: list[list[Event]], repeats: int = 3) -> float:
    """Best of `repeats` runs: the engine's steady rate, not the machine's noise."""
    count = sum(len(t) - 1 for t in transcripts)
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        for setup, *events in transcripts:
            assert isinstance(setup, Setup)
            game = Game(setup)
            for event in events:
                game.push(event)
        best = min(best, time.perf_counter() - start)
    return count / best


def long_game(events: int = RESUME_EVENTS) -> list[dict[str, Any]]:
    """A legal, unfinished game of exactly `events` events (setup included)."""
    game = Game(Setup.create(["Ana", "Ben", "Cleo", "Dev"]))
    out: list[dict[str, Any]] = [game.setup.to_json()]

    def log(obj: dict[str, Any]) -> None:
        game.push(parse_event(obj))
        out.append(obj)

    while len(out) < events:
        for code in ("5", "slide:10", "switch", "take2", "play2", "1", "2", "3", "slide:21"):
            log({"type": "play", "card": code})
        window = game.state.window
        assert window is not None
        scorer, caller = game.state.name(window.scorer), game.state.turn_name
        t = 10.0 * len(out)
        log({"type": "press", "player": caller, "t": t})  # SORRY! steal
        log({"type": "press", "player": scorer, "t": t + 1})  # Don't Be SORRY!: kept
        log({"type": "play", "card": "sorry", "target": scorer})
        log({"type": "close"})  # flipped back: progress as before
    assert game.state.winner is None and game.state.reshuffles > 0
    return out[:events]


def journal_long_game(data_dir: str, events: list[dict[str, Any]]) -> list[float]:
    """Journal the game event by event; the seconds each append took."""
    seconds = []
    with Journal.open(data_dir) as journal:
        game_id = journal.start_game(events[0])
        for event in events[1:]:
            start = time.perf_counter()
            journal.append(game_id, event)
            seconds.append(time.perf_counter() - start)
    return seconds


def resume_seconds(data_dir: str, expected_events: int, repeats: int = 5) -> float:
    """Median time from opening the journal to the resumed game's state."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        journal = Journal.open(data_dir)
        stored = journal.unfinished()
        assert stored is not None and len(stored.events) == expected_events
        state = Session(journal).open_game(stored.game_id, stored.events).state
        times.append(time.perf_counter() - start)
        journal.close()
        assert state.winner is None
    return percentile(times, 50)


def simulated_games_per_second(games: int = SIM_GAMES) -> float:
    start = time.perf_counter()
    for n in range(games):
        simulate(random.Random(f"bench/sim/{n}"), players=4, pawns=4)
    return games / (time.perf_counter() - start)


def rows() -> list[Row]:
    stream = simulated_stream(STREAM_GAMES)
    rate = events_per_second(stream)
    game = long_game()
    with tempfile.TemporaryDirectory(prefix="sorry-bench-") as data_dir:
        appends = journal_long_game(data_dir, game)
        resume = resume_seconds(data_dir, len(game))
    p50, p99 = (percentile(appends, q) * 1000 for q in (50, 99))
    sims = simulated_games_per_second()
    n_events = sum(len(t) - 1 for t in stream)
    return [
        Row(f"events applied per second ({STREAM_GAMES} simulated games, {n_events} events)",
            f"{rate:,.0f} events/s", f">= {EVENTS_GOAL:,} events/s", rate >= EVENTS_GOAL),
        Row(f"journal append, durable (p50 / p99 of {len(appends):,})",
            f"{p50:.2f} ms / {p99:.2f} ms", f"p99 <= {APPEND_P99_GOAL_MS:g} ms",
            p99 <= APPEND_P99_GOAL_MS),
        Row(f"resume a {len(game):,}-event game (open journal + unfinished + open_game)",
            f"{resume * 1000:.0f} ms", f"<= {RESUME_GOAL_S * 1000:.0f} ms",
            resume <= RESUME_GOAL_S),
        Row("simulated games per second (4 players, 4 pawns, cards followed)",
            f"{sims:,.0f} games/s"),
    ]
