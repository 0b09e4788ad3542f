"""Backups: every game and the scorekeeper's choices in one SQLite file, and back again.

A backup is a copy of the journal made with SQLite's online backup API, which copies
one consistent snapshot while the app goes on writing its game (WAL: the reader never
stops the writer), so nothing in the -wal is missed. The copy is a plain single-file
database (rollback journal, no -wal beside it) that any SQLite opens, even from a
read-only USB stick, and it carries one more table, `backup_files`, holding the data
folder's small files (settings.json, choices.json, notices.json, ...) and the
configuration file in use: what a new SD card needs besides the games.

Restoring refuses while the app runs on the data folder (its lock, companion.datalock),
refuses a file that is not a journal, keeps the journal it replaces as a safety copy,
and puts the backup's files back; the configuration is written beside the journal for
the owner to copy to /etc (the app never writes there).

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
from companion.datalock import DataLock
from companion.durable import sync_file, sync_folder, write_durably
from companion.errors import CompanionError, DataFolderBusy
from companion.journal import READABLE, SCHEMA_VERSION
from companion.paths import JOURNAL_NAME, journal_file
from companion.safe_text import one_line, quote

__all__ = ["BackupRefused", "BackupSummary", "RestoreSummary", "backup_name", "make_backup",
           "read_backup", "restore_backup", "usb_stick"]

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


@dataclass(frozen=True, slots=True)
class RestoreSummary:
    backup: BackupSummary
    safety_copy: Path | None  # the journal that was replaced, kept
    config: Path | None  # the configuration found in the backup, written here


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


def read_backup(path: str | os.PathLike[str]) -> tuple[BackupSummary, dict[str, bytes]]:
    """Check that `path` is a backup (or a journal) this version can restore, and read it."""
    source = Path(path)
    if not source.is_file():
        raise BackupRefused(f"{quote(str(source))} is not a file; give the file that "
                            "`sorry-companion backup` wrote", code="restore_missing")
    not_ours = (f"{quote(str(source))} is not a backup of the companion ({{why}}); give the "
                "file that `sorry-companion backup` wrote")
    try:
        with _closing(_connect_readonly(source)) as conn:
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            tables = {r[0] for r in conn.execute(
                "SELECT name FROM sqlite_master WHERE type='table'")}
            if version > SCHEMA_VERSION and "games" in tables:
                raise BackupRefused(f"{quote(str(source))} was written by a newer version of "
                                    "the companion; update the app, then restore",
                                    code="restore_newer")
            if version not in READABLE or not {"games", "events"} <= tables:
                raise BackupRefused(not_ours.format(why="it holds no game journal"),
                                    code="restore_not_journal")
            problem = _check(conn)
            if problem:
                raise BackupRefused(f"{quote(str(source))} is damaged ({problem}); restore "
                                    "from another backup", code="restore_damaged")
            games, events = _counts(conn)
            files: dict[str, bytes] = {}
            if FILES_TABLE in tables:
                files = {str(n): bytes(c) for n, c in
                         conn.execute(f"SELECT name, content FROM {FILES_TABLE}")}
    except sqlite3.Error as exc:
        raise BackupRefused(not_ours.format(why=f"SQLite says: {one_line(str(exc), 60)}"),
                            code="restore_not_journal") from None
    return BackupSummary(source, games, events, tuple(files)), files


def restore_backup(data_dir: str | os.PathLike[str],
                   backup: str | os.PathLike[str]) -> RestoreSummary:
    """Put a backup's games and files into `data_dir`; the app must not be running."""
    summary, files = read_backup(backup)
    folder = Path(data_dir)
    folder.mkdir(parents=True, exist_ok=True)
    try:
        lock = DataLock(folder).acquire()
    except DataFolderBusy as exc:
        holder = exc.params.get("holder", "")
        raise BackupRefused(f"the app is running on {folder} ({holder}), and a restore would "
                            "pull its games from under it; stop it first (on the Pi: sudo "
                            "systemctl stop sorry-companion), restore, then start it again",
                            code="restore_busy") from None
    try:
        return _restore_locked(folder, summary, files)
    except OSError as exc:
        raise BackupRefused(f"could not restore into {folder} ({exc.strerror or exc}); "
                            "nothing was replaced unless a safety copy is named above; "
                            "check the folder's room and permissions",
                            code="restore_write") from None
    finally:
        lock.release()


def _restore_locked(folder: Path, summary: BackupSummary,
                    files: dict[str, bytes]) -> RestoreSummary:
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    journal = journal_file(folder)
    tmp = folder / f".{JOURNAL_NAME}.restoring"
    try:
        with _closing(_connect_readonly(summary.path)) as source, \
                _closing(sqlite3.connect(tmp, isolation_level=None)) as copy:
            source.backup(copy)
            copy.execute(f"DROP TABLE IF EXISTS {FILES_TABLE}")
            copy.execute("PRAGMA journal_mode=DELETE")
        sync_file(tmp)
        safety = _keep_old_journal(journal, stamp)
        os.replace(tmp, journal)
        sync_folder(folder)
    except sqlite3.Error as exc:
        raise OSError(0, one_line(str(exc), 80)) from None
    finally:
        with contextlib.suppress(OSError):
            tmp.unlink()
    config = None
    for name, content in files.items():
        if name == CONFIG_NAME:
            config = folder / RESTORED_CONFIG
            write_durably(config, content)
        elif name.endswith(".json") and "/" not in name and not name.startswith("."):
            old = folder / name
            if old.exists():
                os.replace(old, folder / f"{name}.before-restore-{stamp}")
            write_durably(old, content)
    return RestoreSummary(summary, safety, config)


def _keep_old_journal(journal: Path, stamp: str) -> Path | None:
    """The journal about to be replaced, made one file (its -wal checkpointed in) and
    linked under a safety name, so at every moment journal.sqlite3 is the old or the new."""
    if not journal.exists():
        return None
    try:
        with _closing(sqlite3.connect(journal, isolation_level=None)) as conn:
            busy = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()[0]
            mode = conn.execute("PRAGMA journal_mode=DELETE").fetchone()[0]
    except sqlite3.Error as exc:
        raise BackupRefused(f"the journal now in {journal.parent} cannot be set aside safely "
                            f"({one_line(str(exc), 60)}); start the app once (it repairs "
                            "the journal), stop it, and restore again",
                            code="restore_old_damaged") from None
    if busy or str(mode).lower() != "delete":
        raise BackupRefused(f"the journal in {journal.parent} is still in use by another "
                            "program; close it and restore again", code="restore_busy")
    safety = journal.with_name(f"{JOURNAL_NAME}.before-restore-{stamp}")
    try:
        os.link(journal, safety)
    except OSError:  # a file system without hard links: a copy, synced
        write_durably(safety, journal.read_bytes())
    sync_folder(journal.parent)
    return safety
