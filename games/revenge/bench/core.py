"""The card game's core benchmarks: engine throughput, journal append latency, resume
time, simulation.

- events/s: the events of many simulated games (every table size, undo/redo and ignored
  presses included) pushed through fresh `Game`s; setup and transcript parsing excluded.
  That is replay's path (resume, history); a tap's goes on through the session, so the
  same events are also submitted to a `Session` without a journal: the rules, the undo
  stack, the options and summary worked out and an `Update` told to a listener, what
  the screen's thread pays per tap before the journal writer's thread takes over.
- journal append: each `Journal.append` of a 300-event game, on the disk under the
  temporary folder (WAL, synchronous=FULL: each append is durable when it returns).
- resume: that 10,000-event game, unfinished, written by the app's journal writer (so
  with its snapshots), from `Journal.open` through `snapshots.load_unfinished` to
  `Session.open_game` (what the app does after a crash or power cut); and, for
  comparison, the same game replayed whole (`unfinished()`, no snapshot).
- every figure in child processes, normal and under the Pi model (bench.pi), 3 runs each;
  events/s over all of a run's repeats (wall-clock, not the best one), with the CPU each
  event took beside it.
- simulated games/s: whole 4-player games, the bots' cards following the engine's.

The 10,000-event game repeats a legal cycle (numbers, Slides, Switch, Take 2, Play 2, a
21 with a SORRY! call and a Don't Be SORRY!, a flip-back left to close) that leaves
progress where it was, so no one wins: simulated games end after ~60 events.
"""

from __future__ import annotations

import os
import random
import tempfile
import time
from typing import Any

from bench import Measured, Row, clocked, measure, met, percentile
from companion.game import Game, Redo, Undo
from companion.journal import Journal
from companion.session import AnyUpdate, Session
from companion.snapshots import Resumable, load_unfinished
from games.revenge.rules import RULES, Event, GameState, Setup
from games.revenge.rules.simulate import random_options, simulate

MODULE = __spec__.name  # as `python -m bench child` names it, also when run with -m
EVENTS_GOAL = 50_000  # events applied, and submitted, per second, under the CPU quota too
APPEND_P99_GOAL_MS = 10.0
RESUME_GOAL_S = 0.05
RESUME_QUOTA_GOAL_S = 0.15  # issue 36 (it was 200 ms)
RESUME_EVENTS = 10_000
STREAM_GAMES = 400
SIM_GAMES = 200
Step = Event | Setup | Undo | Redo  # a simulated transcript's, setup first


def simulated_stream(games: int, seed: int = 2024) -> list[list[Step]]:
    """Transcripts of `games` simulated games of mixed tables (setup first in each)."""
    out = []
    for n in range(games):
        rng = random.Random(f"bench/{seed}/{n}")
        out.append(simulate(rng, **random_options(rng)).events)
    return out


def apply_events(transcripts: list[list[Step]], repeats: int = 3) -> int:
    """Push every event of `transcripts` through fresh `Game`s, `repeats` times; the
    events applied."""
    count = sum(len(t) - 1 for t in transcripts)
    for _ in range(repeats):
        for setup, *events in transcripts:
            assert isinstance(setup, Setup)
            game = Game(setup)
            for event in events:
                game.push(event)
    return count * repeats


def submit_events(transcripts: list[list[Step]], repeats: int = 3) -> int:
    """Each event through `Session.submit` (a tap's path), `repeats` times, a listener
    keeping the latest Update; the events submitted."""
    count = sum(len(t) - 1 for t in transcripts)
    heard: list[AnyUpdate] = []
    for _ in range(repeats):
        session = Session()
        session.subscribe(heard.append)
        for setup, *events in transcripts:
            session.new_game(setup)
            for event in events:
                session.submit(event)
                heard.clear()
    return count * repeats


def long_game(events: int = RESUME_EVENTS) -> list[dict[str, Any]]:
    """A legal, unfinished game of exactly `events` events (setup included)."""
    game = Game(Setup.create(["Ana", "Ben", "Cleo", "Dev"]), RULES)
    out: list[dict[str, Any]] = [game.setup.to_json()]

    def log(obj: dict[str, Any]) -> None:
        game.push(RULES.parse_event(obj))
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
        play_with_writer(journal, events)


def play_with_writer(journal: Journal, events: list[dict[str, Any]]) -> int:
    """Play the game (setup first) into `journal` as the app does, through a session with
    the writer thread, every event durable when it returns; the game's id."""
    session = Session(journal, background=True)
    session.new_game(Session.setup(events[0]))
    for obj in events[1:]:
        session.submit(session.parse_event(obj))
    game_id = session.game_id
    session.close()
    assert game_id is not None
    return game_id


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
        assert isinstance(state, GameState) and state.winner is None
    return percentile(times, 50)


def simulate_games(games: int = SIM_GAMES) -> int:
    for n in range(games):
        simulate(random.Random(f"bench/sim/{n}"), players=4, pawns=4)
    return games


APPEND_SAMPLES = 300  # appends timed per run (under the Pi model each syncs 30 ms later)


def child(mode: str, data_dir: str = "") -> dict[str, Any]:
    """One measurement, in a child process under one of bench.pi's conditions."""
    if mode in ("rate", "submit"):
        stream = simulated_stream(STREAM_GAMES)
        return clocked(lambda: (apply_events if mode == "rate" else submit_events)(stream))
    if mode == "append":
        seconds = journal_long_game(data_dir, long_game(APPEND_SAMPLES + 1))
        return {"p50": percentile(seconds, 50) * 1000, "p99": percentile(seconds, 99) * 1000}
    if mode == "resume":
        return {"s": resume_seconds(data_dir, RESUME_EVENTS)}
    if mode == "replay":
        return {"s": resume_seconds(data_dir, RESUME_EVENTS, repeats=3, snapshots=False)}
    if mode == "sim":
        return clocked(simulate_games)
    raise SystemExit(f"unknown mode {mode!r}")


def rows() -> list[Row]:
    n_events = sum(len(t) - 1 for t in simulated_stream(STREAM_GAMES))
    game = long_game()
    with tempfile.TemporaryDirectory(prefix="sorry-bench-") as data_dir, \
            tempfile.TemporaryDirectory(prefix="sorry-bench-") as written:
        journal_long_game(data_dir, game)
        write_with_writer(written, game)
        rate = measure(MODULE, "rate")
        submitted = measure(MODULE, "submit")
        append = measure(MODULE, "append", os.path.join(data_dir, "appends"))
        resume = measure(MODULE, "resume", written)
        replay = measure(MODULE, "replay", data_dir)
    sims = measure(MODULE, "sim")

    def ms(m: Measured, key: str) -> tuple[str, str]:
        def cell(c: str) -> str:
            return m.cell(c, lambda r: r[key] * 1000, "{:,.0f}", " ms")
        return cell("normal"), cell("pi")

    def p50_99(m: Measured, c: str) -> str:
        return (f"{m.cell(c, 'p50', '{:.2f}')} / {m.cell(c, 'p99', '{:.2f}')} ms"
                if m.runs.get(c) else "")

    return [
        Row(f"events applied per second ({STREAM_GAMES} simulated games, {n_events} events)",
            rate.rate("normal", "event"), rate.rate("pi", "event"),
            f">= {EVENTS_GOAL:,} events/s (Pi model too)",
            met(rate, "rate", lambda r: r >= EVENTS_GOAL), rate.load),
        Row("events submitted per second through a Session, no journal (the same events: "
            "rules, undo stack, options, summary and an Update told to a listener, a tap's "
            "path)", submitted.rate("normal", "event"), submitted.rate("pi", "event"),
            f">= {EVENTS_GOAL:,} events/s (Pi model too)",
            met(submitted, "rate", lambda r: r >= EVENTS_GOAL), submitted.load),
        Row(f"journal append, durable, on the writer's thread: p50 / p99 of {APPEND_SAMPLES} "
            "(the Pi model's syncs 30 ms slower)",
            p50_99(append, "normal"), p50_99(append, "pi"),
            f"p99 <= {APPEND_P99_GOAL_MS:g} ms (this disk)",
            met(append, "p99", lambda p: p <= APPEND_P99_GOAL_MS, ("normal",)), append.load),
        Row(f"resume a {len(game):,}-event game from its snapshot (open journal + "
            "load_unfinished + open_game)", *ms(resume, "s"),
            f"<= {RESUME_GOAL_S * 1000:.0f} ms, Pi model <= {RESUME_QUOTA_GOAL_S * 1000:.0f} ms",
            met(resume, "s", lambda s: s <= RESUME_GOAL_S, ("normal",))
            and met(resume, "s", lambda s: s <= RESUME_QUOTA_GOAL_S, ("pi",)), resume.load),
        Row("resume the same game replayed whole (no snapshot: journals before issue 8)",
            *ms(replay, "s"), load=replay.load),
        Row(f"simulated games per second ({SIM_GAMES} games, 4 players, 4 pawns, cards "
            "followed)", sims.rate("normal", "game"), sims.rate("pi", "game"),
            load=sims.load),
    ]


if __name__ == "__main__":
    for row in rows():
        print(row)
