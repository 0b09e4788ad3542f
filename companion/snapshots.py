"""Snapshots of a game in the journal, so that resuming costs O(recent events).

A snapshot is the game after event `seq`: its state and the newest `UNDO_DEPTH` undo
and redo steps, pickled with a CRC32 (any game whose states and events are frozen data;
loading accepts only such types from companion.*), in a `snapshots` table beside the
journal's own (created the first time one is written, so older journals need no
migration). It also
keeps `events_crc`, a position-weighted sum of the CRCs of events 0..seq (`events_check`),
which SQLite recomputes on open without handing 10,000 rows to Python: the snapshot is
used only if the journal's events still say exactly that (nothing set aside or rewritten
under it). A snapshot that fails any check is ignored and the game is replayed from its
events, as it always was; a snapshot never decides anything the events do not.

After a resume from a snapshot, undo reaches back `UNDO_DEPTH` steps before the resume
point (a full replay reaches back to the deal): enough for any table, and the price of
not replaying the whole evening.
"""

from __future__ import annotations

import dataclasses
import io
import json
import pickle
import zlib
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from enum import Enum
from typing import Any

from companion import journal_chain, plugins
from companion.errors import CompanionError, JournalError
from companion.game import Game, SomeGame, Step, StoredReplay
from companion.journal import Journal, StoredGame
from companion.rules import JsonEvent

__all__ = ["EVERY", "UNDO_DEPTH", "Resumable", "encode", "events_term", "load_unfinished"]

EVERY = 100  # a snapshot at least every EVERY events, and at the end of each round
UNDO_DEPTH = 32  # undo/redo steps a snapshot keeps
KEEP = 2  # snapshots kept per game (the newest; an older one if the newest is damaged)

CREATE = """CREATE TABLE IF NOT EXISTS snapshots (
    game_id INTEGER NOT NULL,
    seq INTEGER NOT NULL,            -- the state after this event
    events_crc INTEGER NOT NULL,     -- the sum of events_term(seq, crc) over events 0..seq
    data BLOB NOT NULL,              -- encode(): the game's data types, pickled
    crc INTEGER NOT NULL,            -- zlib.crc32 of data
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

FORMAT = 2  # (FORMAT, setup, state, done, undone), pickled


# Where a game's rules lived before each game had its folder (issue 32): the snapshots
# pickled then name their types there, and still load.
_BEFORE_FOLDERS = "companion.games."


def _rules_module(module: str) -> str | None:
    """The module a snapshot's type may come from: the core's, or a game's rules (under
    the game's old name too); None: none of those."""
    if module.startswith(_BEFORE_FOLDERS):
        game, _, rest = module.removeprefix(_BEFORE_FOLDERS).partition(".")
        if game not in plugins.names():
            return None
        module = ".".join(filter(None, (plugins.manifest(game).rules, rest)))
    elif module.split(".")[0] == "companion":
        return module
    for game in plugins.names():
        rules = plugins.manifest(game).rules
        if module == rules or module.startswith(rules + "."):
            return module
    return None


class _CoreObjects(pickle.Unpickler):
    """Unpickles only the core's and the games' own data types (named tuples, frozen
    dataclasses, enums of companion.* and of each game's rules): a damaged or foreign
    snapshot can fail to load, never run anything."""

    def find_class(self, module: str, name: str) -> Any:
        allowed = _rules_module(module)
        if allowed is not None:
            found = super().find_class(allowed, name)
            if isinstance(found, type) and (issubclass(found, tuple | Enum)
                                            or dataclasses.is_dataclass(found)):
                return found
        raise pickle.UnpicklingError(f"a snapshot may not hold {module}.{name}")


def encode(state: object, done: Iterable[Step[object, JsonEvent]],
           undone: Iterable[Step[object, JsonEvent]]) -> bytes:
    """The snapshot's bytes (immutable inputs: safe to run on the writer's thread). Any
    game whose states, steps and events are plain frozen data can be snapshotted."""
    done, undone = tuple(done), tuple(undone)
    setup = done[0].before.setup if done and hasattr(done[0].before, "setup") else None
    setup = getattr(state, "setup", setup)
    if setup is None:
        raise ValueError("this game's states do not carry their setup")
    return pickle.dumps((FORMAT, setup, state, done, undone), protocol=pickle.HIGHEST_PROTOCOL)


def decode(data: bytes) -> SomeGame:
    """The game a snapshot describes; anything wrong raises ValueError."""
    try:
        fmt, setup, state, done, undone = _CoreObjects(io.BytesIO(data)).load()
    except Exception as exc:  # whatever a damaged pickle raises
        raise ValueError(f"the snapshot cannot be read ({exc})") from exc
    if fmt != FORMAT or not all(isinstance(s, Step) for s in (*done, *undone)):
        raise ValueError("unknown snapshot format")
    try:
        game = Game.restore(setup, state, done, undone)
    except (CompanionError, AttributeError, TypeError) as exc:
        raise ValueError(f"the snapshot's setup cannot be used ({exc})") from exc
    if game.state != state:
        raise ValueError("the snapshot's steps do not end at its state")
    return game


def write(conn: Any, game_id: int, seq: int, events_crc: int, data: bytes) -> None:
    """Store a snapshot inside the caller's transaction, keeping the newest KEEP."""
    conn.execute(CREATE)
    conn.execute("INSERT OR REPLACE INTO snapshots (game_id, seq, events_crc, data, crc) "
                 "VALUES (?, ?, ?, ?, ?)", (game_id, seq, events_crc, data, zlib.crc32(data)))
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
    recent: tuple[dict[str, object], ...]  # events after the snapshot (all, without one)
    damage: str | None = None
    winner: str | None = None
    abandoned: bool = False
    _first: StoredReplay | None = None  # the replay load_unfinished checked, used once

    @property
    def events(self) -> list[dict[str, object]]:
        return self.journal.load(self.game_id).events

    def replay(self) -> StoredReplay:
        """A fresh Game at the stored game's last event (each call builds a new one)."""
        first, self._first = self._first, None
        if first is not None:
            return first
        if self.snapshot_seq is None:
            return Game.replay_stored(self.recent)
        game = decode_verified(self.journal, self.game_id, self.snapshot_seq)
        return game.replay_more(self.recent, applied=self.snapshot_seq + 1)


def decode_verified(journal: Journal, game_id: int, seq: int) -> SomeGame:
    rows = journal.query("SELECT data, crc FROM snapshots WHERE game_id = ? AND seq = ?",
                         (game_id, seq))
    data, crc = rows[0]
    if not isinstance(data, bytes) or zlib.crc32(data) != crc:
        raise ValueError("the snapshot's checksum does not match")
    return decode(data)


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


def _rows_sound(journal: Journal, game_id: int, seq: int) -> int | None:
    """The checksum chain (journal_chain) of event `seq` when every event up to it is
    still what was written (its CRC matches its text, its chain follows the event before
    it), else None.

    events_check compares the stored CRCs only: a row whose text was damaged on the card
    keeps its old CRC and would hide under the snapshot until History or the next start
    cut the game there (issue 21). Reading the rows costs two CRCs per event, a few ms per
    thousand on a Pi: the price of never hiding a damaged event."""
    rows = journal.query(
        "SELECT seq, CAST(json AS BLOB), crc, chain FROM events WHERE game_id = ? AND "
        "seq <= ? ORDER BY seq", (game_id, seq))
    if len(rows) != seq + 1:
        return None
    link = journal_chain.start(game_id)
    crc32 = zlib.crc32
    # _sound_link inline, and journal_chain.link (a CRC32 already in 32 bits needs no
    # mask): two Python calls a row were most of the resume of a long game. A text that
    # is no blob (CAST gives bytes or NULL) makes crc32 raise TypeError: caught once for
    # the loop, not asked of every row.
    try:
        for expected, (row_seq, raw, crc, chain) in enumerate(rows):
            if row_seq != expected or crc32(raw) != crc:
                return None
            link = crc32(raw, link)
            if chain is not None and chain != link:
                return None
    except TypeError:
        return None
    return link


def _sound_link(before: int, expected: int, seq: object, raw: object, crc: object,
                chain: object) -> int | None:
    """The chain of a stored row that is event `expected`, its text sound and its chain
    following `before` (a row without a chain, from before format 3, by its CRC); None
    for any other row: the load reads every event and says what it finds."""
    if seq != expected or not isinstance(raw, bytes) or zlib.crc32(raw) != crc:
        return None
    link = journal_chain.link(before, raw)
    return link if chain is None or chain == link else None


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
    snapshot_seq = _usable(journal, game_id)
    link = None if snapshot_seq is None else _rows_sound(journal, game_id, snapshot_seq)
    if snapshot_seq is None or link is None:
        return journal.unfinished()  # every event read: damage is set aside and said
    recent: list[dict[str, Any]] = []
    for seq, raw, crc, chain in journal.query(
            "SELECT seq, CAST(json AS BLOB), crc, chain FROM events WHERE game_id = ? AND "
            "seq > ? ORDER BY seq", (game_id, snapshot_seq)):
        link = _sound_link(link, snapshot_seq + 1 + len(recent), seq, raw, crc, chain)
        if link is None:
            return journal.unfinished()
        try:
            obj = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            return journal.unfinished()
        if not isinstance(obj, dict):
            return journal.unfinished()
        recent.append(obj)
    from companion.journal import _when  # one parser of stored times

    notes = journal.set_aside_notes(game_id)
    resumable = Resumable(journal, game_id, _when(started), snapshot_seq + 1 + len(recent),
                          snapshot_seq, tuple(recent), " ".join(notes) or None, winner,
                          bool(abandoned))
    try:
        replayed = resumable.replay()
    except (ValueError, CompanionError):
        return journal.unfinished()  # a damaged snapshot is ignored: replay the events
    if replayed.error is not None:  # an event after it no longer replays: the slow path
        return journal.unfinished()  # and open_game sets it aside, as ever
    resumable._first = replayed
    return resumable
