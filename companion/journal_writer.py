"""The journal writer: one thread that makes accepted events durable, in order.

With a writer, the session applies an event and tells the screen at once; this thread
writes it behind (SQLite, WAL, synchronous=FULL), several queued events in one
transaction when the disk is slower than the table. So a slow SD card never delays a tap
or a SORRY! press, and what a power cut can take is exactly the events still in flight:
the game resumes at the last durable event, and the screen had shown at most the events
after it that were still queued.

Events carry their position (`seq`) in the game. The writer writes a game's events only
in order: after a failed write it writes nothing more of that game until the session has
gone back to the last durable event and submits again from there (older queued events,
now stale, are dropped). Before it writes at a position it sets aside any row already
there (a failed commit's leftover), in the same transaction, so a failed event is never
resurrected by a later resume.
"""

from __future__ import annotations

import logging
import threading
import time
import zlib
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from companion import snapshots
from companion.errors import JournalError
from companion.game import Game, SomeGame, Step
from companion.journal import INSERT_EVENT, Journal, count_added, encode_event
from companion.rules import JsonEvent
from companion.safe_text import one_line

__all__ = ["LAG_MARK_S", "InFlight", "JournalWriter"]

log = logging.getLogger(__name__)

LAG_MARK_S = 0.25  # the screen shows "saving" when durability lags more than this
BATCH = 64  # events at most in one transaction
CLOSE_TIMEOUT_S = 10.0

DurableListener = Callable[[int, int], None]  # (game_id, last durable seq)
FailureListener = Callable[[int, int, JournalError], None]  # (game_id, failed seq, why)


@dataclass(frozen=True, slots=True)
class _Begin:
    game_id: int
    next_seq: int  # events 0..next_seq-1 are in the journal already


@dataclass(frozen=True, slots=True)
class _Append:
    game_id: int
    seq: int
    event: dict[str, Any]
    snapshot: Callable[[], bytes] | None = None  # the game after this event, encoded late


@dataclass(frozen=True, slots=True)
class _Result:
    game_id: int
    winner: str | None


_Job = _Begin | _Append | _Result


class JournalWriter:
    """The single thread that writes a session's events; thread-safe to call."""

    def __init__(self, journal: Journal, *, clock: Callable[[], float] = time.monotonic,
                 settle: float = 0.0) -> None:
        """`settle`: seconds an event waits before its write starts (unless flushed or
        closing): the app's screen draws the tap's frame first, with the core to itself
        (the write's CPU and its hold on the GIL came in the middle of that frame)."""
        self.journal = journal
        self.clock = clock
        self.settle = settle
        self._cond = threading.Condition()
        self._jobs: deque[tuple[float, float, _Job]] = deque()  # (clock, monotonic, job)
        self._hurry = 0  # callers waiting in flush(): nothing settles meanwhile
        self._working_since: float | None = None
        self._closing = False
        self._next: dict[int, int] = {}  # game -> the seq it writes next
        self._chain: dict[int, int] = {}  # game -> snapshots' events_crc of events written
        self._unsnappable: set[int] = set()  # games whose snapshots could not be encoded
        self._on_durable: list[DurableListener] = []
        self._on_failure: list[FailureListener] = []
        self._thread = threading.Thread(target=self._run, name="journal-writer", daemon=True)
        self._thread.start()

    # --- any thread ---

    def subscribe(self, *, durable: DurableListener | None = None,
                  failure: FailureListener | None = None) -> None:
        """Listeners run on the writer's thread: hand over, never block."""
        if durable is not None:
            self._on_durable.append(durable)
        if failure is not None:
            self._on_failure.append(failure)

    def begin(self, game_id: int, next_seq: int) -> None:
        """A game is open with events 0..next_seq-1 stored; its appends start at next_seq."""
        self._put(_Begin(game_id, next_seq))

    def append(self, game_id: int, seq: int, event: dict[str, Any],
               snapshot: Callable[[], bytes] | None = None) -> None:
        self._put(_Append(game_id, seq, event, snapshot))

    def set_result(self, game_id: int, winner: str | None) -> None:
        self._put(_Result(game_id, winner))

    @property
    def closed(self) -> bool:
        return self._closing

    def lag(self) -> float:
        """Seconds the oldest event not yet durable has waited (0: all durable)."""
        with self._cond:
            since = [t for t in (self._working_since,
                                 self._jobs[0][0] if self._jobs else None) if t is not None]
        return self.clock() - min(since) if since else 0.0

    def flush(self, timeout: float | None = None) -> bool:
        """Wait until everything queued is written (or failed); False on timeout."""
        with self._cond:
            self._hurry += 1
            self._cond.notify_all()
            try:
                return self._cond.wait_for(
                    lambda: not self._jobs and self._working_since is None, timeout)
            finally:
                self._hurry -= 1

    def close(self, timeout: float = CLOSE_TIMEOUT_S) -> None:
        """Write what is queued, then stop the thread; safe to call twice."""
        with self._cond:
            self._closing = True
            self._cond.notify_all()
        self._thread.join(timeout)

    def _put(self, job: _Job) -> None:
        with self._cond:
            if self._closing:
                raise JournalError("the journal is closing; the event was not saved")
            self._jobs.append((self.clock(), time.monotonic(), job))
            self._cond.notify_all()

    # --- the writer's thread ---

    def _run(self) -> None:
        while True:
            with self._cond:
                self._cond.wait_for(lambda: self._jobs or self._closing)
                if not self._jobs:
                    return
                self._settle()
                t, _queued, first = self._jobs.popleft()
                batch = [first]
                if isinstance(first, _Append):
                    while (self._jobs and len(batch) < BATCH
                           and isinstance(self._jobs[0][2], _Append)
                           and self._jobs[0][2].game_id == first.game_id):
                        batch.append(self._jobs.popleft()[2])
                self._working_since = t
            try:
                self._do(batch)
            except Exception as exc:  # a bug here must not stop the game from being saved
                log.exception("the journal writer failed on a %s of game %s",
                              type(batch[0]).__name__.strip("_").lower(), batch[0].game_id)
                self._fault(batch[0], exc)
            finally:
                with self._cond:
                    self._working_since = None
                    self._cond.notify_all()

    def _settle(self) -> None:
        """Wait (the lock released) until the oldest job is `settle` seconds old, unless
        someone flushes or the writer closes."""
        while self.settle > 0 and not self._hurry and not self._closing:
            left = self._jobs[0][1] + self.settle - time.monotonic()
            if left <= 0:
                return
            self._cond.wait(left)

    def _do(self, batch: list[Any]) -> None:
        job = batch[0]
        if isinstance(job, _Begin):
            self._begin(job)
        elif isinstance(job, _Result):
            try:
                self.journal.set_result(job.game_id, job.winner)
            except JournalError as exc:  # the events are the record; written again on open
                log.warning("could not record the game's result: %s", exc)
        else:
            self._write(batch)

    def _begin(self, job: _Begin) -> None:
        self._next[job.game_id] = job.next_seq
        try:
            count, total = snapshots.events_check(self.journal, job.game_id, job.next_seq - 1)
        except JournalError:
            count, total = -1, -1
        # -1: the stored events are not the session's, so no snapshots for this game
        self._chain[job.game_id] = total if count == job.next_seq else -1

    def _write(self, batch: list[_Append]) -> None:
        game_id = batch[0].game_id
        expected = self._next.get(game_id)
        if expected is None:
            return
        kept: list[_Append] = []
        for job in batch:  # stale events (after a failed write) are dropped
            if job.seq == expected + len(kept):
                kept.append(job)
        if not kept:
            return
        first = kept[0].seq
        rows = []
        chain = self._chain.get(game_id, -1)
        at = datetime.now(UTC).isoformat(timespec="milliseconds")
        refused: JournalError | None = None
        snapped: tuple[_Append, int] | None = None  # the newest event asking for a snapshot
        for index, job in enumerate(kept):
            try:
                text = encode_event(job.event)
            except JournalError as exc:  # the events before it are still saved
                refused, kept = exc, kept[:index]
                break
            crc = zlib.crc32(text.encode("utf-8"))
            rows.append((game_id, job.seq, at, text, crc))
            if chain != -1:
                chain += snapshots.events_term(job.seq, crc)
                if job.snapshot is not None:
                    snapped = (job, chain)
        if not kept and refused is not None:
            self._failed(game_id, first, refused)
            return
        last = kept[-1]
        snapshot = self._snapshot(game_id, snapped[0]) if snapped is not None else None
        try:
            with self.journal.transaction("saving the event") as conn:
                self._set_aside_leftovers(conn, game_id, first)
                conn.executemany(INSERT_EVENT, rows)
                count_added(conn, len(rows))
                if snapshot is not None and snapped is not None:
                    snapshots.write(conn, game_id, snapped[0].seq, snapped[1], snapshot)
        except JournalError as exc:
            self._failed(game_id, first, exc)
            return
        self._next[game_id] = last.seq + 1
        self._chain[game_id] = chain
        for durable in list(self._on_durable):
            durable(game_id, last.seq)
        if refused is not None:
            self._failed(game_id, last.seq + 1, refused)

    def _snapshot(self, game_id: int, job: _Append) -> bytes | None:
        """The snapshot an event asked for, wherever it falls in its batch (the batches
        follow the disk's pace, so the 100th event is not always a batch's last)."""
        assert job.snapshot is not None
        try:
            return job.snapshot()
        except Exception as exc:  # a snapshot is only a shortcut: resume replays instead
            if game_id not in self._unsnappable:
                self._unsnappable.add(game_id)
                log.warning("game %s is resumed by replaying it: %s", game_id, exc)
            return None

    def _fault(self, job: _Job, exc: Exception) -> None:
        """A write that failed with something other than a JournalError (a bug): it is a
        failed write like any other, so the game goes back to its last saved event and
        the screen says so, and its next events are written again from there."""
        if not isinstance(job, _Append) or job.game_id not in self._next:
            return  # a result or a game's opening: the events are the record
        error = JournalError(
            f"saving the event failed on an unexpected fault in the app "
            f"({type(exc).__name__}: {one_line(str(exc), 80)}); nothing after the last saved "
            f"event was kept, and the app goes on saving from there")
        try:
            self._failed(job.game_id, self._next[job.game_id], error)
        except Exception:  # a listener's own fault: logged, the writer goes on
            log.exception("the journal writer could not report %r", error)

    def _failed(self, game_id: int, seq: int, exc: JournalError) -> None:
        for failed in list(self._on_failure):
            failed(game_id, seq, exc)

    @staticmethod
    def _set_aside_leftovers(conn: Any, game_id: int, seq: int) -> None:
        """Rows at or after `seq` can only be a failed write's leftovers: keep them aside."""
        found = conn.execute("SELECT COUNT(*) FROM events WHERE game_id = ? AND seq >= ?",
                             (game_id, seq)).fetchone()[0]
        if not found:
            return
        why = (f"game {game_id}: event {seq} was found after a failed save had taken the game "
               f"back to event {seq - 1}, so it and the rows after it were set aside")
        conn.execute("INSERT INTO set_aside (game_id, seq, at, json, crc, reason, moved) "
                     "SELECT game_id, seq, at, CAST(json AS BLOB), crc, ?, ? FROM events "
                     "WHERE game_id = ? AND seq >= ? ORDER BY seq",
                     (why, datetime.now(UTC).isoformat(timespec="milliseconds"), game_id, seq))
        conn.execute("DELETE FROM events WHERE game_id = ? AND seq >= ?", (game_id, seq))
        snapshots.drop_from(conn, game_id, seq)


class InFlight:
    """The session's way back to the last durable event after a failed write.

    It keeps the game as it was when the oldest in-flight event was submitted (its state
    and newest undo/redo steps: O(UNDO_DEPTH), never O(game)) and the events submitted
    since, dropping them all once everything is durable.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._base: tuple[int, object, tuple[Step[object, JsonEvent], ...],
                         tuple[Step[object, JsonEvent], ...]] | None = None
        self._events: list[tuple[int, Any]] = []
        self._durable = -1

    def submitted(self, game: SomeGame, seq: int, event: JsonEvent) -> None:
        """Call before `game` accepts event `seq`."""
        with self._lock:
            if self._base is None:
                done, undone = game.tail(snapshots.UNDO_DEPTH)
                self._base = (seq, game.state, done, undone)
            self._events.append((seq, event))

    def durable(self, seq: int) -> None:
        with self._lock:
            self._durable = seq
            if self._events and self._events[-1][0] <= seq:
                self._base, self._events = None, []

    def reset(self) -> None:
        with self._lock:
            self._base, self._events, self._durable = None, [], -1

    def rollback(self, game: SomeGame, failed_seq: int) -> SomeGame:
        """The game after event failed_seq - 1, rebuilt from the base and the events that
        reached the journal; `game` itself when nothing before failed_seq is in flight."""
        with self._lock:
            base, events = self._base, self._events
            self._base, self._events = None, []
        if base is None:
            return game
        base_seq, state, done, undone = base
        rebuilt = Game.restore(game.setup, state, done, undone)
        for seq, event in events:
            if base_seq <= seq < failed_seq:
                rebuilt.push(event)
        return rebuilt
