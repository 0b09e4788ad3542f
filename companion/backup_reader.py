"""Reading a backup from outside without trusting it: read-only, nothing in it ever run.

A backup comes from a USB stick anyone could have written. SQLite opens it read-only and
immutable (no lock, no -shm, nothing written on the stick), with `trusted_schema=OFF`
(no function a view, trigger or index of the file names may run) and a limit on every
value's length. Only the app's own tables are read, and only when they are plain tables,
by the app's own SELECTs naming their columns; every value is checked for its kind, every
event against its checksum and the chain of the events before it (journal_chain), and
every small file for its name, size and syntax. The file's schema, triggers, views,
indexes and other tables are never copied or run, only counted (`left_out`). Snapshots
are not read: they are a cache of the events (a pickle), rebuilt by the app from the
events themselves.

A `-wal` or `-journal` beside the file (a journal copied from a data folder after a power
cut) is read from a private copy of them all, so its saves are restored too and the stick
is still never written.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import sqlite3
import stat
import tempfile
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion import journal_chain
from companion.backup import CONFIG_NAME, FILES_TABLE, BackupRefused
from companion.games import game_of
from companion.journal import READABLE, SCHEMA_VERSION
from companion.journal_salvage import read_row
from companion.limits import CONFIG_LIMIT, PREFS_LIMIT
from companion.safe_text import one_line, quote

__all__ = ["BackupReader", "EventRow", "GameRow", "open_backup"]

VALUE_LIMIT = 1 << 20  # bytes of one value: an event is under 1 KB, a small file 1 MiB
MAX_FILES = 64  # small files in one backup: the data folder holds a handful
FILE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,59}\.json")  # what the app writes
SIDES = ("-wal", "-journal")  # files beside a database that SQLite would read with it
OURS = {"games", "events", "set_aside", "snapshots", FILES_TABLE}  # the app's tables
# The columns each format's tables must have (format 2 named the games, 3 chained events).
GAME_COLUMNS = ("id", "started", "finished", "players", "winner", "abandoned", "game")
EVENT_COLUMNS = ("game_id", "seq", "at", "json", "crc", "chain")
ASIDE_COLUMNS = ("game_id", "seq", "at", "json", "crc", "reason", "moved")
SINCE = {"game": 2, "chain": 3}  # columns a journal has from that format on

GameRow = tuple[int, str, str | None, str, str | None, int, str]
EventRow = tuple[int, int, str, str, int, int]  # game_id, seq, at, json, crc, chain


@dataclass(frozen=True, slots=True)
class _Spot:
    """Where a value was found, for the sentence that refuses it."""

    table: str
    row: int

    def __str__(self) -> str:
        return f"row {self.row} of its {self.table} table"


class BackupReader:
    """An open backup, its format checked; rows are read and checked as they are copied."""

    def __init__(self, path: Path, conn: sqlite3.Connection, private: Path | None) -> None:
        self.path = path
        self._conn = conn
        self._private = private
        self.version = 0
        self.left_out: tuple[str, ...] = ()
        self._columns: dict[str, set[str]] = {}

    # --- sentences ---

    too_big = f"a value in it is larger than {VALUE_LIMIT >> 20} MiB"

    def _name(self) -> str:
        return quote(str(self.path))

    def damaged(self, why: str) -> BackupRefused:
        return BackupRefused(f"{self._name()} is damaged ({why}); restore from another "
                             "backup", code="restore_damaged", why=why)

    def broken(self, why: str) -> BackupRefused:
        return BackupRefused(f"{self._name()} is not a backup this version can restore "
                             f"({why}); restore from a file `sorry-companion backup` wrote",
                             code="restore_broken", why=why)

    # --- the format ---

    def check(self) -> None:
        """The format, the tables and their columns: refused in one sentence if wrong."""
        conn = self._conn
        self.version = int(conn.execute("PRAGMA user_version").fetchone()[0])
        kinds = {str(name).lower(): str(kind) for schema, name, kind, *_ in
                 conn.execute("PRAGMA table_list") if schema == "main"}
        if self.version > SCHEMA_VERSION and "games" in kinds:
            raise BackupRefused(
                f"{self._name()} was written by a newer version of the companion (journal "
                f"format {self.version}, this one reads up to {SCHEMA_VERSION}); update the "
                "app, then restore", code="restore_newer", version=self.version)
        if self.version not in READABLE and {"games", "events"} <= set(kinds):
            raise self.broken(f"its journal format is {self.version}, which no version of "
                              "the companion writes")
        if self.version not in READABLE or not {"games", "events"} <= set(kinds):
            raise BackupRefused(f"{self._name()} is not a backup of the companion (it holds "
                                "no game journal); give the file that `sorry-companion "
                                "backup` wrote", code="restore_not_journal")
        problems = [str(r[0]) for r in conn.execute("PRAGMA quick_check")]
        if problems != ["ok"]:
            raise self.damaged(f"SQLite's check says: {one_line(problems[0], 80)}")
        wanted = {"games": GAME_COLUMNS, "events": EVENT_COLUMNS, "set_aside": ASIDE_COLUMNS,
                  FILES_TABLE: ("name", "content")}
        for table, columns in wanted.items():
            if table not in kinds:
                continue
            if kinds[table] != "table":
                kind = "a view" if kinds[table] == "view" else f"a {kinds[table]} table"
                raise self.broken(f"its {table} is {kind}, not a plain table")
            self._columns[table] = self._plain_columns(table)
            for column in columns:
                if self.version >= SINCE.get(column, 0) and column not in self._columns[table]:
                    raise self.broken(f"its {table} table has no {column} column")
        self.left_out = _left_out(conn)

    def _plain_columns(self, table: str) -> set[str]:
        """The table's stored columns; a generated one (an expression of the file's,
        computed on reading) is refused rather than read."""
        plain = set()
        for _, name, _, _, _, _, hidden in self._conn.execute(f"PRAGMA table_xinfo({table})"):
            if hidden in (2, 3):
                raise self.broken(f"its {table} table has a computed column")
            plain.add(str(name).lower())
        return plain

    # --- the rows ---

    def _rows(self, sql: str) -> Iterator[tuple[Any, ...]]:
        """The rows of one of the app's own SELECTs; SQLite's refusal (a value over the
        limit, a damaged page, text that is not UTF-8) is the backup's damage."""
        try:
            yield from self._conn.execute(sql)
        except sqlite3.Error as exc:
            if getattr(exc, "sqlite_errorname", "") == "SQLITE_TOOBIG":
                raise self.damaged(self.too_big) from None
            raise self.damaged(f"SQLite says: {one_line(str(exc), 60)}") from None

    def games(self) -> Iterator[GameRow]:
        """Every game row, each value of the kind the app writes (format 1 has no game
        name: "" here, the events' setup names it)."""
        game = "game" if "game" in self._columns["games"] else "''"
        for n, row in enumerate(self._rows(
                "SELECT id, started, finished, players, winner, abandoned, "
                f"{game} FROM games ORDER BY id"), 1):
            spot = _Spot("games", n)
            gid, started, finished, players, winner, abandoned, name = row
            self._kind(gid, int, spot, "id")
            self._kind(started, str, spot, "started")
            self._kind(finished, str | None, spot, "finished")
            self._kind(players, str, spot, "players")
            self._kind(winner, str | None, spot, "winner")
            if abandoned not in (0, 1) or isinstance(abandoned, float):
                raise self.damaged(f"{spot}: abandoned is {quote(abandoned)}, not 0 or 1")
            self._kind(name, str, spot, "game")
            if not _names_list(players):
                raise self.damaged(f"{spot}: players is not a list of names")
            yield gid, started, finished, players, winner, abandoned, name

    def events(self, games: set[int]) -> Iterator[tuple[EventRow, str | None]]:
        """Every event in game order, checked against its checksum and chain (computed for
        the formats before the chain); with each setup, the game it names."""
        chain = "chain" if "chain" in self._columns["events"] else "NULL"
        game, expected, before = None, 0, 0
        for n, row in enumerate(self._rows(
                f"SELECT game_id, seq, at, typeof(json), CAST(json AS BLOB), crc, {chain} "
                "FROM events ORDER BY game_id, seq"), 1):
            spot = _Spot("events", n)
            gid, seq, at, kind, raw, crc, stored_chain = row
            self._kind(gid, int, spot, "game_id")
            self._kind(seq, int, spot, "seq")
            self._kind(at, str, spot, "at")
            self._kind(crc, int, spot, "crc")
            self._kind(stored_chain, int if chain != "NULL" else type(None), spot, "chain")
            if kind != "text":
                raise self.damaged(f"{spot}: json is {kind}, not text")
            if gid not in games:
                raise self.damaged(f"events of game {gid} belong to no game")
            if gid != game:
                game, expected, before = gid, 0, journal_chain.start(gid)
            obj, why = read_row(seq, expected, raw, crc, stored_chain, before)
            if obj is None:
                raise self.damaged(f"game {gid}, event {expected}: {why}")
            before = journal_chain.link(before, raw)
            expected += 1
            yield (gid, seq, at, raw.decode("utf-8"), crc, before), \
                game_of(obj) if seq == 0 else None

    def set_aside(self) -> Iterator[tuple[Any, ...]]:
        """The rows the journal had set aside (kept as found: they are kept, not used)."""
        if "set_aside" not in self._columns:
            return
        for n, row in enumerate(self._rows(
                "SELECT game_id, seq, at, json, crc, reason, moved FROM set_aside "
                "ORDER BY id"), 1):
            spot = _Spot("set_aside", n)
            for value, kinds, column in zip(row, (int | None, int | None, str | None,
                                                  str | bytes | None, int | None, str, str),
                                            ASIDE_COLUMNS, strict=True):
                self._kind(value, kinds, spot, column)
            yield row

    def _kind(self, value: object, kinds: Any, spot: _Spot, column: str) -> None:
        if isinstance(value, bool) or not isinstance(value, kinds):
            raise self.damaged(f"{spot}: {column} is {_kind_name(value)}")
        if isinstance(value, int) and not -(2**63) <= value < 2**63:
            raise self.damaged(f"{spot}: {column} is out of range")

    # --- the small files ---

    def files(self) -> dict[str, bytes]:
        """The data folder's small files carried in the backup, each name and content
        checked as the app would write them (a .json name, JSON, at most 1 MiB)."""
        if FILES_TABLE not in self._columns:
            return {}
        found: dict[str, bytes] = {}
        for n, (name, content) in enumerate(self._rows(
                f"SELECT name, content FROM {FILES_TABLE} ORDER BY rowid"), 1):
            if n > MAX_FILES:
                raise self._bad_file(name, f"it holds more than {MAX_FILES} files")
            if not isinstance(name, str):
                raise self._bad_file(name, "its name is not text")
            if isinstance(content, str):
                content = content.encode("utf-8")
            if not isinstance(content, bytes):
                raise self._bad_file(name, "its content is not a file's bytes")
            problem = _file_problem(name, content)
            if problem is None and name in found:
                problem = "it is there twice"
            if problem:
                raise self._bad_file(name, problem)
            found[name] = content
        return found

    def _bad_file(self, name: object, why: str) -> BackupRefused:
        return BackupRefused(f"{self._name()} holds a file {quote(name, 40)} the app would "
                             f"not write ({why}); restore from another backup",
                             code="restore_files", why=why)

    def close(self) -> None:
        with contextlib.suppress(sqlite3.Error):
            self._conn.close()
        if self._private is not None:
            shutil.rmtree(self._private, ignore_errors=True)


def _kind_name(value: object) -> str:
    if value is None:
        return "missing"
    return {int: "a number", float: "a fraction", str: "text", bytes: "binary data"}.get(
        type(value), type(value).__name__)


def _names_list(players: str) -> bool:
    try:
        names = json.loads(players)
    except ValueError:
        return False
    return isinstance(names, list) and all(isinstance(n, str) for n in names)


def _file_problem(name: str, content: bytes) -> str | None:
    """Why a small file from a backup cannot be put in the data folder, or None."""
    if name == CONFIG_NAME:
        limit, parse = CONFIG_LIMIT, tomllib.loads
    elif FILE_NAME.fullmatch(name):
        limit, parse = PREFS_LIMIT, json.loads
    else:
        return "not a name of the data folder's files"
    if len(content) > limit:
        return f"it is larger than {limit >> 20} MiB"
    try:
        parse(content.decode("utf-8"))
    except (ValueError, RecursionError):  # UnicodeDecodeError, JSON's and TOML's errors
        return "its content is not what its name says"
    return None


def _left_out(conn: sqlite3.Connection) -> tuple[str, ...]:
    """What the file holds that is not the app's: counted, never copied or run."""
    counts: dict[str, int] = {}
    for kind, name in conn.execute("SELECT type, name FROM sqlite_master"):
        low = str(name).lower()
        if low.startswith("sqlite_") or (kind == "table" and low in OURS):
            continue
        counts[str(kind)] = counts.get(str(kind), 0) + 1
    return tuple(f"{n} {kind}{'s' if n > 1 else ''}" for kind, n in sorted(counts.items()))


def _connect(path: Path, *, immutable: bool) -> sqlite3.Connection:
    """A connection that only reads and never runs the file's own functions."""
    mode = "ro&immutable=1" if immutable else "ro"
    conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode={mode}", uri=True,
                           isolation_level=None, timeout=0)
    conn.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, VALUE_LIMIT)
    conn.execute("PRAGMA trusted_schema=OFF")
    conn.execute("PRAGMA cell_size_check=ON")
    conn.execute("PRAGMA query_only=ON")
    return conn


def _private_copy(source: Path, sides: list[Path]) -> tuple[Path, Path]:
    """The backup and what lies beside it, copied into a private folder."""
    folder = Path(tempfile.mkdtemp(prefix="sorry-restore-"))
    try:
        copy = folder / "backup.sqlite3"
        shutil.copyfile(source, copy)
        for side in sides:
            shutil.copyfile(side, f"{copy}{side.name[len(source.name):]}")
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    return folder, copy


def _is_file(path: Path) -> bool:
    try:
        return stat.S_ISREG(path.stat().st_mode)
    except OSError:
        return False


@contextlib.contextmanager
def open_backup(path: str | os.PathLike[str]) -> Iterator[BackupReader]:
    """The backup at `path`, opened and its format checked; BackupRefused otherwise."""
    source = Path(path)
    name = quote(str(source))
    if not _is_file(source):
        raise BackupRefused(f"{name} is not a file; give the file that `sorry-companion "
                            "backup` wrote", code="restore_missing")
    sides = [side for side in (Path(f"{source}{s}") for s in SIDES)
             if side.exists() or side.is_symlink()]
    for side in sides:
        if not _is_file(side):
            raise BackupRefused(f"{quote(str(side))} beside the backup is not a file; move "
                                "it away and restore again", code="restore_missing")
    private = None
    try:
        if sides:
            private, copy = _private_copy(source, sides)
            conn = _connect(copy, immutable=False)
        else:
            conn = _connect(source, immutable=True)
    except (OSError, sqlite3.Error) as exc:
        if private is not None:
            shutil.rmtree(private, ignore_errors=True)
        why = one_line(str(getattr(exc, "strerror", None) or exc), 80)
        raise BackupRefused(f"{name} cannot be read ({why}); check the stick and that there "
                            "is room for a copy of it", code="restore_unreadable",
                            why=why) from None
    reader = BackupReader(source, conn, private)
    try:
        try:
            reader.check()
        except sqlite3.Error as exc:
            error = getattr(exc, "sqlite_errorname", "")
            if error == "SQLITE_TOOBIG":
                raise reader.damaged(reader.too_big) from None
            if "malformed" in str(exc) or error.startswith("SQLITE_CORRUPT"):
                raise reader.damaged(f"SQLite says: {one_line(str(exc), 60)}") from None
            raise BackupRefused(f"{name} is not a backup of the companion (SQLite says: "
                                f"{one_line(str(exc), 60)}); give the file that "
                                "`sorry-companion backup` wrote",
                                code="restore_not_journal") from None
        yield reader
    finally:
        reader.close()
