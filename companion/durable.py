"""Writes that survive a power cut: the file's data, then its folder's entry.

A file renamed into place is only there after a power cut once both the file and the
folder holding its name are synced (NOTES.md: a new file exists only after its folder is
fsynced). The backup, the restore and the USB copy all write this way.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

__all__ = ["sync_file", "sync_folder", "write_durably"]


def sync_file(path: str | os.PathLike[str]) -> None:
    """Flush one file's data to the disk (OSError when the disk refuses)."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def sync_folder(folder: str | os.PathLike[str]) -> None:
    """Make the names created or renamed in `folder` durable. Some file systems (FAT on a
    USB stick) cannot sync a folder: there the file's own sync is all there is."""
    with contextlib.suppress(OSError):
        sync_file(folder)


def write_durably(path: Path, data: bytes) -> None:
    """`data` as the whole of `path`: written beside it, synced, renamed, folder synced,
    so a cut leaves the old file or the new one, never half of one."""
    tmp = path.with_name(f".{path.name}.partial")
    try:
        with open(tmp, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)
    except OSError:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    sync_folder(path.parent)
