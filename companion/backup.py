"""Backups: every game and the scorekeeper's choices in one SQLite file, and back again.

A backup is a copy of the journal made with SQLite's online backup API, which copies
one consistent snapshot while the app goes on writing its game (WAL: the reader never
stops the writer), so nothing in the -wal is missed. The copy is a plain single-file
database (rollback journal, no -wal beside it) that any SQLite opens, even from a
read-only USB stick, and it carries one more table, `backup_files`, holding the data
folder's small files (settings.json, choices.json, notices.json, ...) and the
configuration file in use: what a new SD card needs besides the games.

Restoring (companion.restore) reads a backup as the hostile file it may be
(companion.backup_reader) and builds a new journal from its checked rows.

>>> import tempfile
>>> from companion.journal import Journal
>>> folder = tempfile.mkdtemp()
>>> with Journal.open(folder) as j:
...     _ = j.start_game({"type": "setup", "players": ["Ana", "Ben"]})
>>> make_backup(folder, Path(folder) / "copy.sqlite3").games
1
"""

from __future__ import annotations

import contextlib
import glob
import os
import sqlite3
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from companion.catalogue import text
from companion.config import read_small_file
from companion.durable import sync_file, sync_folder
from companion.errors import CompanionError
from companion.paths import journal_file
from companion.safe_text import one_line, quote

__all__ = ["BackupRefused", "BackupSummary", "backup_name", "make_backup", "usb_stick"]

FILES_TABLE = "backup_files"
CONFIG_NAME = "config.toml"  # the configuration's name inside a backup
RESTORED_CONFIG = "config-from-backup.toml"  # where restore puts it, in the data folder
SUFFIX = ".sqlite3"


class BackupRefused(CompanionError):
    """A backup or restore cannot be done; the sentence says why and what to do."""


@dataclass(frozen=True, slots=True)
class BackupSummary:
    """What a backup file holds."""

    path: Path
    games: int
    events: int
    files: tuple[str, ...]  # names of the files carried beside the games
    skipped: tuple[str, ...] = ()  # sentences: small files that could not be read

    def sentence(self) -> str:
        carried = f" and {', '.join(self.files)}" if self.files else ""
        games, events = text("count_games", n=self.games), text("count_events", n=self.events)
        return f"{games} ({events}){carried} in {self.path}"


def backup_name(now: datetime | None = None) -> str:
    """The file name a backup into a folder gets: sorted by date, never overwriting."""
    stamp = (now or datetime.now()).strftime("%Y-%m-%d-%H%M%S")
    return f"sorry-companion-backup-{stamp}{SUFFIX}"


def usb_stick(patterns: Sequence[str]) -> Path | None:
    """The first USB stick among `patterns` ([backup] usb_folders, shell patterns such as
    /media/*/*): a folder something is mounted on that this user may write. None: no stick.

    >>> usb_stick(["/nonexistent/*"]) is None
    True
    """
    for pattern in patterns:
        for found in sorted(glob.glob(pattern)):
            if os.path.ismount(found) and os.access(found, os.W_OK | os.X_OK):
                return Path(found)
    return None


def _connect_readonly(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(path.resolve().as_uri() + "?mode=ro", uri=True, timeout=5.0,
                           isolation_level=None)


@contextlib.contextmanager
def _closing(conn: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    try:
        yield conn
    finally:
        conn.close()


def _counts(conn: sqlite3.Connection) -> tuple[int, int]:
    games = conn.execute("SELECT count(*) FROM games").fetchone()[0]
    events = conn.execute("SELECT count(*) FROM events WHERE seq > 0").fetchone()[0]
    return int(games), int(events)


def _small_files(data_dir: Path) -> tuple[dict[str, bytes], list[str]]:
    """The data folder's own small files (*.json), and a sentence for each unreadable one."""
    found: dict[str, bytes] = {}
    skipped: list[str] = []
    for path in sorted(data_dir.glob("*.json")):
        try:
            found[path.name] = read_small_file(path)
        except OSError as exc:
            skipped.append(f"{path.name} could not be read ({one_line(str(exc), 80)}) and "
                           "is not in the backup")
    return found, skipped


def make_backup(data_dir: str | os.PathLike[str], dest: str | os.PathLike[str], *,
                config_file: Path | None = None) -> BackupSummary:
    """Back up `data_dir` to the file `dest` (a folder: a dated file in it), durably."""
    folder = Path(data_dir)
    journal = journal_file(folder)
    if not journal.is_file():
        raise BackupRefused(f"there is no journal in {folder} yet, so there is nothing to back "
                            "up; play a game first, or point --data at the right folder",
                            code="backup_nothing")
    target = Path(dest)
    if target.is_dir():
        target = target / backup_name()
    files, skipped = _small_files(folder)
    if config_file is not None:
        try:
            files[CONFIG_NAME] = read_small_file(config_file)
        except OSError as exc:
            skipped.append(f"the configuration {config_file} could not be read "
                           f"({one_line(str(exc), 80)}) and is not in the backup")
    try:
        source = _connect_readonly(journal)
        source.execute("PRAGMA user_version")  # opened and readable now, or never
    except sqlite3.Error as exc:
        raise BackupRefused(f"the journal {journal} could not be read "
                            f"({one_line(str(exc), 80)}); check that this user may read the "
                            "data folder", code="backup_unreadable") from None
    tmp = target.with_name(f".{target.name}.partial")
    try:
        open(tmp, "wb").close()  # an unwritable place is the place's fault, not SQLite's
        with _closing(source), _closing(sqlite3.connect(tmp, isolation_level=None)) as copy:
            source.backup(copy)  # one step: one snapshot, while the app keeps writing
            copy.execute("PRAGMA journal_mode=DELETE")  # one self-contained file
            copy.execute(f"CREATE TABLE {FILES_TABLE} (name TEXT PRIMARY KEY, "
                         "content BLOB NOT NULL)")
            copy.executemany(f"INSERT INTO {FILES_TABLE} VALUES (?, ?)", sorted(files.items()))
            problem = _check(copy)
            games, events = _counts(copy)
        if problem:
            raise BackupRefused(f"the journal in {folder} is damaged ({problem}), so the copy "
                                "would be too; start the app once (it repairs the journal) "
                                "and back up again", code="backup_damaged", problem=problem)
        sync_file(tmp)
        os.replace(tmp, target)
        sync_folder(target.parent)
    except sqlite3.Error as exc:  # the journal opened: writing the copy failed
        full = getattr(exc, "sqlite_errorname", "") == "SQLITE_FULL"
        why = "No space left on device" if full else one_line(str(exc), 80)
        raise BackupRefused(f"cannot write {quote(str(target))} ({why}); choose a place with "
                            "room for the copy", code="backup_write", why=why) from None
    except OSError as exc:
        raise BackupRefused(f"cannot write {quote(str(target))} ({exc.strerror or exc}); "
                            "choose a writable place with room for the copy",
                            code="backup_write", why=str(exc.strerror or exc)) from None
    finally:
        with contextlib.suppress(OSError):
            tmp.unlink()
    return BackupSummary(target, games, events, tuple(files), tuple(skipped))


def _check(conn: sqlite3.Connection) -> str | None:
    problems = [str(r[0]) for r in conn.execute("PRAGMA quick_check")]
    return None if problems == ["ok"] else one_line(problems[0], 80)
