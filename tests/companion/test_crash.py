"""Power-cut safety: a real child process is killed with SIGKILL at random moments.

The child (crash_child.py, forked by its fork server) plays a seeded random game through
Session(Journal) and says what it is about to submit (W) and what was acknowledged (A,
with a hash of the state). The parent waits for a random number of acknowledgements by
reading those lines, sometimes adds a tiny random delay so the kill can land inside an
append, kills, reads what the child wrote before it died, and checks the journal:

- every acknowledged event is there, in order, unchanged, and nothing else, except at
  most the one event the child had announced and not yet acknowledged;
- the game resumed from journal.unfinished() by Session.open_game has exactly the
  state the child acknowledged last (or, with that one extra event, the state after it).

The next child continues the same database, so resuming is tested 60 times per database.
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import os
import random
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from companion.errors import CompanionError
from companion.game import Game
from companion.journal import Journal
from companion.session import Session

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
CHILD = HERE / "crash_child.py"
# `make test` kills in 2 databases per kind, `make fuzz` in 4 (CRASH_DATABASES): 55 kills each.
DATABASES = int(os.environ.get("CRASH_DATABASES", "2"))
KILLS_PER_DATABASE = 55
BOARD_DATABASES = 1  # the board game's: draws, options, corrections, undo and redo

_spec = importlib.util.spec_from_file_location("crash_child", CHILD)
assert _spec is not None and _spec.loader is not None
crash_child = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(crash_child)
state_hash = crash_child.state_hash


@dataclass
class Model:
    """What the children acknowledged, game by game: the journal must hold exactly this."""

    games: dict[int, list[dict[str, Any]]] = field(default_factory=dict)
    current: int | None = None
    hash: str | None = None  # the state the child acknowledged last
    pending: tuple[str, dict[str, Any]] | None = None  # announced, not acknowledged
    acks: int = 0

    def read(self, line: str) -> None:
        kind, _, rest = line.partition(" ")
        if kind == "N":
            self.pending = ("new", json.loads(rest))
        elif kind == "W":
            self.pending = ("event", json.loads(rest))
        elif kind == "R":
            self.pending = None
        elif kind == "G":
            gid, count, digest = rest.split()
            if self.pending is not None and self.pending[0] == "new":
                self.games[int(gid)] = [self.pending[1]]
                self.pending = None
            assert int(gid) in self.games, f"child opened game {gid}, which it never started"
            assert int(count) == len(self.games[int(gid)]) - 1
            if self.current == int(gid):
                assert digest == self.hash, "the resumed state is not the acknowledged one"
            self.current, self.hash = int(gid), digest
        elif kind == "A":
            count, digest = rest.split()
            assert self.pending is not None and self.pending[0] == "event"
            assert self.current is not None
            self.games[self.current].append(self.pending[1])
            assert int(count) == len(self.games[self.current]) - 1
            self.hash, self.pending = digest, None
            self.acks += 1
        elif kind != "F":
            raise AssertionError(f"unexpected line from the child: {line!r}")


def _replay(events: list[dict[str, Any]]) -> str:
    return state_hash(Game.from_json(events).state)


def check_journal(data: Path, model: Model) -> None:
    """The journal equals the acknowledged events, give or take the announced one."""
    with Journal.open(data) as journal:
        pending = model.pending
        # a kill in the middle of a save may leave that one announced event's frames without
        # their commit: said (issue 21), never a loss of an acknowledged event
        unsaved = [n for n in journal.damage
                   if getattr(n, "code", "") in ("in_flight", "wal_cut")]
        assert [n for n in journal.damage if n not in unsaved] == []
        assert all(n.params["count"] <= 1 and pending is not None for n in unsaved), unsaved
        stored_ids = [r.game_id for r in journal.games()]
        extra = [g for g in stored_ids if g not in model.games]
        if extra:  # the child was killed after starting a game, before saying so
            assert pending is not None and pending[0] == "new" and len(extra) == 1
            assert journal.load(extra[0]).events == [pending[1]]
            model.games[extra[0]] = [pending[1]]
            model.current, model.hash = extra[0], _replay([pending[1]])
            pending = model.pending = None
        for gid, acked in model.games.items():
            events = journal.load(gid).events
            if gid == model.current and len(events) == len(acked) + 1:
                assert pending is not None and pending[0] == "event", "an unannounced event"
                assert events[-1] == pending[1], "the extra event is not the announced one"
                acked.append(pending[1])
                model.hash, model.pending = _replay(acked), None
            assert events == acked, f"game {gid}: the journal differs from what was acked"
        if model.current is None:  # killed before any game was started
            assert stored_ids == []
            return
        resumed = journal.unfinished()
        if resumed is None:  # the current game was won and its result written
            assert journal.games()[-1].winner is not None
            assert _replay(journal.load(model.current).events) == model.hash
        else:
            assert resumed.game_id == model.current
            state = Session().open_game(resumed.game_id, resumed.events).state
            assert state_hash(state) == model.hash


class ForkServer:
    """crash_child.py's fork server: one interpreter, imported once, forks each child."""

    def __init__(self, stderr: Path) -> None:
        env = {**os.environ, "PYTHONPATH": str(REPO), "PYTHONHASHSEED": "0"}
        self.stderr_path = stderr
        self._stderr = stderr.open("w")
        self.proc = subprocess.Popen(
            [sys.executable, "-S", str(CHILD), "serve"], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=self._stderr, text=True, env=env, cwd=REPO)

    def line(self) -> str:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            pytest.fail(f"the fork server stopped: {self.stderr_path.read_text()}")
        return line.rstrip("\n")

    def start(self, *args: object) -> int:
        """Fork a child with these arguments; its pid (the first thing it says)."""
        assert self.proc.stdin is not None
        self.proc.stdin.write(" ".join(str(a) for a in args) + "\n")
        self.proc.stdin.flush()
        kind, _, pid = self.line().partition(" ")
        assert kind == "P", f"the fork server said {kind!r} instead of a child's pid"
        return int(pid)

    def close(self) -> None:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.close()
        try:
            self.proc.wait(timeout=60)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait()
            self.proc.stdout.close()
            self._stderr.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Any:
    forks = ForkServer(tmp_path_factory.mktemp("crash") / "stderr.txt")
    yield forks
    forks.close()


def kill_child(server: ForkServer, args: tuple[object, ...], wanted: int, rng: random.Random,
               read: Any) -> None:
    """Fork a child with `args`, feed its lines to `read` until it has acknowledged
    `wanted` events (-1: kill while it starts up and resumes), kill it with SIGKILL at
    that moment or a moment later, and feed `read` all it wrote before it died."""
    pid = server.start(*args)
    acks, done = 0, False
    try:
        while wanted >= 0:
            line = server.line()
            if line.startswith("X "):
                pid = 0  # gone (and reaped): nothing to kill
                pytest.fail(f"the child stopped by itself: {server.stderr_path.read_text()}")
            read(line)
            if line.startswith("A ") or (wanted == 0 and line.startswith("G ")):
                acks += line.startswith("A ")
                if acks >= wanted:
                    break
        if rng.random() < 0.5:
            time.sleep(rng.uniform(0, 0.003))  # not synchronisation: a random kill moment
        done = True
    finally:  # a failed check above must not leave the child playing for the next test
        if pid:
            os.kill(pid, signal.SIGKILL)  # alive: the server says X only once it is gone
        if pid and not done:  # and the server ready for the next child
            with contextlib.suppress(Exception, pytest.fail.Exception):
                while not server.line().startswith("X "):
                    pass
    while not (line := server.line()).startswith("X "):  # what it wrote before it died
        read(line)
    assert int(line.split()[1]) == -signal.SIGKILL, server.stderr_path.read_text()


def run_child(server: ForkServer, data: Path, seed: int, rng: random.Random, model: Model,
              game: str = "revenge") -> None:
    """Start a child on `data`, kill it at a random moment, feed all it said to `model`."""
    wanted = -1 if rng.random() < 0.08 else rng.randint(0, 12)
    kill_child(server, (data, seed, game), wanted, rng, model.read)


@pytest.mark.slow
@pytest.mark.parametrize("game, database", [*(("revenge", d) for d in range(DATABASES)),
                                            *(("board", d) for d in range(BOARD_DATABASES))])
def test_every_acknowledged_event_survives_sigkill(server: ForkServer, tmp_path: Path,
                                                   game: str, database: int) -> None:
    rng = random.Random(1000 + database + (500 if game == "board" else 0))
    model = Model()
    kills = 0
    for run in range(KILLS_PER_DATABASE):
        run_child(server, tmp_path, seed=database * 1000 + run, rng=rng, model=model, game=game)
        kills += 1
        try:
            check_journal(tmp_path, model)
        except CompanionError as exc:  # pragma: no cover - a journal that cannot be read
            pytest.fail(f"after kill {kills}: {exc}")
    assert kills == KILLS_PER_DATABASE
    assert model.acks > KILLS_PER_DATABASE  # the games really went on between kills
    # and games were won and new ones started (a board game is too long to end here)
    assert len(model.games) >= (2 if game == "revenge" else 1)


# --- with the journal writer thread: durable events kept, the resumed game a prefix ---

WRITER_DATABASES = DATABASES
WRITER_KILLS_PER_DATABASE = 55


@dataclass
class ShownModel:
    """What a writer-mode child showed (applied) and what its writer said was durable."""

    shown: dict[int, list[dict[str, Any]]] = field(default_factory=dict)  # setup first
    hashes: dict[int, list[str]] = field(default_factory=dict)  # state after each prefix
    durable: dict[int, int] = field(default_factory=dict)  # last durable seq
    current: int | None = None
    pending: tuple[str, dict[str, Any]] | None = None
    acks: int = 0
    killed_in_flight: int = 0  # kills that landed with shown events not yet durable
    lost_in_flight: int = 0  # shown events a kill took (never durable ones)

    def read(self, line: str) -> None:
        kind, _, rest = line.partition(" ")
        if kind in ("N", "W"):
            self.pending = ("new" if kind == "N" else "event", json.loads(rest))
        elif kind == "R":
            self.pending = None
        elif kind == "G":
            gid, count, digest = rest.split()
            game = int(gid)
            if self.pending is not None and self.pending[0] == "new":
                self.shown[game], self.hashes[game] = [self.pending[1]], [digest]
                self.durable[game], self.pending = 0, None  # start_game is synchronous
            assert game in self.shown, f"child opened game {gid}, which it never started"
            assert int(count) == len(self.shown[game]) - 1
            assert digest == self.hashes[game][-1], "the resumed state is not the shown one"
            self.current = game
        elif kind == "A":
            count, digest = rest.split()
            assert self.pending is not None and self.pending[0] == "event"
            assert self.current is not None
            self.shown[self.current].append(self.pending[1])
            self.hashes[self.current].append(digest)
            assert int(count) == len(self.shown[self.current]) - 1
            self.pending = None
            self.acks += 1
        elif kind == "D":
            gid, seq = (int(x) for x in rest.split())
            # the writer may report the event being announced before the child says "A"
            assert seq <= len(self.shown[gid]), "durable before it was submitted"
            self.durable[gid] = max(self.durable.get(gid, 0), seq)
        elif kind != "F":
            raise AssertionError(f"unexpected line from the child: {line!r}")


def check_writer_journal(data: Path, model: ShownModel) -> None:
    """Every durable event is kept; each game's journal is a prefix of what was shown;
    the resumed state is the one shown after that prefix."""
    from companion.snapshots import load_unfinished

    with Journal.open(data) as journal:
        # a kill while saving is said (issue 21: "tap again what came after it"); nothing else
        assert [n for n in journal.damage
                if getattr(n, "code", "") not in ("in_flight", "wal_cut")] == []
        stored_ids = [r.game_id for r in journal.games()]
        extra = [g for g in stored_ids if g not in model.shown]
        if extra:  # killed after starting a game, before saying so
            assert model.pending is not None and model.pending[0] == "new" and len(extra) == 1
            assert journal.load(extra[0]).events == [model.pending[1]]
            model.shown[extra[0]], model.durable[extra[0]] = [model.pending[1]], 0
            model.hashes[extra[0]] = [_replay([model.pending[1]])]
            model.current, model.pending = extra[0], None
        in_flight = False
        for gid, shown in model.shown.items():
            events = journal.load(gid).events
            if (gid == model.current and len(events) == len(shown) + 1
                    and model.pending is not None and model.pending[0] == "event"):
                # killed between applying an event and saying so: it reached the journal
                assert events[-1] == model.pending[1], "the extra event is not the announced one"
                shown.append(model.pending[1])
                model.hashes[gid].append(_replay(shown))
            assert len(events) >= model.durable.get(gid, 0) + 1, f"game {gid}: a durable event lost"
            assert events == shown[: len(events)], f"game {gid}: not a prefix of what was shown"
            if gid != model.current:
                assert len(events) == len(shown), "a game's events were left behind by a new one"
            if len(events) < len(shown):
                in_flight = True
                model.lost_in_flight += len(shown) - len(events)
                del shown[len(events):], model.hashes[gid][len(events):]
            model.durable[gid] = len(events) - 1
        model.pending = None
        model.killed_in_flight += in_flight
        if model.current is None:
            assert stored_ids == []
            return
        found = load_unfinished(journal)
        expected = model.hashes[model.current][-1]
        if found is None:  # the current game was won and its result written
            assert journal.games()[-1].winner is not None
            assert _replay(journal.load(model.current).events) == expected
            return
        assert found.game_id == model.current
        if hasattr(found, "replay"):
            state = Session().open_game(found.game_id, (), replayed=found.replay()).state
        else:
            state = Session().open_game(found.game_id, found.events).state
        assert state_hash(state) == expected, "the resumed state is not the one shown"


def run_writer_child(server: ForkServer, data: Path, seed: int, rng: random.Random,
                     model: ShownModel) -> None:
    wanted = -1 if rng.random() < 0.05 else rng.randint(0, 40)
    kill_child(server, (data, seed, "writer"), wanted, rng, model.read)


@pytest.mark.slow
@pytest.mark.parametrize("database", range(WRITER_DATABASES))
def test_writer_keeps_durable_events_and_resumes_a_prefix_of_what_was_shown(
        server: ForkServer, tmp_path: Path, database: int) -> None:
    rng = random.Random(5000 + database)
    model = ShownModel()
    for run in range(WRITER_KILLS_PER_DATABASE):
        run_writer_child(server, tmp_path, seed=50_000 + database * 1000 + run, rng=rng,
                         model=model)
        try:
            check_writer_journal(tmp_path, model)
        except CompanionError as exc:  # pragma: no cover - a journal that cannot be read
            pytest.fail(f"after kill {run + 1}: {exc}")
    assert model.acks > WRITER_KILLS_PER_DATABASE
    assert len(model.shown) >= 2
    # the point of this test: many kills landed while the writer had events in flight
    assert model.killed_in_flight >= WRITER_KILLS_PER_DATABASE // 5, model.killed_in_flight
