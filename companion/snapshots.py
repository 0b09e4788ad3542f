"""Snapshots of a game in the journal, so that resuming costs O(recent events).

A snapshot is the game after event `seq`: its state and the newest `UNDO_DEPTH` undo
and redo steps, as JSON with a CRC32, in a `snapshots` table beside the journal's own
(created the first time one is written, so older journals need no migration). It also
keeps `events_crc`, a position-weighted sum of the CRCs of events 0..seq (`events_check`),
which SQLite recomputes on open without handing 10,000 rows to Python: the snapshot is
used only if the journal's events still say exactly that (nothing set aside or rewritten
under it). A snapshot that fails any check is ignored and the game is replayed from its events,
as it always was; a snapshot never decides anything the events do not.

After a resume from a snapshot, undo reaches back `UNDO_DEPTH` steps before the resume
point (a full replay reaches back to the deal): enough for any table, and the price of
not replaying the whole evening.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from companion.engine import Happening, Outcome
from companion.errors import CompanionError, JournalError
from companion.events import Setup, parse_event
from companion.game import Game, Step, StoredReplay
from companion.journal import Journal, StoredGame
from companion.state import Awaiting, Cause, GameState, TiebreakRound, Window

__all__ = ["EVERY", "UNDO_DEPTH", "Resumable", "encode", "events_term", "load_unfinished"]

EVERY = 100  # a snapshot at least every EVERY events, and at the end of each round
UNDO_DEPTH = 32  # undo/redo steps a snapshot keeps
KEEP = 2  # snapshots kept per game (the newest; an older one if the newest is damaged)
FORMAT = 1

CREATE = """CREATE TABLE IF NOT EXISTS snapshots (
    game_id INTEGER NOT NULL,
    seq INTEGER NOT NULL,            -- the state after this event
    events_crc INTEGER NOT NULL,     -- the sum of events_term(seq, crc) over events 0..seq
    json TEXT NOT NULL,
    crc INTEGER NOT NULL,            -- zlib.crc32 of the UTF-8 JSON text
    PRIMARY KEY (game_id, seq)
)"""


MODULUS = 4_294_967_311  # a prime above 2**32: each term fits 32 bits, sums never overflow
CHECK_SQL = ("SELECT COUNT(*), COALESCE(SUM((crc * (seq + 1)) % 4294967311), 0) FROM events "
             "WHERE game_id = ? AND seq <= ?")


def events_term(seq: int, crc: int) -> int:
    """One event's share of a snapshot's events_crc (order-sensitive: it weighs the seq)."""
    return (crc * (seq + 1)) % MODULUS


def events_check(journal: Journal, game_id: int, seq: int) -> tuple[int, int]:
    """(count, events_crc) of events 0..seq as stored now, summed by SQLite itself."""
    count, total = journal.query(CHECK_SQL, (game_id, seq))[0]
    return int(count), int(total)


# --- encoding ---


class _States:
    """Each distinct state object once (steps share them), referred to by index."""

    def __init__(self) -> None:
        self.index: dict[int, int] = {}
        self.rows: list[list[Any]] = []

    def ref(self, s: GameState) -> int:
        key = id(s)
        found = self.index.get(key)
        if found is not None:
            return found
        w = s.window
        window = None if w is None else [
            w.kind.value, w.cause.value, w.scorer, w.victim, w.caller, w.caller_t,
            None if w.before_call is None else self.ref(w.before_call)]
        tb = s.tiebreak
        row = [list(s.progress), list(s.hands), s.total, s.direction, s.turn, s.round, s.pile,
               s.discards, s.draw_pile, s.owed, window,
               None if tb is None else [list(tb.tied), list(tb.totals)], s.winner, s.reshuffles]
        self.index[key] = len(self.rows)
        self.rows.append(row)
        return self.index[key]


def _step(states: _States, step: Step) -> list[Any]:
    return [step.event.to_json(), states.ref(step.before), states.ref(step.after),
            [[o.what.value, o.seat, o.other, o.value] for o in step.outcomes]]


def encode(state: GameState, done: Iterable[Step], undone: Iterable[Step]) -> str:
    """The snapshot's JSON text (immutable inputs: safe to run on the writer's thread)."""
    states = _States()
    body = {
        "format": FORMAT,
        "setup": state.setup.to_json(),
        "state": states.ref(state),
        "done": [_step(states, s) for s in done],
        "undone": [_step(states, s) for s in undone],
    }
    body["states"] = states.rows
    return json.dumps(body, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def decode(text: str) -> Game:
    """The game a snapshot describes; any inconsistency raises ValueError or KeyError."""
    body = json.loads(text)
    if body.get("format") != FORMAT:
        raise ValueError("unknown snapshot format")
    setup = parse_event(body["setup"])
    if not isinstance(setup, Setup):
        raise ValueError("the snapshot's setup is not a setup")
    rows = body["states"]
    built: dict[int, GameState] = {}

    def state(i: int) -> GameState:
        if i in built:
            return built[i]
        (progress, hands, total, direction, turn, rnd, pile, discards, draw_pile, owed,
         window, tiebreak, winner, reshuffles) = rows[i]
        w = None
        if window is not None:
            kind, cause, scorer, victim, caller, caller_t, before = window
            w = Window(Awaiting(kind), Cause(cause), scorer, victim, caller, caller_t,
                       None if before is None else state(before))
        tb = None if tiebreak is None else TiebreakRound(tuple(tiebreak[0]), tuple(tiebreak[1]))
        built[i] = GameState(setup, tuple(progress), tuple(hands), total, direction, turn, rnd,
                             pile, discards, draw_pile, owed, w, tb, winner, reshuffles)
        return built[i]

    def step(row: list[Any]) -> Step:
        event, before, after, outcomes = row
        return Step(parse_event(event), state(before), state(after),
                    tuple(Outcome(Happening(o[0]), o[1], o[2], o[3]) for o in outcomes))

    done = [step(r) for r in body["done"]]
    undone = [step(r) for r in body["undone"]]
    current = state(body["state"])
    if current.card_count() != 93 or len(current.progress) != len(setup.players):
        raise ValueError("the snapshot's state does not add up")
    game = Game.restore(setup, current, done, undone)
    if game.state != current:
        raise ValueError("the snapshot's steps do not end at its state")
    return game


def write(conn: Any, game_id: int, seq: int, events_crc: int, text: str) -> None:
    """Store a snapshot inside the caller's transaction, keeping the newest KEEP."""
    conn.execute(CREATE)
    conn.execute("INSERT OR REPLACE INTO snapshots (game_id, seq, events_crc, json, crc) "
                 "VALUES (?, ?, ?, ?, ?)",
                 (game_id, seq, events_crc, text, zlib.crc32(text.encode("utf-8"))))
    conn.execute("DELETE FROM snapshots WHERE game_id = ? AND seq NOT IN (SELECT seq FROM "
                 "snapshots WHERE game_id = ? ORDER BY seq DESC LIMIT ?)",
                 (game_id, game_id, KEEP))


def drop_from(conn: Any, game_id: int, seq: int) -> None:
    """Forget snapshots at or after event `seq` (those events are being set aside)."""
    conn.execute(CREATE)
    conn.execute("DELETE FROM snapshots WHERE game_id = ? AND seq >= ?", (game_id, seq))


# --- resuming ---


@dataclass
class Resumable:
    """An unfinished game found through its newest good snapshot (duck-types StoredGame
    for the app: `events` reads them all, only if someone asks)."""

    journal: Journal
    game_id: int
    started: datetime
    event_count: int  # events stored, setup included
    snapshot_seq: int | None  # None: no usable snapshot, replayed from the setup
    recent: tuple[dict[str, Any], ...]  # events after the snapshot (all, without one)
    damage: str | None = None
    winner: str | None = None
    abandoned: bool = False
    _first: StoredReplay | None = None  # the replay load_unfinished checked, used once

    @property
    def events(self) -> list[dict[str, Any]]:
        return self.journal.load(self.game_id).events

    def replay(self) -> StoredReplay:
        """A fresh Game at the stored game's last event (each call builds a new one)."""
        first, self._first = self._first, None
        if first is not None:
            return first
        if self.snapshot_seq is None:
            return Game.replay_stored(self.recent)
        game = decode_verified(self.journal, self.game_id, self.snapshot_seq)
        applied = self.snapshot_seq + 1
        for obj in self.recent:
            try:
                game.push(parse_event(obj))
            except CompanionError as exc:
                return StoredReplay(game, applied, exc)
            applied += 1
        return StoredReplay(game, applied, None)


def decode_verified(journal: Journal, game_id: int, seq: int) -> Game:
    rows = journal.query("SELECT json, crc FROM snapshots WHERE game_id = ? AND seq = ?",
                         (game_id, seq))
    text, crc = rows[0]
    if zlib.crc32(text.encode("utf-8")) != crc:
        raise ValueError("the snapshot's checksum does not match")
    return decode(text)


def _snapshot_rows(journal: Journal, game_id: int) -> list[tuple[int, int]]:
    try:
        return [(r[0], r[1]) for r in journal.query(
            "SELECT seq, events_crc FROM snapshots WHERE game_id = ? ORDER BY seq DESC",
            (game_id,))]
    except JournalError:  # no snapshots table yet (an older journal), or unreadable
        return []


def _usable(journal: Journal, game_id: int) -> int | None:
    """The newest snapshot that matches the stored events, or None."""
    for seq, events_crc in _snapshot_rows(journal, game_id):
        if events_check(journal, game_id, seq) == (seq + 1, events_crc):
            return seq
    return None


def load_unfinished(journal: Journal) -> Resumable | StoredGame | None:
    """The newest unfinished game, read from its newest good snapshot when there is one.

    Falls back to `journal.unfinished()` (every event, with its damage handling) when
    there is no usable snapshot or an event after it cannot be read.
    """
    rows = journal.query("SELECT id, started, winner, abandoned FROM games WHERE winner IS NULL "
                         "AND abandoned = 0 ORDER BY id DESC LIMIT 1")
    if not rows:
        return None
    game_id, started, winner, abandoned = rows[0]
    snap = _usable(journal, game_id)
    if snap is None:
        return journal.unfinished()
    recent: list[dict[str, Any]] = []
    for seq, raw, crc in journal.query(
            "SELECT seq, CAST(json AS BLOB), crc FROM events WHERE game_id = ? AND seq > ? "
            "ORDER BY seq", (game_id, snap)):
        if seq != snap + 1 + len(recent) or zlib.crc32(raw) != crc:
            return journal.unfinished()
        try:
            obj = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            return journal.unfinished()
        if not isinstance(obj, dict):
            return journal.unfinished()
        recent.append(obj)
    from companion.journal import _when  # one parser of stored times

    resumable = Resumable(journal, game_id, _when(started), snap + 1 + len(recent), snap,
                          tuple(recent),
                          None, winner, bool(abandoned))
    try:
        replayed = resumable.replay()
    except (ValueError, KeyError, TypeError, IndexError, CompanionError):
        return journal.unfinished()  # a damaged snapshot is ignored: replay the events
    if replayed.error is not None:  # an event after it no longer replays: the slow path
        return journal.unfinished()  # and open_game sets it aside, as ever
    resumable._first = replayed
    return resumable
