"""A private copy of the journal for a read-only look (history, export, stats, replay).

The look runs the app's own checks on a copy, so it counts every loss as the app will.
While the app appends, a plain copy of the file and its `-wal` is not one journal: the
`-wal` can be copied in the middle of a save (its newest frames written, their commit not
yet), which the checks rightly call a cut `-wal`. So the copy is made inside a read
transaction of our own (the app cannot restart its `-wal` under it), and when another
connection has the journal open, the copy's `-wal` ends at its last complete commit: what
came after it is a save still in flight, the running app's to finish, not a loss. With
nobody else on the journal (after a crash), the `-wal` is copied as it is, so the look
says what the app will say when it next starts.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sqlite3
import tempfile
from collections.abc import Iterator
from pathlib import Path

from companion.journal_pages import committed_length

__all__ = ["open_elsewhere", "private_copy"]

DMS_BYTE = 128  # SQLite's "dead man switch": every connection on a WAL journal locks it shared


def private_copy(origin: Path, busy_timeout_s: float) -> tuple[Path, Path]:
    """(folder, copy of `origin`) in a new private folder; OSError when it cannot be read."""
    with open(origin, "rb"):
        pass  # unreadable or missing: the caller says so with the real file's name
    folder = Path(tempfile.mkdtemp(prefix="sorry-journal-"))
    copy = folder / origin.name
    try:
        live = open_elsewhere(Path(f"{origin}-shm"))
        with _read_snapshot(origin, busy_timeout_s):
            shutil.copyfile(origin, copy)
            wal = Path(f"{origin}-wal")
            if wal.exists():
                shutil.copyfile(wal, f"{copy}-wal")
                if live:
                    _end_at_last_commit(Path(f"{copy}-wal"))
                elif Path(f"{origin}-shm").exists():  # its index, as a crash left it
                    shutil.copyfile(f"{origin}-shm", f"{copy}-shm")
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    return folder, copy


@contextlib.contextmanager
def _read_snapshot(origin: Path, busy_timeout_s: float) -> Iterator[None]:
    """A read transaction on the real journal while the block runs, when SQLite can open
    one without changing anything (a -wal reader's mark holds off the -wal's restart)."""
    conn = None
    with contextlib.suppress(sqlite3.Error):
        conn = sqlite3.connect(f"{origin.resolve().as_uri()}?mode=ro", uri=True,
                               timeout=busy_timeout_s, isolation_level=None)
        conn.execute("BEGIN")
        conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
    try:
        yield
    finally:
        if conn is not None:
            conn.close()


def open_elsewhere(shm: Path) -> bool:
    """Whether another connection (the app, in this process or another) has the journal
    open: it holds a lock on the `-shm` file's DMS byte. Read from /proc/locks, which
    changes nothing (opening and closing the `-shm` here would drop this process's own
    POSIX locks on it, the app's when it runs in this process); False where there is none."""
    try:
        info = shm.stat()
        with open("/proc/locks", encoding="ascii", errors="replace") as f:
            table = f.read()
    except OSError:
        return False
    me = f"{os.major(info.st_dev):02x}:{os.minor(info.st_dev):02x}:{info.st_ino}"
    for line in table.splitlines():
        fields = line.split()
        if "->" in fields or len(fields) < 8 or fields[5] != me:
            continue  # a waiter ("->"), or another file
        start, end = fields[6], fields[7]
        with contextlib.suppress(ValueError):
            if int(start) <= DMS_BYTE and (end == "EOF" or int(end) >= DMS_BYTE):
                return True
    return False


def _end_at_last_commit(wal: Path) -> None:
    """Cut a copied `-wal` of a running app after its last complete, valid commit."""
    data = wal.read_bytes()
    end = committed_length(data)
    if end < len(data):
        with open(wal, "r+b") as f:
            f.truncate(end)
