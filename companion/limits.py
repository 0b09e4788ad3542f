"""Bounded reads of files from outside: regular files only, never more than a limit.

A config that is a FIFO would block the app for ever, /dev/zero would fill the memory,
and a 2 GB "transcript" has nothing to do with a card game. `read_bounded` refuses each
of them with an OSError-like `InputRefused` whose message is one sentence.
"""

from __future__ import annotations

import os
import stat
import sys
from typing import BinaryIO

from companion.safe_text import quote

CONFIG_LIMIT = 1 << 20  # 1 MiB: a config file is a few hundred bytes
PREFS_LIMIT = 1 << 20  # settings.json, choices.json
TRANSCRIPT_LIMIT = 64 << 20  # 64 MiB: years of games


class InputRefused(OSError):
    """A file was not read: not a regular file, or too big. `str()` is the sentence."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.strerror = message

    def __str__(self) -> str:
        return str(self.strerror)


def _size_text(limit: int) -> str:
    return f"{limit // (1 << 20)} MiB" if limit >= 1 << 20 else f"{limit} bytes"


def read_stream(stream: BinaryIO, limit: int, what: str) -> bytes:
    """At most `limit` bytes of an open stream; more is refused, not truncated."""
    data = stream.read(limit + 1)
    if data is None:
        data = b""
    if len(data) > limit:
        raise InputRefused(f"{what} is larger than {_size_text(limit)}; "
                           "this cannot be the file you meant")
    return bytes(data)


def read_bounded(path: str | os.PathLike[str], limit: int, what: str = "") -> bytes:
    """The whole content of a regular file of at most `limit` bytes.

    The file is opened without blocking (a FIFO cannot hang us), checked with fstat on
    the open descriptor (no race with a rename), then read.
    """
    what = quote(what or os.fspath(path))  # a name from outside: escaped, at most 80
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise IsADirectoryError(21, "Is a directory", os.fspath(path))
        if stat.S_ISCHR(info.st_mode) and os.path.realpath(path) == os.devnull:
            return b""  # the usual way to say "an empty file"
        if not stat.S_ISREG(info.st_mode):
            raise InputRefused(f"{what} is not a regular file (a device, pipe or socket); "
                               "give the path of an ordinary file")
        if info.st_size > limit:
            raise InputRefused(f"{what} is larger than {_size_text(limit)}; "
                               "this cannot be the file you meant")
        os.set_blocking(fd, True)
        with os.fdopen(fd, "rb", closefd=True) as f:
            fd = -1
            return read_stream(f, limit, what)  # it may have grown since fstat
    finally:
        if fd >= 0:
            os.close(fd)


def read_stdin(limit: int) -> bytes:
    """Standard input, bounded; a closed stdin (None, or a closed descriptor) reads as
    an error sentence rather than an AttributeError."""
    stream = sys.stdin
    if stream is None or getattr(stream, "buffer", None) is None:
        raise InputRefused("standard input is closed; give a file name instead of -")
    try:
        return read_stream(stream.buffer, limit, "standard input")
    except ValueError as exc:  # I/O operation on closed file
        raise InputRefused("standard input is closed; give a file name instead of -") from exc
