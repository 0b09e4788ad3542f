"""The game journal: every accepted event, durable before the table hears about it.

One SQLite file (data_dir/journal.sqlite3) in WAL mode with synchronous=FULL, so a
committed append survives a killed process or a pulled power plug, and a torn write is
rolled back by SQLite itself. Each event row keeps the event's JSON text exactly as
given, the wall-clock time, a CRC32 of the text and a checksum chain that ties it to the
event before it (journal_chain), so a row damaged or moved on disk is found when its game
is loaded instead of being replayed as a different game, and every loss is counted.

Damage never loses what was saved:
- a bad row (checksum or JSON) ends its game's events there; that row and the rows after
  it are moved to the `set_aside` table (kept, not deleted) and the game resumes from the
  last good event;
- a damaged database file (truncated, corrupt pages) is rebuilt from every row that can
  still be read, and the damaged file is kept beside it as journal.sqlite3.damaged-<time>;
- a file that is not a database at all is renamed to that name and a new journal started.
Each case leaves one sentence in `Journal.damage` (and `StoredGame.damage` for a game).

>>> import tempfile
>>> with Journal.open(tempfile.mkdtemp()) as j:
...     gid = j.start_game({"type": "setup", "players": ["Ana", "Ben"]})
...     j.append(gid, {"type": "play", "card": "7"})
...     [e["type"] for e in j.load(gid).events]
['setup', 'play']
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import sqlite3
import threading
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from companion import journal_chain, notices
from companion.errors import JournalError
from companion.games import DEFAULT, game_of
from companion.journal_copy import private_copy
from companion.journal_pages import file_events
from companion.journal_salvage import read_row, rebuild, row_fault, stored_game
from companion.notices import Notice
from companion.paths import journal_file
from companion.safe_text import name_problem, one_line, quote
from companion.walcheck import WalCheck

__all__ = ["GameRecord", "Journal", "StoredGame"]

SCHEMA_VERSION = 3  # 2: each game's name in its row; 3: the events' checksum chain
# (older formats are migrated on opening)
PREVIEW_NOTE = ("found by a read-only look at a copy: the journal itself is unchanged, and "
                "the app does this when it next starts")
BUSY_TIMEOUT_S = 5.0
READABLE = (1, 2, SCHEMA_VERSION)  # the formats this version opens
_TABLES = {"games", "events", "set_aside"}
_SCHEMA = f"""
CREATE TABLE games (
    id INTEGER PRIMARY KEY,
    started TEXT NOT NULL,
    finished TEXT,
    players TEXT NOT NULL,           -- JSON list of names, to list games without replaying
    winner TEXT,
    abandoned INTEGER NOT NULL DEFAULT 0,
    game TEXT NOT NULL DEFAULT '{DEFAULT}'  -- the rules' name (the setup's "game"), format 2
);
CREATE TABLE events (
    id INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,            -- 0 is the setup
    at TEXT NOT NULL,                -- wall-clock time, ISO 8601 UTC
    json TEXT NOT NULL,              -- the event exactly as given
    crc INTEGER NOT NULL,            -- zlib.crc32 of the UTF-8 JSON text
    chain INTEGER,                   -- journal_chain: the crc continued from the event before
    UNIQUE (game_id, seq)
);
CREATE TABLE set_aside (             -- damaged rows and the rows after them, kept as found
    id INTEGER PRIMARY KEY,
    game_id INTEGER,
    seq INTEGER,
    at TEXT,
    json BLOB,
    crc INTEGER,
    reason TEXT NOT NULL,
    moved TEXT NOT NULL
);
"""


@dataclass(frozen=True, slots=True)
class StoredGame:
    """One game as stored: its events (setup first) up to any damage."""

    game_id: int
    started: datetime
    events: list[dict[str, object]]
    damage: str | None = None
    winner: str | None = None
    abandoned: bool = False


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One line of the game list; `event_count` counts the events after the setup."""

    game_id: int
    started: datetime
    finished: datetime | None
    players: tuple[str, ...]
    winner: str | None
    event_count: int
    abandoned: bool = False
    game: str = DEFAULT  # the rules' name: "revenge", "board"

    @property
    def id(self) -> int:
        return self.game_id


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def _when(text: object) -> datetime:
    """A stored time; a damaged one reads as the epoch rather than stopping the listing."""
    try:
        when = datetime.fromisoformat(str(text))
    except ValueError:
        return datetime.fromtimestamp(0, UTC)
    return when if when.tzinfo else when.replace(tzinfo=UTC)


# One event row written (game_id, seq, at, json, crc): its chain continues from the stored
# chain of the event before it, read in the same transaction, so it is never out of step.
INSERT_EVENT = ("INSERT INTO events (game_id, seq, at, json, crc, chain) VALUES (?1, ?2, ?3, ?4, "
                "?5, chain_link(?1, ?2, (SELECT chain FROM events WHERE game_id = ?1 AND "
                "seq = ?2 - 1), ?4))")


def _chain_link(game_id: int, seq: int, before: int | None, text: str) -> int | None:
    """The chain of event `seq` (SQL's chain_link); None (not checked) when the event
    before it has none."""
    if seq == 0:
        before = journal_chain.start(game_id)
    return None if before is None else journal_chain.link(before, text.encode("utf-8"))


def encode_event(event: dict[str, Any]) -> str:
    """The stored text of one event; refuses what could not be read back (a JSON-less
    value, a lone surrogate, a bad name) with a JournalError, for both ways of writing."""
    if not isinstance(event, dict):
        raise JournalError(f"only JSON objects can be journalled, not {type(event).__name__}")
    try:
        text = json.dumps(event, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
        text.encode("utf-8")  # a lone surrogate would only fail later, inside SQLite
    except (TypeError, ValueError) as exc:  # UnicodeEncodeError is a ValueError
        raise JournalError(f"the event cannot be stored as JSON ({one_line(str(exc), 80)}): "
                           f"{quote(event)}") from exc
    players = event.get("players")
    names: list[Any] = players if isinstance(players, list) else []
    for name in [*names, event.get("player"), event.get("target")]:
        problem = name_problem(name) if isinstance(name, str) else None
        if problem:
            raise JournalError(f"the name {quote(name)} {problem}; the event was not stored")
    return text


def _sync_dir(folder: Path) -> None:
    """Make a created or renamed file's directory entry durable too."""
    with contextlib.suppress(OSError):
        notices.sync_folder(folder)


def _aside_name(path: Path) -> Path:
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    candidate = path.with_name(f"{path.name}.damaged-{stamp}")
    n = 2
    while candidate.exists():
        candidate = path.with_name(f"{path.name}.damaged-{stamp}-{n}")
        n += 1
    return candidate


def _drop_unsynced_frames(conn: sqlite3.Connection) -> None:
    """After a failed sync the refused transaction's frames are still in the -wal file,
    complete with their commit mark: a crash now and SQLite would replay them, and the
    event the table was told was not accepted would come back. Checkpointing what was
    committed and truncating the -wal removes them; when a reader keeps the -wal from being
    truncated, a rewrite of the header page takes their place in the file instead."""
    with contextlib.suppress(sqlite3.Error):
        busy, _, _ = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        if busy == 0:
            return
    with contextlib.suppress(sqlite3.Error):
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        conn.execute(f"PRAGMA user_version={int(version)}")  # one frame over the refused ones


def _errname(exc: sqlite3.Error) -> str:
    return getattr(exc, "sqlite_errorname", "") or ""


def _is_corrupt(exc: sqlite3.Error) -> bool:
    return _errname(exc).startswith("SQLITE_CORRUPT") or "malformed" in str(exc)


def _is_notadb(exc: sqlite3.Error) -> bool:
    return _errname(exc) == "SQLITE_NOTADB" or "not a database" in str(exc)


class _NotAJournal(Exception):
    """The file is a SQLite database, but not one of ours."""


class Journal:
    """The event store of every game; thread-safe, one SQLite connection."""

    def __init__(self, path: str | os.PathLike[str], *, readonly: bool = False) -> None:
        """Open (and, unless `readonly`, create or repair) the journal at `path`.

        Read-only is for commands that only look (history, stats, export): they never
        create, repair, rename or set aside anything in the data folder. They run the very
        same checks and repairs on a private copy (so they count every loss exactly as the
        app will, and read a journal whose folder this user cannot write), and say what the
        app will do.
        """
        self.origin = Path(path)  # the journal the user named; `path` may be a private copy
        self.path = self.origin
        self.readonly = readonly
        self.damage: list[str] = []
        self._repaired = False
        self._copy_dir: Path | None = None
        self._said: set[str] = set()
        self._had_wal = False
        self._lock = threading.RLock()
        try:
            if readonly:
                self.path = self._private_copy()
            wal = WalCheck.before_open(self.path, preview=readonly)  # before SQLite reads it
            self._had_wal = wal is not None
            self._conn = self._open_checked()
            lost = wal.after_open(self._conn) if wal is not None else None
            if lost:
                self._say(lost)
        except BaseException:
            self._drop_copy()
            raise

    def _private_copy(self) -> Path:
        """The journal and its -wal copied into a private folder, for a read-only look
        (journal_copy: one consistent journal also while the app appends)."""
        try:
            self._copy_dir, copy = private_copy(self.origin, BUSY_TIMEOUT_S)
        except OSError as exc:
            raise JournalError(
                f"{self.origin} cannot be read ({exc.strerror or exc}); check that it exists "
                "and that this user may read it and its folder") from exc
        return copy

    def _drop_copy(self) -> None:
        if self._copy_dir is not None:
            shutil.rmtree(self._copy_dir, ignore_errors=True)
            self._copy_dir = None

    def _say(self, notice: str) -> None:
        """Record one damage sentence; in the app it is durable in notices.json (file and
        folder synced) before this returns, so before anything repaired is used. OSError
        when it cannot be made durable: the caller then changes nothing."""
        if notice in self._said:
            return
        if not self.readonly:
            notices.keep(self.path.parent, [notice])
        self._said.add(notice)
        if self.readonly and isinstance(notice, Notice):
            notice = Notice(f"{notice} ({PREVIEW_NOTE})", notice.code, **notice.params)
        self.damage.append(notice)

    def _kept(self, aside: Path) -> str:
        return ("the app keeps the damaged file beside the journal when it repairs it"
                if self.readonly else f"the damaged file was kept as {aside}")

    @classmethod
    def open(cls, data_dir: str | os.PathLike[str]) -> Journal:
        """The journal in `data_dir` (created with its folder if need be)."""
        return cls(journal_file(cls.prepare_folder(data_dir)))

    @staticmethod
    def prepare_folder(data_dir: str | os.PathLike[str]) -> Path:
        """The data folder, created if need be; one sentence if it cannot be."""
        folder = Path(data_dir).expanduser()
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise JournalError(
                f"cannot create the data folder {folder} ({exc.strerror}); "
                "choose a writable folder with data_dir in the configuration or --data"
            ) from exc
        return folder

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        with self._lock:
            with contextlib.suppress(sqlite3.Error):
                self._conn.close()
            self._drop_copy()

    def pragmas(self) -> dict[str, Any]:
        """The durability settings in force on this connection (for diagnostics and tests)."""
        return {name: self._read(f"PRAGMA {name}")[0][0]
                for name in ("journal_mode", "synchronous", "foreign_keys")}

    # --- opening, checking, repairing ---

    def _connect(self, path: Path) -> sqlite3.Connection:
        conn = sqlite3.connect(path, timeout=BUSY_TIMEOUT_S, isolation_level=None,
                               check_same_thread=False)
        conn.create_function("chain_link", 4, _chain_link, deterministic=True)
        return conn

    def _configure(self, conn: sqlite3.Connection) -> None:
        mode = conn.execute("PRAGMA journal_mode=WAL").fetchone()[0]
        if str(mode).lower() != "wal":
            raise JournalError(
                f"{self.path} cannot use SQLite's WAL mode here (it stays in {mode!r} mode); "
                "put the data folder on a local disk"
            )
        conn.execute("PRAGMA synchronous=FULL")
        conn.execute("PRAGMA foreign_keys=ON")

    def _prepare(self, conn: sqlite3.Connection) -> None:
        """Create the tables in a new file; check that an old one is ours and sound.

        The checks come before any PRAGMA that writes, so a file that is not ours is
        never changed.
        """
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        names = {r[0] for r in conn.execute(
            "SELECT name FROM sqlite_master WHERE type='table'")}
        if version == 0 and not names:
            if self.readonly and not self._had_wal:  # (with one, the -wal check says more)
                raise JournalError(
                    f"{self.origin} is empty, not yet a journal; start the app once (it makes "
                    "it one) or point --data at the right folder")
            self._configure(conn)
            conn.executescript(
                "BEGIN IMMEDIATE;"
                + _SCHEMA.replace("CREATE TABLE", "CREATE TABLE IF NOT EXISTS")
                + f";PRAGMA user_version={SCHEMA_VERSION}; PRAGMA application_id=1; COMMIT;")
            _sync_dir(self.path.parent)
            return
        if version > SCHEMA_VERSION and _TABLES & names:  # ours, tables renamed since
            raise JournalError(
                f"{self.path} was written by a newer version of the companion "
                f"(journal format {version}); update the app to read it"
            )
        if version not in READABLE or not _TABLES.issubset(names):
            raise _NotAJournal
        problems = [r[0] for r in conn.execute("PRAGMA quick_check")]
        if problems != ["ok"]:
            raise sqlite3.DatabaseError(
                f"database disk image is malformed ({one_line(problems[0], 80)})")
        self._configure(conn)
        if version < SCHEMA_VERSION:
            _migrate(conn, version)
        self._check_count(conn)

    def _check_count(self, conn: sqlite3.Connection) -> None:
        """Every event row the journal ever stored is still in it (events or set_aside):
        the header's count (see `count_added`) says how many there should be. Damage
        SQLite's quick check passes (a flipped bit in a b-tree's pointers) is found here;
        an older journal without the count starts counting now."""
        # One scan of the table and one of the index (each a few ms per 10,000 events on
        # a Pi core: every start pays them); the table's also counts each game's distinct
        # numbers, its events' total and the games they belong to.
        per_game = ("SELECT game_id, COUNT(*), SUM(seq), SUM(id), MIN(seq), MAX(seq){} FROM "
                    "events {} GROUP BY game_id ORDER BY game_id")
        counted = conn.execute(per_game.format(", COUNT(DISTINCT seq)", "NOT INDEXED")
                               ).fetchall()
        by_table = [row[:-1] for row in counted]
        by_index = conn.execute(per_game.format(
            "", "INDEXED BY sqlite_autoindex_events_1")).fetchall()
        if any(row[1] != row[-1] for row in counted):
            # a flipped bit gave a row another's place: rebuild from the rows
            raise sqlite3.DatabaseError("database disk image is malformed (two events claim "
                                        "one place in a game)")
        if any(low != 0 or high != count - 1 for _, count, _, _, low, high in by_table):
            # a flipped bit moved a row out of its place (its number or its game changed):
            # the rebuild puts it back where its checksum chain says (journal_chain)
            raise sqlite3.DatabaseError("database disk image is malformed (a game's events "
                                        "have a gap)")
        if by_table != by_index:  # a damaged index hides rows from the reads by game
            try:
                conn.execute("REINDEX events")
            except sqlite3.IntegrityError:  # two rows claim one place: rebuild from rows
                raise sqlite3.DatabaseError("database disk image is malformed (the events "
                                            "index disagrees with its table)") from None
        games = {row[0] for row in conn.execute("SELECT id FROM games")}
        if any(game_id is not None and game_id not in games for game_id, *_ in by_table):
            # (said at every start when they stayed): rebuilt, as for a gap
            raise sqlite3.DatabaseError("database disk image is malformed (events that "
                                        "belong to no game)")
        stored = conn.execute("PRAGMA application_id").fetchone()[0]
        held = sum(count for _, count, *_ in by_table) + conn.execute(
            "SELECT COUNT(*) FROM set_aside").fetchone()[0]
        if stored > 0 and held < stored - 1:
            missing = stored - 1 - held
            self._say(Notice(
                f"{missing} saved events are missing from {self.path.name}: the file was "
                "damaged where SQLite's own check cannot see; every event still in it is "
                "kept and the games go on from what remains", "count_short", count=missing))
        if stored != held + 1:
            conn.execute(f"PRAGMA application_id={held + 1}")

    def _open_checked(self) -> sqlite3.Connection:
        try:
            conn = self._connect(self.path)
        except sqlite3.Error as exc:
            raise self._error(exc, "opening the journal") from exc
        try:
            self._prepare(conn)
            return conn
        except _NotAJournal:
            conn.close()
            return self._start_over("it is a SQLite database of something else")
        except sqlite3.DatabaseError as exc:
            if _is_notadb(exc):
                conn.close()
                return self._start_over("it is not a SQLite database")
            if _is_corrupt(exc):
                return self._salvage(conn, str(exc))
            conn.close()
            raise self._error(exc, "opening the journal") from exc
        except BaseException:
            conn.close()
            raise

    def _start_over(self, why: str) -> sqlite3.Connection:
        """Rename a file that is no journal aside (never delete it) and begin a new one."""
        if self.readonly:
            raise JournalError(
                f"{self.origin} is not a journal this version can read ({why}); start the app "
                "once (it sets a foreign file aside) or point --data at the right folder")
        aside = _aside_name(self.path)
        held = len(file_events(self.path))
        also = f" (it holds {held} events that are not in the new journal)" if held else ""
        try:
            self._say(Notice(
                f"{self.path.name} was not a game journal ({why}); it was kept as {aside}{also} "
                "and a new, empty journal was started", "not_a_journal", why=why,
                kept=aside.name, held=held))
            for suffix in ("-wal", "-shm"):
                side = Path(f"{self.path}{suffix}")
                if side.exists():
                    os.replace(side, f"{aside}{suffix}")
            os.replace(self.path, aside)
            _sync_dir(self.path.parent)
            conn = self._connect(self.path)
            self._prepare(conn)
        except (OSError, sqlite3.Error) as exc:
            raise JournalError(
                f"{self.path} is not a game journal ({why}) and could not be set aside "
                f"({exc}); move it away yourself and start the app again"
            ) from exc
        return conn

    def _salvage(self, old: sqlite3.Connection, why: str) -> sqlite3.Connection:
        """Rebuild a damaged journal from every row that can be read; keep the old file.

        The rows are read from a private copy whose header no longer claims more pages
        than the file holds (a truncated file otherwise cannot be read at all). The new
        journal is built beside the old one with every table the old one had (snapshots
        too), its sentence is made durable (notices.json), and only then is it swapped in
        by one rename, so a crash or power cut at any point leaves either the damaged file
        to be repaired again or the repaired one with its sentence.
        """
        with contextlib.suppress(sqlite3.Error):
            old.close()  # merges any committed WAL frames into the file first
        tmp = self.path.with_name(f"{self.path.name}.salvage")
        copy = self.path.with_name(f"{self.path.name}.reading")
        try:
            for leftover in (tmp, copy, *(Path(f"{f}{s}") for f in (tmp, copy)
                                           for s in ("-wal", "-shm", "-journal"))):
                leftover.unlink(missing_ok=True)  # our own temporary files from an earlier try
            shutil.copyfile(self.path, copy)
            if Path(f"{self.path}-wal").exists():
                shutil.copyfile(f"{self.path}-wal", f"{copy}-wal")
            with open(copy, "r+b") as f:
                f.seek(28)
                f.write(b"\0\0\0\0")  # "in-header database size": 0 means "use the file size"
            src = sqlite3.connect(copy, isolation_level=None)
            new = sqlite3.connect(tmp, isolation_level=None)  # rollback mode: no -wal left
            try:
                new.execute("PRAGMA synchronous=FULL")
                new.executescript(_SCHEMA)
                touched: set[int] = set()
                counts = rebuild(src, new, file_events(copy), _now(), skip=_TABLES,
                                 touched=touched)
                new.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
                new.execute(f"PRAGMA application_id={_events_held(new) + 1}")
            finally:
                new.close()
                src.close()
            for used in (copy, Path(f"{copy}-wal"), Path(f"{copy}-shm")):
                used.unlink(missing_ok=True)
            aside = _aside_name(self.path)
            games, events, set_aside, lost = counts
            extra = f", {set_aside} unusable rows set aside" if set_aside else ""
            gone = (f"; {lost} events could not be read at all and are missing from their "
                    "games" if lost else "")
            named = ", ".join(str(g) for g in sorted(touched))
            which = (f"; the games it touched: {named}" if touched else "")
            self._say(Notice(
                f"{self.path.name} was damaged ({one_line(why, 80)}); it was rebuilt from every "
                f"event that could still be read ({games} games, {events} events kept{extra})"
                f"{gone}{which}; {self._kept(aside)}", "repaired", games=games, events=events,
                set_aside=set_aside, lost=lost, kept=aside.name, touched=named or "-"))
            for suffix in ("-wal", "-shm"):
                side = Path(f"{self.path}{suffix}")
                if side.exists():
                    os.replace(side, f"{aside}{suffix}")
            try:
                os.link(self.path, aside)
            except OSError:
                shutil.copy2(self.path, aside)
            os.replace(tmp, self.path)
            _sync_dir(self.path.parent)
            conn = self._connect(self.path)
            self._prepare(conn)
        except (OSError, sqlite3.Error) as exc:
            raise JournalError(
                f"{self.origin} is damaged ({one_line(why, 80)}) and could not be repaired "
                f"({one_line(str(exc), 120)}); nothing was changed: copy it somewhere safe, "
                "free some space if the disk is full, and start the app again"
            ) from exc
        return conn

    def _error(self, exc: sqlite3.Error, doing: str) -> JournalError:
        """One sentence for a failed SQLite call, saying what to do about it."""
        name, where = _errname(exc), self.path
        if name == "SQLITE_FULL" or "disk is full" in str(exc):
            return JournalError(
                f"the disk holding {where} is full, so {doing} failed and nothing was saved; "
                "free some space and try again")
        if name.startswith("SQLITE_READONLY") or "readonly" in str(exc):
            return JournalError(
                f"{where} is read-only, so {doing} failed and nothing was saved; make the data "
                "folder writable or choose another one with data_dir or --data")
        if name.startswith("SQLITE_CANTOPEN") or "unable to open" in str(exc):
            return JournalError(
                f"cannot open {where} ({exc}), so {doing} failed; check that the data folder "
                "exists and is writable, or choose another one with data_dir or --data")
        if name == "SQLITE_BUSY" or "locked" in str(exc):
            return JournalError(
                f"{where} is busy in another program, so {doing} failed; close the other "
                "program and try again")
        if name.startswith("SQLITE_IOERR") or "I/O error" in str(exc):
            return JournalError(
                f"the storage under {where} failed ({exc}), so {doing} failed"
                + (" and the event was not accepted" if doing == "saving the event" else "")
                + "; check the disk or SD card")
        return JournalError(f"the journal {where} failed while {doing} ({exc})")

    @contextlib.contextmanager
    def _transaction(self, doing: str) -> Iterator[sqlite3.Connection]:
        """One committed transaction; on any failure it is rolled back (SQLite's own
        failures reported as one JournalError sentence)."""
        with self._lock:
            conn = self._conn
            try:
                conn.execute("BEGIN IMMEDIATE")
                yield conn
                conn.execute("COMMIT")
            except sqlite3.Error as exc:
                with contextlib.suppress(sqlite3.Error):
                    conn.execute("ROLLBACK")
                if _errname(exc).startswith("SQLITE_IOERR"):
                    _drop_unsynced_frames(conn)
                raise self._error(exc, doing) from exc
            except BaseException:  # any other failure inside it: nothing half-done stays
                if conn.in_transaction:
                    with contextlib.suppress(sqlite3.Error):
                        conn.execute("ROLLBACK")
                raise

    def _read(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        with self._lock:
            try:
                return self._conn.execute(sql, params).fetchall()
            except sqlite3.Error as exc:
                if self._repair_live(exc):
                    return self._read(sql, params)
                raise self._error(exc, "reading the journal") from exc

    def _repair_live(self, exc: BaseException | None) -> bool:
        """Damage SQLite's quick check at opening missed, found while reading: rebuild the
        journal now, once per opening, as damage found at opening is (True: retry)."""
        if (self._repaired or not isinstance(exc, sqlite3.DatabaseError)
                or not _is_corrupt(exc)):
            return False
        self._repaired = True
        self._conn = self._salvage(self._conn, str(exc))
        return True

    # --- for the journal's companion modules (journal_writer, snapshots) ---

    def transaction(self, doing: str) -> contextlib.AbstractContextManager[sqlite3.Connection]:
        """One committed transaction on the journal's connection, failures reported as one
        JournalError sentence ("saving the event failed ..."); the lock is held throughout."""
        return self._transaction(doing)

    def query(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        """Rows of one read-only statement; failures become one JournalError sentence."""
        return self._read(sql, params)

    # --- writing ---

    def start_game(self, setup: dict[str, Any]) -> int:
        """Store a new game with its setup as event 0; returns the game's id."""
        text = encode_event(setup)
        players = setup.get("players")
        names = [str(p) for p in players] if isinstance(players, list | tuple) else []
        with self._transaction("starting the game") as conn:
            at = _now()
            cur = conn.execute("INSERT INTO games (started, players, game) VALUES (?, ?, ?)",
                               (at, json.dumps(names, ensure_ascii=False), game_of(setup)))
            game_id = int(cur.lastrowid or 0)
            conn.execute(INSERT_EVENT, (game_id, 0, at, text, zlib.crc32(text.encode("utf-8"))))
            count_added(conn, 1)
        return game_id

    def append(self, game_id: int, event: dict[str, Any]) -> None:
        """Store one event after the game's last; committed and durable when it returns."""
        text = encode_event(event)
        try:
            with self._transaction("saving the event") as conn:
                seq = conn.execute("SELECT COALESCE(MAX(seq), -1) + 1 FROM events "
                                   "WHERE game_id = ?", (game_id,)).fetchone()[0]
                conn.execute(INSERT_EVENT, (game_id, seq, _now(), text,
                                            zlib.crc32(text.encode("utf-8"))))
                count_added(conn, 1)
        except JournalError as exc:
            cause = exc.__cause__
            if isinstance(cause, sqlite3.IntegrityError) and "FOREIGN KEY" in str(cause):
                raise JournalError(f"there is no game {game_id} in the journal to add to") from exc
            if isinstance(cause, sqlite3.IntegrityError):
                raise JournalError(
                    f"game {game_id}'s next event number is already taken in the journal "
                    f"({one_line(str(cause), 80)}): another program is writing to it; close "
                    "it, the event was not accepted") from exc
            raise

    def set_result(self, game_id: int, winner: str | None) -> None:
        """Record the winner (None again after an undo took the win back)."""
        with self._transaction("saving the result") as conn:
            conn.execute("UPDATE games SET winner = ?, finished = ? WHERE id = ?",
                         (winner, None if winner is None else _now(), game_id))

    def abandon(self, game_id: int) -> None:
        """The scorekeeper started a new game instead; this one stays listed as unfinished."""
        with self._transaction("abandoning the game") as conn:
            conn.execute("UPDATE games SET abandoned = 1 WHERE id = ?", (game_id,))

    # --- reading ---

    def unfinished(self) -> StoredGame | None:
        """The newest game with no winner that was not abandoned, ready to resume."""
        rows = self._read("SELECT id FROM games WHERE winner IS NULL AND abandoned = 0 "
                          "ORDER BY id DESC LIMIT 1")
        if not rows:
            return None
        stored = self.load(rows[0][0])
        return stored if stored.events else None

    def load(self, game_id: int) -> StoredGame:
        """The game's events up to any damage; damaged rows are set aside and reported."""
        with self._lock:
            head = self._read("SELECT started, winner, abandoned FROM games WHERE id = ?",
                              (game_id,))
            if not head:
                raise JournalError(f"there is no game {game_id} in the journal; "
                                   "`sorry-companion history` lists the stored games")
            started, winner, abandoned = head[0]
            events, problem = self._good_events(game_id)
            notes = [problem] if problem else []
            notes += self.set_aside_notes(game_id)
            damage = " ".join(dict.fromkeys(notes)) or None
            if problem:
                self._say(problem)  # said already when rows were set aside: once
            return StoredGame(game_id, _when(started), events, damage, winner, bool(abandoned))

    def _good_events(self, game_id: int) -> tuple[list[dict[str, Any]], str | None]:
        """The clean prefix of the game's events, and why it stops early (if it does).

        Damage SQLite's quick check missed (a record that no longer decodes) is repaired
        here, once, the way damage found at opening is."""
        events: list[dict[str, Any]] = []
        try:
            rows = self._conn.execute(
                "SELECT seq, CAST(json AS BLOB), crc, chain FROM events WHERE game_id = ? "
                "ORDER BY seq", (game_id,)).fetchall()
            before = journal_chain.start(game_id)
            for seq, raw, crc, chain in rows:
                obj, why = read_row(seq, len(events), raw, crc, chain, before)
                if obj is None:
                    return events, self._set_aside(game_id, len(events), str(why))
                events.append(obj)
                before = journal_chain.link(before, raw)
        except sqlite3.DatabaseError as exc:
            if self._repair_live(exc):
                return self._good_events(game_id)
            return events, Notice(
                f"game {game_id} could only be read up to event {len(events) - 1} because the "
                f"journal file is damaged ({one_line(str(exc), 80)})"
                + ("; the app repairs it when it next starts" if self.readonly else ""),
                "unreadable", game=game_id, seq=len(events))
        return events, None

    def check_rows(self, skip: frozenset[int] = frozenset()) -> list[int]:
        """Check every stored event of every game but `skip` now (its number, checksum and
        place in its game's chain, not its JSON) and set aside each damaged one with the
        events after it, saying so once per game: the app does this at its start, so a
        flipped bit in a finished game is said on the first screen, not when History
        replays it. The ids of the games that had damage."""
        rows = self._read("SELECT game_id, seq, CAST(json AS BLOB), crc, chain FROM events "
                          "ORDER BY game_id, seq")
        damaged: list[int] = []
        game, expected, before = None, 0, 0
        for game_id, seq, raw, crc, chain in rows:
            if game_id != game:
                game, expected, before = game_id, 0, journal_chain.start(int(game_id))
            elif damaged and damaged[-1] == game_id:
                continue
            if game_id in skip:
                continue
            if row_fault(seq, expected, raw, crc, chain, before) is not None:
                damaged.append(game_id)
                continue
            expected, before = expected + 1, journal_chain.link(before, raw)
        for game_id in damaged:
            self.load(game_id)  # sets the damaged rows aside and says so
        return damaged

    def set_aside(self, game_id: int, seq: int, why: str) -> str:
        """Move event `seq` and every event after it out of the game, keeping them all in
        the set_aside table, and say so in one sentence (e.g. an event today's rules refuse).
        """
        with self._lock:
            return self._set_aside(game_id, seq, why)

    def _set_aside(self, game_id: int, seq: int, why: str) -> str:
        """Move a bad row and every row after it out of the game, keeping them all."""
        n = self._read("SELECT COUNT(*) FROM events WHERE game_id = ? AND seq >= ?",
                       (game_id, seq))[0][0]
        what = "its setup" if seq == 0 else f"event {seq}"
        moved_rows = f"it and the {n - 1} events after it were" if n > 1 else "it was"
        resume = ("the game cannot be resumed" if seq == 0
                  else f"the game goes on from event {seq - 1}")
        moved = Notice(f"game {game_id}: {what} was damaged ({why}), so {moved_rows} set "
                       f"aside in the journal's set_aside table; {resume}", "set_aside",
                       game=game_id, seq=seq, moved=n, why=why)
        try:
            self._say(moved)  # durable before any row moves
            with self._transaction("setting damaged events aside") as conn:
                conn.execute(
                    "INSERT INTO set_aside (game_id, seq, at, json, crc, reason, moved) "
                    "SELECT game_id, seq, at, CAST(json AS BLOB), crc, ?, ? FROM events "
                    "WHERE game_id = ? AND seq >= ? ORDER BY seq",
                    (moved, _now(), game_id, seq))
                conn.execute("DELETE FROM events WHERE game_id = ? AND seq >= ?",
                             (game_id, seq))
        except (JournalError, OSError) as exc:
            if self._repair_live(exc.__cause__):
                return self._set_aside(game_id, seq, why)
            stops = Notice(f"game {game_id}: {what} is damaged ({why}); the game stops before "
                           f"it and its {n} events from there are left where they are (they "
                           f"could not be set aside: {one_line(str(exc), 120)})",
                           "stops_before", game=game_id, seq=seq, count=n, why=why)
            with contextlib.suppress(OSError):
                self._say(stops)
            return stops
        return moved

    def set_aside_notes(self, game_id: int) -> list[str]:
        """What was set aside from the game and why, one sentence each, oldest first."""
        return [r[0] for r in self._read(
            "SELECT DISTINCT reason FROM set_aside WHERE game_id = ? ORDER BY id", (game_id,))]

    def games(self) -> list[GameRecord]:
        """Every stored game, oldest first, without replaying any."""
        rows = self._read(
            "SELECT g.id, g.started, g.finished, g.players, g.winner, g.abandoned, "
            "(SELECT COUNT(*) FROM events e WHERE e.game_id = g.id), g.game FROM games g "
            "ORDER BY g.id")
        records = []
        for gid, started, finished, players, winner, abandoned, count, name in rows:
            try:
                names = tuple(str(p) for p in json.loads(players))
            except (TypeError, ValueError):
                names = ()
            records.append(GameRecord(
                gid, _when(started), None if finished is None else _when(finished), names,
                winner, max(0, count - 1), bool(abandoned),
                name if isinstance(name, str) else DEFAULT))
        return records


# A games row's setup text (event 0), for the game's name when format 1 is migrated.
SETUP_SQL = "(SELECT CAST(json AS BLOB) FROM events e WHERE e.game_id = g.id AND e.seq = 0)"


def _migrate(conn: sqlite3.Connection, version: int) -> None:
    """An older format to this one, in one transaction: 1 to 2, each game's name in its
    row, read from its setup (history and stats tell games apart without replaying them);
    2 to 3, each event's checksum chain (journal_chain), computed over the rows as stored
    (a damaged row is still found by its own checksum when its game is loaded)."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        if version < 2:
            conn.execute(f"ALTER TABLE games ADD COLUMN game TEXT NOT NULL DEFAULT '{DEFAULT}'")
            named = [(stored_game(raw), gid) for gid, raw in conn.execute(
                f"SELECT g.id, {SETUP_SQL} FROM games g")]
            conn.executemany("UPDATE games SET game = ? WHERE id = ?",
                             [row for row in named if row[0] != DEFAULT])
        conn.execute("ALTER TABLE events ADD COLUMN chain INTEGER")
        chains: list[tuple[int, int]] = []
        game, before = None, 0
        for row_id, game_id, raw in conn.execute(
                "SELECT id, game_id, CAST(json AS BLOB) FROM events ORDER BY game_id, seq"):
            if game_id != game:
                game, before = game_id, journal_chain.start(int(game_id))
            before = journal_chain.link(before, bytes(raw or b""))
            chains.append((before, row_id))
        conn.executemany("UPDATE events SET chain = ? WHERE id = ?", chains)
        conn.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        conn.execute("COMMIT")
    except BaseException:
        with contextlib.suppress(sqlite3.Error):
            conn.execute("ROLLBACK")
        raise


def count_added(conn: sqlite3.Connection, added: int) -> None:
    """Add `added` to the journal's count of event rows ever stored, in the caller's
    transaction. Kept in the file's header (SQLite's application_id, page 1, stored +1 so
    0 means "not counted"), which a cut file keeps: a repair or an opening compares it with
    the rows found, so every lost event is counted, also where no row is left to count."""
    stored = conn.execute("PRAGMA application_id").fetchone()[0]
    if stored > 0:
        conn.execute(f"PRAGMA application_id={int(stored) + added}")


def _events_held(conn: sqlite3.Connection) -> int:
    return int(conn.execute("SELECT (SELECT COUNT(*) FROM events) + "
                            "(SELECT COUNT(*) FROM set_aside)").fetchone()[0])
