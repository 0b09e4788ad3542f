"""One app per data folder: an exclusive lock, and who holds it.

Two apps on one journal would both resume the same game and interleave their events
until the game no longer replays. The app takes `app.lock` in its data folder with
flock(2) before it opens the journal; a second app finds it held, reads who holds it
(pid, since when, which host) from the file, and stops with one sentence. The kernel
drops the lock when the holder dies, however it dies (SIGKILL, power cut), so a stale
file never keeps the app from starting. The CLI's read-only commands (history, stats,
export) take no lock: they read while the app runs.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import socket
from datetime import datetime
from pathlib import Path

from companion.errors import DataFolderBusy
from companion.safe_text import one_line

__all__ = ["LOCK_NAME", "DataFolderBusy", "DataLock"]

LOCK_NAME = "app.lock"


class DataLock:
    """The data folder's lock, held from `acquire` until `release` or the process ends."""

    def __init__(self, folder: str | os.PathLike[str]) -> None:
        self.folder = Path(folder)
        self.path = self.folder / LOCK_NAME
        self._fd: int | None = None

    def acquire(self) -> DataLock:
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _holder(fd)
            os.close(fd)
            raise DataFolderBusy(
                f"the data folder {self.folder} is already in use by another Sorry! companion "
                f"({holder}); close that one first, or start this one with another folder "
                "(--data)", code="data_busy", holder=holder) from None
        except OSError:
            os.close(fd)
            raise
        stamp = datetime.now().astimezone().isoformat(timespec="seconds")
        note = f"pid {os.getpid()} on {socket.gethostname()}, since {stamp}\n"
        with contextlib.suppress(OSError):  # the lock holds even if the note cannot be written
            os.ftruncate(fd, 0)
            os.pwrite(fd, note.encode(), 0)
        self._fd = fd
        return self

    def release(self) -> None:
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.ftruncate(self._fd, 0)
            os.close(self._fd)  # closing the descriptor releases the flock
            self._fd = None

    def __enter__(self) -> DataLock:
        return self.acquire()

    def __exit__(self, *exc: object) -> None:
        self.release()


def _holder(fd: int) -> str:
    try:
        text = os.pread(fd, 200, 0).decode("utf-8", "replace").strip()
    except OSError:
        text = ""
    return one_line(text, 120) if text else "a process that did not say who it is"
