"""The game journal: every accepted event, durable before the table hears about it.

One SQLite file (data_dir/journal.sqlite3) in WAL mode with synchronous=FULL, so a
committed append survives a killed process or a pulled power plug, and a torn write is
rolled back by SQLite itself. Each event row keeps the event's JSON text exactly as
given, the wall-clock time and a CRC32 of the text, so a row damaged on disk is found
when its game is loaded instead of being replayed as a different game.

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

from companion.errors import JournalError
from companion.paths import journal_file

__all__ = ["GameRecord", "Journal", "StoredGame"]

SCHEMA_VERSION = 1
BUSY_TIMEOUT_S = 5.0
_TABLES = {"games", "events", "set_aside"}
_SCHEMA = """
CREATE TABLE games (
    id INTEGER PRIMARY KEY,
    started TEXT NOT NULL,
    finished TEXT,
    players TEXT NOT NULL,           -- JSON list of names, to list games without replaying
    winner TEXT,
    abandoned INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE events (
    id INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,            -- 0 is the setup
    at TEXT NOT NULL,                -- wall-clock time, ISO 8601 UTC
    json TEXT NOT NULL,              -- the event exactly as given
    crc INTEGER NOT NULL,            -- zlib.crc32 of the UTF-8 JSON text
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
    events: list[dict[str, Any]]
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


def _encode(event: dict[str, Any]) -> str:
    if not isinstance(event, dict):
        raise JournalError(f"only JSON objects can be journalled, not {type(event).__name__}")
    try:
        return json.dumps(event, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise JournalError(f"the event cannot be stored as JSON ({exc}): {event!r}") from exc


def _read_row(seq: int, expected: int, raw: bytes | None,
              crc: int | None) -> tuple[dict[str, Any] | None, str | None]:
    """The stored event, parsed once, or why this row cannot be used."""
    if seq != expected:
        return None, f"event {expected} is missing"
    if raw is None or crc is None or zlib.crc32(raw) != crc:
        return None, "its checksum does not match"
    try:
        obj = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return None, "it is not valid JSON"
    if not isinstance(obj, dict):
        return None, "it is not a JSON object"
    return obj, None


def _sync_dir(folder: Path) -> None:
    """Make a created or renamed file's directory entry durable too."""
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _aside_name(path: Path) -> Path:
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    candidate = path.with_name(f"{path.name}.damaged-{stamp}")
    n = 2
    while candidate.exists():
        candidate = path.with_name(f"{path.name}.damaged-{stamp}-{n}")
        n += 1
    return candidate


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
        create, repair, rename or set aside anything; they report what the app will do.
        """
        self.path = Path(path)
        self.readonly = readonly
        self.damage: list[str] = []
        self._lock = threading.RLock()
        self._conn = self._open_readonly() if readonly else self._open_checked()

    @classmethod
    def open(cls, data_dir: str | os.PathLike[str]) -> Journal:
        """The journal in `data_dir` (created with its folder if need be)."""
        folder = Path(data_dir).expanduser()
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise JournalError(
                f"cannot create the data folder {folder} ({exc.strerror}); "
                "choose a writable folder with data_dir in the configuration or --data"
            ) from exc
        return cls(journal_file(folder))

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        with self._lock, contextlib.suppress(sqlite3.Error):
            self._conn.close()

    def pragmas(self) -> dict[str, Any]:
        """The durability settings in force on this connection (for diagnostics and tests)."""
        return {name: self._read(f"PRAGMA {name}")[0][0]
                for name in ("journal_mode", "synchronous", "foreign_keys")}

    # --- opening, checking, repairing ---

    def _connect(self, path: Path) -> sqlite3.Connection:
        return sqlite3.connect(path, timeout=BUSY_TIMEOUT_S, isolation_level=None,
                               check_same_thread=False)

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
            self._configure(conn)
            conn.executescript(
                "BEGIN IMMEDIATE;"
                + _SCHEMA.replace("CREATE TABLE", "CREATE TABLE IF NOT EXISTS")
                + f";PRAGMA user_version={SCHEMA_VERSION}; COMMIT;")
            _sync_dir(self.path.parent)
            return
        if version > SCHEMA_VERSION and _TABLES.issubset(names):
            raise JournalError(
                f"{self.path} was written by a newer version of the companion "
                f"(journal format {version}); update the app to read it"
            )
        if version != SCHEMA_VERSION or not _TABLES.issubset(names):
            raise _NotAJournal
        problems = [r[0] for r in conn.execute("PRAGMA quick_check")]
        if problems != ["ok"]:
            raise sqlite3.DatabaseError(f"database disk image is malformed ({problems[0]})")
        self._configure(conn)

    def _open_readonly(self) -> sqlite3.Connection:
        uri = f"{self.path.expanduser().resolve().as_uri()}?mode=ro"
        try:
            conn = sqlite3.connect(uri, uri=True, timeout=BUSY_TIMEOUT_S,
                                   isolation_level=None, check_same_thread=False)
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            names = {r[0] for r in conn.execute(
                "SELECT name FROM sqlite_master WHERE type='table'")}
        except sqlite3.Error as exc:
            raise JournalError(
                f"{self.path} cannot be read ({exc}); start the app once: it repairs the "
                "journal and keeps the damaged file beside it") from exc
        if version != SCHEMA_VERSION or not _TABLES.issubset(names):
            conn.close()
            raise JournalError(
                f"{self.path} is not a journal this version can read; start the app once "
                "(it sets a foreign file aside) or point --data at the right folder")
        return conn

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
        aside = _aside_name(self.path)
        try:
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
        self.damage.append(
            f"{self.path.name} was not a game journal ({why}); it was kept as {aside} "
            "and a new, empty journal was started"
        )
        return conn

    def _salvage(self, old: sqlite3.Connection, why: str) -> sqlite3.Connection:
        """Rebuild a damaged journal from every row that can be read; keep the old file.

        The rows are read from a private copy whose header no longer claims more pages
        than the file holds (a truncated file otherwise cannot be read at all). The new
        journal is built beside the old one and swapped in by one rename, so a crash
        during the repair leaves the damaged file where it was, to be repaired again.
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
                counts = _copy_readable(src, new)
                new.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
            finally:
                new.close()
                src.close()
            for used in (copy, Path(f"{copy}-wal"), Path(f"{copy}-shm")):
                used.unlink(missing_ok=True)
            aside = _aside_name(self.path)
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
                f"{self.path} is damaged ({why}) and could not be repaired ({exc}); "
                "copy it somewhere safe, move it away and start the app again"
            ) from exc
        games, events, set_aside = counts
        extra = f", {set_aside} unusable rows were set aside" if set_aside else ""
        self.damage.append(
            f"{self.path.name} was damaged ({why}); every event that could still be read was "
            f"kept ({games} games, {events} events{extra}) and the damaged file was kept as "
            f"{aside}"
        )
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
                f"the storage under {where} failed ({exc}), so {doing} failed and the event "
                "was not accepted; check the disk or SD card")
        return JournalError(f"the journal {where} failed while {doing} ({exc})")

    @contextlib.contextmanager
    def _transaction(self, doing: str) -> Iterator[sqlite3.Connection]:
        """One committed transaction; on any failure it is rolled back and reported."""
        with self._lock:
            conn = self._conn
            try:
                conn.execute("BEGIN IMMEDIATE")
                yield conn
                conn.execute("COMMIT")
            except sqlite3.Error as exc:
                with contextlib.suppress(sqlite3.Error):
                    conn.execute("ROLLBACK")
                raise self._error(exc, doing) from exc

    def _read(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        with self._lock:
            try:
                return self._conn.execute(sql, params).fetchall()
            except sqlite3.Error as exc:
                raise self._error(exc, "reading the journal") from exc

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
        text = _encode(setup)
        players = setup.get("players")
        names = [str(p) for p in players] if isinstance(players, list | tuple) else []
        with self._transaction("starting the game") as conn:
            at = _now()
            cur = conn.execute("INSERT INTO games (started, players) VALUES (?, ?)",
                               (at, json.dumps(names, ensure_ascii=False)))
            game_id = int(cur.lastrowid or 0)
            conn.execute(
                "INSERT INTO events (game_id, seq, at, json, crc) VALUES (?, 0, ?, ?, ?)",
                (game_id, at, text, zlib.crc32(text.encode("utf-8"))))
        return game_id

    def append(self, game_id: int, event: dict[str, Any]) -> None:
        """Store one event after the game's last; committed and durable when it returns."""
        text = _encode(event)
        crc = zlib.crc32(text.encode("utf-8"))
        try:
            with self._transaction("saving the event") as conn:
                conn.execute(
                    "INSERT INTO events (game_id, seq, at, json, crc) "
                    "SELECT ?, COALESCE(MAX(seq), -1) + 1, ?, ?, ? FROM events WHERE game_id = ?",
                    (game_id, _now(), text, crc, game_id))
        except JournalError as exc:
            if isinstance(exc.__cause__, sqlite3.IntegrityError):
                raise JournalError(f"there is no game {game_id} in the journal to add to") from exc
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
            notes += self._set_aside_notes(game_id)
            damage = " ".join(dict.fromkeys(notes)) or None
            if problem:
                self.damage.append(problem)
            return StoredGame(game_id, _when(started), events, damage, winner, bool(abandoned))

    def _good_events(self, game_id: int) -> tuple[list[dict[str, Any]], str | None]:
        """The clean prefix of the game's events, and why it stops early (if it does)."""
        events: list[dict[str, Any]] = []
        try:
            rows = self._conn.execute(
                "SELECT seq, CAST(json AS BLOB), crc FROM events WHERE game_id = ? "
                "ORDER BY seq", (game_id,)).fetchall()
            for seq, raw, crc in rows:
                obj, why = _read_row(seq, len(events), raw, crc)
                if obj is None:
                    return events, self._set_aside(game_id, len(events), str(why))
                events.append(obj)
        except sqlite3.DatabaseError as exc:
            return events, (
                f"game {game_id} could only be read up to event {len(events) - 1} because the "
                f"journal file is damaged ({exc}); restart the app to repair it")
        return events, None

    def set_aside(self, game_id: int, seq: int, why: str) -> str:
        """Move event `seq` and every event after it out of the game, keeping them all in
        the set_aside table, and say so in one sentence (e.g. an event today's rules refuse).
        """
        with self._lock:
            return self._set_aside(game_id, seq, why)

    def _set_aside(self, game_id: int, seq: int, why: str) -> str:
        """Move a bad row and every row after it out of the game, keeping them all."""
        if self.readonly:
            return (f"game {game_id}: event {seq} is damaged ({why}); it is read up to "
                    "there, and the app sets the rest aside when it next starts")
        n = self._read("SELECT COUNT(*) FROM events WHERE game_id = ? AND seq >= ?",
                       (game_id, seq))[0][0]
        what = "its setup" if seq == 0 else f"event {seq}"
        moved_rows = f"it and the {n - 1} events after it were" if n > 1 else "it was"
        resume = ("the game cannot be resumed" if seq == 0
                  else f"the game goes on from event {seq - 1}")
        moved = (f"game {game_id}: {what} was damaged ({why}), so {moved_rows} set aside "
                 f"in the journal's set_aside table; {resume}")
        try:
            with self._transaction("setting damaged events aside") as conn:
                conn.execute(
                    "INSERT INTO set_aside (game_id, seq, at, json, crc, reason, moved) "
                    "SELECT game_id, seq, at, CAST(json AS BLOB), crc, ?, ? FROM events "
                    "WHERE game_id = ? AND seq >= ? ORDER BY seq",
                    (moved, _now(), game_id, seq))
                conn.execute("DELETE FROM events WHERE game_id = ? AND seq >= ?",
                             (game_id, seq))
        except JournalError as exc:
            return (f"game {game_id}: {what} is damaged ({why}); the game stops before it "
                    f"(the damaged rows could not be set aside: {exc})")
        return moved

    def _set_aside_notes(self, game_id: int) -> list[str]:
        return [r[0] for r in self._read(
            "SELECT DISTINCT reason FROM set_aside WHERE game_id = ? ORDER BY id", (game_id,))]

    def games(self) -> list[GameRecord]:
        """Every stored game, oldest first, without replaying any."""
        rows = self._read(
            "SELECT g.id, g.started, g.finished, g.players, g.winner, g.abandoned, "
            "(SELECT COUNT(*) FROM events e WHERE e.game_id = g.id) FROM games g ORDER BY g.id")
        records = []
        for gid, started, finished, players, winner, abandoned, count in rows:
            try:
                names = tuple(str(p) for p in json.loads(players))
            except (TypeError, ValueError):
                names = ()
            records.append(GameRecord(
                gid, _when(started), None if finished is None else _when(finished), names,
                winner, max(0, count - 1), bool(abandoned)))
        return records


def _readable(conn: sqlite3.Connection, sql: str) -> list[tuple[Any, ...]]:
    """Rows of `sql` (which selects rowid first, `WHERE rowid > ?`) that can be read.

    A scan stops at the first damaged page; the next readable rows are found by seeking
    further and further past it, so one bad page does not hide the rest of the table.
    """
    rows: list[tuple[Any, ...]] = []
    after = -(2**63)
    for _ in range(64):  # a bound on the damaged stretches skipped
        try:
            for row in conn.execute(sql, (after,)):
                rows.append(row)
                after = row[0]
            return rows
        except sqlite3.DatabaseError:
            pass
        for step in (2**k for k in range(40)):
            try:
                nxt = conn.execute(sql.replace("ORDER BY rowid", "ORDER BY rowid LIMIT 1"),
                                   (after + step,)).fetchone()
            except sqlite3.DatabaseError:
                continue
            if nxt is None:
                return rows
            after = nxt[0] - 1
            break
        else:
            return rows
    return rows


def _copy_readable(old: sqlite3.Connection, new: sqlite3.Connection) -> tuple[int, int, int]:
    """Copy every usable game and each game's clean prefix of events; the rest set aside."""
    games = {r[0]: r for r in _readable(old, "SELECT id, started, finished, players, winner, "
                                             "abandoned FROM games WHERE rowid > ? "
                                             "ORDER BY rowid")}
    rows = _readable(old, "SELECT id, game_id, seq, at, CAST(json AS BLOB), crc FROM events "
                          "WHERE rowid > ? ORDER BY rowid")
    with contextlib.suppress(sqlite3.DatabaseError):
        rows += [(None, *r[1:]) for r in _readable(
            old, "SELECT id, game_id, seq, at, json, crc, reason, moved FROM set_aside "
                 "WHERE rowid > ? ORDER BY rowid")]
    by_game: dict[int, list[tuple[Any, ...]]] = {}
    aside: list[tuple[Any, ...]] = []
    now = _now()
    for row in rows:
        if row[0] is None:
            aside.append(row[1:])
        elif isinstance(row[1], int) and isinstance(row[2], int):
            by_game.setdefault(row[1], []).append(row)
        elif row[4] is not None:  # a row without any content is nothing to keep
            aside.append((*row[1:], "a row of the damaged journal without a game or a "
                          "position", now))
    games = {k: v for k, v in games.items() if isinstance(k, int)}
    new.execute("BEGIN")
    kept_games = kept_events = 0
    for gid in sorted(set(games) | set(by_game)):
        evs = sorted(by_game.get(gid, []), key=lambda r: r[2])
        good: list[tuple[Any, ...]] = []
        for row in evs:
            _, why = _read_row(row[2], len(good), row[4], row[5])
            if why is not None:
                reason = (f"game {gid}: event {len(good)} could not be recovered from the "
                          f"damaged journal ({why}); the events after it were set aside")
                aside += [(gid, r[2], r[3], r[4], r[5], reason, now) for r in evs[len(good):]]
                break
            good.append(row)
        if gid in games:
            new.execute("INSERT INTO games VALUES (?, ?, ?, ?, ?, ?)", games[gid])
        elif good:  # the game's own row is lost: rebuild it from its setup
            setup = json.loads(bytes(good[0][4]).decode("utf-8"))
            players = setup.get("players") if isinstance(setup.get("players"), list) else []
            new.execute("INSERT INTO games (id, started, players) VALUES (?, ?, ?)",
                        (gid, good[0][3], json.dumps(players, ensure_ascii=False)))
        else:
            continue
        kept_games += 1
        for _, game_id, seq, at, raw, crc in good:
            new.execute("INSERT INTO events (game_id, seq, at, json, crc) VALUES (?, ?, ?, ?, ?)",
                        (game_id, seq, at, bytes(raw).decode("utf-8"), crc))
            kept_events += 1
    new.executemany("INSERT INTO set_aside (game_id, seq, at, json, crc, reason, moved) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?)", aside)
    new.execute("COMMIT")
    return kept_games, kept_events, len(aside)
