"""Core benchmarks: engine throughput, journal append latency, resume time, simulation.

- events/s: the events of many simulated games (every table size, undo/redo and ignored
  presses included) pushed through fresh `Game`s; setup and transcript parsing excluded.
- journal append: every `Journal.append` of a 10,000-event game, on the disk under the
  temporary folder (WAL, synchronous=FULL: each append is durable when it returns).
- resume: that 10,000-event game, unfinished, written by the app's journal writer (so
  with its snapshots), from `Journal.open` through `snapshots.load_unfinished` to
  `Session.open_game` (what the app does after a crash or power cut); and, for
  comparison, the same game replayed whole (`unfinished()`, no snapshot).
- Pi conditions (bench.pi) run in child processes (`python -m bench.core child ...`):
  the engine and resume under the CPU quota (events/s over all runs, not the best one:
  a quota's periods make single runs jumpy), the durable append with the sync delay.
- simulated games/s: whole 4-player games, the bots' cards following the engine's.

The 10,000-event game repeats a legal cycle (numbers, Slides, Switch, Take 2, Play 2, a
21 with a SORRY! call and a Don't Be SORRY!, a flip-back left to close) that leaves
progress where it was, so no one wins: simulated games end after ~60 events.
"""

from __future__ import annotations

import json
import random
import sys
import tempfile
import time
from typing import Any

from bench import Row, percentile, pi
from companion.game import Game
from companion.games.revenge import Event, Setup, parse_event
from companion.games.revenge.simulate import random_options, simulate
from companion.journal import Journal
from companion.session import Session
from companion.snapshots import Resumable, load_unfinished

EVENTS_GOAL = 50_000  # events applied per second, under the CPU quota too
APPEND_P99_GOAL_MS = 10.0
RESUME_GOAL_S = 0.05
RESUME_QUOTA_GOAL_S = 0.2
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


def events_per_second(transcripts: list[list[Event]], repeats: int = 3,
                      best: bool = True) -> float:
    """Best of `repeats` runs (the engine's steady rate, not the machine's noise), or with
    `best=False` all the events over all the time (under a quota's on/off periods)."""
    count = sum(len(t) - 1 for t in transcripts)
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        for setup, *events in transcripts:
            assert isinstance(setup, Setup)
            game = Game(setup)
            for event in events:
                game.push(event)
        times.append(time.perf_counter() - start)
    return count / min(times) if best else count * repeats / sum(times)


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


def write_with_writer(data_dir: str, events: list[dict[str, Any]]) -> None:
    """The game as the app journals it: through a session with the writer thread."""
    with Journal.open(data_dir) as journal:
        session = Session(journal, background=True)
        session.new_game(Session.setup(events[0]))
        for obj in events[1:]:
            session.submit(session.parse_event(obj))
        session.close()


def resume_seconds(data_dir: str, expected_events: int, repeats: int = 5,
                   snapshots: bool = True) -> float:
    """Median time from opening the journal to the resumed game's state."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        journal = Journal.open(data_dir)
        if snapshots:  # what the app does: Session.resume, through the snapshot
            update = Session(journal).resume()
        else:
            stored = journal.unfinished()
            assert stored is not None and len(stored.events) == expected_events
            update = Session(journal).open_game(stored.game_id, stored.events)
        times.append(time.perf_counter() - start)
        assert update is not None
        state = update.state
        if snapshots:
            found = load_unfinished(journal)
            assert isinstance(found, Resumable) and found.event_count == expected_events
        journal.close()
        assert state.winner is None
    return percentile(times, 50)


def simulated_games_per_second(games: int = SIM_GAMES) -> float:
    start = time.perf_counter()
    for n in range(games):
        simulate(random.Random(f"bench/sim/{n}"), players=4, pawns=4)
    return games / (time.perf_counter() - start)


APPEND_SYNC_SAMPLES = 60  # appends under the sync delay: 30 ms each


def child(mode: str, data_dir: str = "") -> dict[str, Any]:
    """One measurement in a child process, under whatever condition it was started in."""
    if mode == "rate":
        return {"rate": events_per_second(simulated_stream(STREAM_GAMES), 5, best=False)}
    if mode == "resume":
        return {"resume": resume_seconds(data_dir, RESUME_EVENTS, repeats=7)}
    if mode == "append":
        return {"append": journal_long_game(data_dir, long_game()[: APPEND_SYNC_SAMPLES + 1])}
    raise SystemExit(f"unknown mode {mode!r}")


def _in_child(condition: str, mode: str, data_dir: str = "") -> dict[str, Any] | None:
    if not pi.available(condition):
        return None
    out = pi.run(["-m", "bench.core", "child", mode, data_dir], condition)
    return json.loads(out.strip().splitlines()[-1])


def rows() -> list[Row]:
    stream = simulated_stream(STREAM_GAMES)
    rate = events_per_second(stream)
    game = long_game()
    with tempfile.TemporaryDirectory(prefix="sorry-bench-") as data_dir, \
            tempfile.TemporaryDirectory(prefix="sorry-bench-") as written, \
            tempfile.TemporaryDirectory(prefix="sorry-bench-") as sync_dir:
        appends = journal_long_game(data_dir, game)
        full_resume = resume_seconds(data_dir, len(game), snapshots=False)
        write_with_writer(written, game)
        resume = resume_seconds(written, len(game))
        quota_rate = _in_child("quota", "rate")
        quota_resume = _in_child("quota", "resume", written)
        sync_append = _in_child("sync", "append", sync_dir)
    p50, p99 = (percentile(appends, q) * 1000 for q in (50, 99))
    sims = simulated_games_per_second()
    n_events = sum(len(t) - 1 for t in stream)
    q_rate = None if quota_rate is None else quota_rate["rate"]
    q_resume = None if quota_resume is None else quota_resume["resume"]
    s_append = None if sync_append is None else [s * 1000 for s in sync_append["append"]]
    return [
        Row(f"events applied per second ({STREAM_GAMES} simulated games, {n_events} events)",
            f"{rate:,.0f} events/s", f">= {EVENTS_GOAL:,} events/s (quota too)",
            rate >= EVENTS_GOAL and (q_rate is None or q_rate >= EVENTS_GOAL),
            quota="" if q_rate is None else f"{q_rate:,.0f} events/s"),
        Row(f"journal append, durable (p50 / p99 of {len(appends):,}; with the sync delay of "
            f"{APPEND_SYNC_SAMPLES}), on the writer's thread",
            f"{p50:.2f} ms / {p99:.2f} ms", f"p99 <= {APPEND_P99_GOAL_MS:g} ms (this disk)",
            p99 <= APPEND_P99_GOAL_MS,
            sync="" if s_append is None else
            f"{percentile(s_append, 50):.1f} ms / {percentile(s_append, 99):.1f} ms"),
        Row(f"resume a {len(game):,}-event game from its snapshot (open journal + "
            "load_unfinished + open_game)",
            f"{resume * 1000:.0f} ms",
            f"<= {RESUME_GOAL_S * 1000:.0f} ms, quota <= {RESUME_QUOTA_GOAL_S * 1000:.0f} ms",
            resume <= RESUME_GOAL_S and (q_resume is None or q_resume <= RESUME_QUOTA_GOAL_S),
            quota="" if q_resume is None else f"{q_resume * 1000:.0f} ms"),
        Row("resume the same game replayed whole (no snapshot: journals before issue 8)",
            f"{full_resume * 1000:.0f} ms"),
        Row("simulated games per second (4 players, 4 pawns, cards followed)",
            f"{sims:,.0f} games/s"),
    ]


if __name__ == "__main__":
    if sys.argv[1:2] == ["child"]:
        print(json.dumps(child(*sys.argv[2:4])))
    else:
        for row in rows():
            print(row)
