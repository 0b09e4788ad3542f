"""Restoring a backup into the data folder: all or nothing, the current journal kept.

The restored journal is one the app itself creates (companion.journal: its schema, its
format, its count of stored events), filled only with the rows backup_reader read and
checked, built beside the journal as `.journal.sqlite3.restoring` and synced. Each small
file is written beside its place, and each file a restore replaces is linked under a
safety name (`<name>.before-restore-<time>`), before anything changes. Then the change is
a few renames in one folder (file_swap): the current journal's -wal, -shm and -journal
move to the safety copy's names (so the old -wal can never be applied to the new journal
and the safety copy is the whole old journal, byte for byte, as SQLite opens it), the new
journal takes its name, the small files theirs. A failure before the renames removes what
was built and leaves every file as it was; a failure during them moves back what was
moved. Either way the sentence says which. SQLite never opens the current journal here:
a damaged -wal is kept exactly as it is, for the app's repair or a person to look at.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sqlite3
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from companion.backup import CONFIG_NAME, RESTORED_CONFIG, BackupRefused, BackupSummary
from companion.backup_reader import BackupReader, EventRow, open_backup
from companion.datalock import DataLock
from companion.durable import sync_file, sync_folder
from companion.errors import DataFolderBusy
from companion.file_swap import Swap, SwapFailed
from companion.games import DEFAULT
from companion.journal import Journal
from companion.journal_copy import open_elsewhere
from companion.paths import JOURNAL_NAME, journal_file
from companion.safe_text import one_line

__all__ = ["RestoreSummary", "read_backup", "restore_backup"]

KEPT_SIDES = ("-wal", "-shm", "-journal")  # what SQLite keeps beside a journal
BUILT = f".{JOURNAL_NAME}.restoring"  # the new journal, beside the current one


@dataclass(frozen=True, slots=True)
class RestoreSummary:
    backup: BackupSummary
    kept: tuple[Path, ...]  # the journal replaced and its -wal, -shm: the names really kept
    replaced: tuple[Path, ...]  # the small files replaced, kept under these names
    config: Path | None  # the configuration found in the backup, written here
    left_out: tuple[str, ...]  # what the backup held that is not the app's ("1 trigger")


def restore_backup(data_dir: str | os.PathLike[str],
                   backup: str | os.PathLike[str]) -> RestoreSummary:
    """Put a backup's games and files into `data_dir`; the app must not be running."""
    folder = Path(data_dir)
    try:
        with open_backup(backup) as reader:
            files = reader.files()
            try:
                folder.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise _write_refused(folder, exc) from None
            lock = _lock(folder)
            try:
                return _restore_locked(folder, reader, files)
            finally:
                lock.release()
    except BackupRefused as exc:
        if exc.code == "restore_half":
            raise
        raise BackupRefused(f"{exc}; nothing in {folder} was changed", code=exc.code,
                            **exc.params) from None


def read_backup(backup: str | os.PathLike[str]) -> tuple[BackupSummary, dict[str, bytes]]:
    """Check a backup through and through (its format, every row, every file) as a restore
    would, without restoring it: its summary and its small files."""
    with open_backup(backup) as reader:
        files = reader.files()
        games = {row[0] for row in reader.games()}
        events = sum(row[1] > 0 for row, _ in reader.events(games))
        for _ in reader.set_aside():
            pass
        return BackupSummary(reader.path, len(games), events, tuple(files)), files


def _lock(folder: Path) -> DataLock:
    try:
        return DataLock(folder).acquire()
    except DataFolderBusy as exc:
        holder = exc.params.get("holder", "")
        raise BackupRefused(f"the app is running on {folder} ({holder}), and a restore would "
                            "pull its games from under it; stop it first (on the Pi: sudo "
                            "systemctl stop sorry-companion), restore, then start it again",
                            code="restore_busy") from None
    except OSError as exc:
        raise _write_refused(folder, exc) from None


def _write_refused(folder: Path, exc: OSError | sqlite3.Error) -> BackupRefused:
    if isinstance(exc, sqlite3.Error):
        full = getattr(exc, "sqlite_errorname", "") == "SQLITE_FULL"
        why = "No space left on device" if full else one_line(str(exc), 80)
    else:
        why = one_line(str(exc.strerror or exc), 80)
    return BackupRefused(f"could not restore into {folder} ({why}); check the folder's room "
                         "and permissions", code="restore_write", why=why)


def _restore_locked(folder: Path, reader: BackupReader,
                    files: dict[str, bytes]) -> RestoreSummary:
    journal = journal_file(folder)
    if open_elsewhere(Path(f"{journal}-shm")):
        raise BackupRefused(f"the journal in {folder} is open in another program; close it "
                            "and restore again", code="restore_busy")
    made: list[Path] = []  # everything this restore wrote, removed again if it fails
    try:
        try:
            games, events = _build(folder / BUILT, reader)
            made.append(folder / BUILT)
            swap, kept, replaced, config = _prepare(folder, files, made)
            sync_folder(folder)
        except (OSError, sqlite3.Error) as exc:
            raise _write_refused(folder, exc) from None
        try:
            swap.run()
        except SwapFailed as exc:
            if not exc.undone:
                made.clear()  # what was made is where the sentence says: left alone
                raise BackupRefused(
                    f"restoring into {folder} failed half way ({exc.strerror}) and could not "
                    f"be undone: {'; '.join(exc.where)}; copy the data folder somewhere "
                    "safe before starting the app", code="restore_half",
                    why=str(exc.strerror)) from None
            raise _write_refused(folder, exc) from None
        made.clear()
        sync_folder(folder)
    finally:
        for path in made:
            with contextlib.suppress(OSError):
                path.unlink()
    summary = BackupSummary(reader.path, games, events, tuple(files))
    return RestoreSummary(summary, kept, replaced, config, reader.left_out)


def _prepare(folder: Path, files: dict[str, bytes], made: list[Path]
             ) -> tuple[Swap, tuple[Path, ...], tuple[Path, ...], Path | None]:
    """Everything written and linked beside its place, and the renames that finish the
    restore; nothing the folder held is changed yet."""
    journal = journal_file(folder)
    stamp = _free_stamp(folder)
    swap = Swap()
    kept: list[Path] = []
    if journal.exists():
        safety = journal.with_name(f"{JOURNAL_NAME}.before-restore-{stamp}")
        _link_or_copy(journal, safety)
        made.append(safety)
        kept.append(safety)
        for side in KEPT_SIDES:
            beside = Path(f"{journal}{side}")
            if beside.exists():
                swap.aside(beside, Path(f"{safety}{side}"))
                kept.append(Path(f"{safety}{side}"))
    swap.into_place(folder / BUILT, journal, kept[0] if kept else None)
    replaced: list[Path] = []
    config = None
    for name, content in sorted(files.items()):
        target = folder / (RESTORED_CONFIG if name == CONFIG_NAME else name)
        config = target if name == CONFIG_NAME else config
        new = folder / f".{target.name}.restoring"
        _write_synced(new, content)
        made.append(new)
        old: Path | None = None
        if target.exists():
            old = target.with_name(f"{target.name}.before-restore-{stamp}")
            _link_or_copy(target, old)
            made.append(old)
            replaced.append(old)
        swap.into_place(new, target, old)
    return swap, tuple(kept), tuple(replaced), config


def _free_stamp(folder: Path) -> str:
    """A time stamp no safety name in `folder` has yet (two restores in one second)."""
    base = datetime.now().strftime("%Y%m%d-%H%M%S")
    stamp, n = base, 1
    while any(folder.glob(f"*.before-restore-{stamp}*")):
        n += 1
        stamp = f"{base}-{n}"
    return stamp


def _link_or_copy(path: Path, safety: Path) -> None:
    """`safety` holding `path`'s bytes: a hard link (the same file, instantly), or on a
    file system without them a synced copy."""
    try:
        os.link(path, safety)
    except FileExistsError:
        raise
    except OSError:
        shutil.copyfile(path, safety)
        sync_file(safety)


def _write_synced(path: Path, content: bytes) -> None:
    with open(path, "wb") as out:
        out.write(content)
        out.flush()
        os.fsync(out.fileno())


def _build(new: Path, reader: BackupReader) -> tuple[int, int]:
    """The restored journal at `new`: made by the app's Journal, filled with the backup's
    checked rows in one transaction, one file (no -wal) and synced; (games, events)."""
    _remove_with_sides(new)
    try:
        Journal(new).close()  # the app's own schema, format and count, empty
        conn = sqlite3.connect(new, isolation_level=None)
        try:
            conn.execute("PRAGMA synchronous=FULL")
            conn.execute("BEGIN IMMEDIATE")
            counts = _fill(conn, reader)
            conn.execute("COMMIT")
            conn.execute("PRAGMA journal_mode=DELETE")  # one file, nothing beside it
        finally:
            conn.close()
        sync_file(new)
    except sqlite3.IntegrityError as exc:  # two games with one number: the backup's damage
        _remove_with_sides(new)
        raise reader.damaged(f"SQLite says: {one_line(str(exc), 60)}") from None
    except BaseException:
        _remove_with_sides(new)
        raise
    return counts


def _fill(conn: sqlite3.Connection, reader: BackupReader) -> tuple[int, int]:
    games: set[int] = set()

    def game_rows() -> Iterator[tuple[Any, ...]]:
        for row in reader.games():
            games.add(row[0])
            yield (*row[:6], row[6] or DEFAULT)

    conn.executemany("INSERT INTO games (id, started, finished, players, winner, abandoned, "
                     "game) VALUES (?, ?, ?, ?, ?, ?, ?)", game_rows())
    named: list[tuple[str, int]] = []
    events = 0

    def event_rows() -> Iterator[EventRow]:
        nonlocal events
        for row, game in reader.events(games):
            events += row[1] > 0
            if game is not None and reader.version < 2 and game != DEFAULT:
                named.append((game, row[0]))
            yield row

    conn.executemany("INSERT INTO events (game_id, seq, at, json, crc, chain) VALUES "
                     "(?, ?, ?, ?, ?, ?)", event_rows())
    conn.executemany("UPDATE games SET game = ? WHERE id = ?", named)
    conn.executemany("INSERT INTO set_aside (game_id, seq, at, json, crc, reason, moved) "
                     "VALUES (?, ?, ?, ?, ?, ?, ?)", reader.set_aside())
    held = conn.execute("SELECT (SELECT COUNT(*) FROM events) + "
                        "(SELECT COUNT(*) FROM set_aside)").fetchone()[0]
    conn.execute(f"PRAGMA application_id={int(held) + 1}")  # journal.count_added's count
    return len(games), events


def _remove_with_sides(path: Path) -> None:
    for name in _with_sides(path):
        with contextlib.suppress(FileNotFoundError):
            name.unlink()


def _with_sides(path: Path) -> Iterable[Path]:
    return (path, *(Path(f"{path}{side}") for side in KEPT_SIDES))
