"""Reading a file the family hands the camera (a frame, a photo, a model): only a regular
file, and never more of it than such a file can hold (standard library only).

`open()` on a FIFO waits for a writer forever, and on /dev/zero reads forever: the file is
opened with O_NONBLOCK (which a regular file ignores) and its kind and size are read from
the open descriptor before one byte is, so neither can hang or flood the command. Every
name in a sentence goes through companion.safe_text.quote, as on the rest of the command
line.

>>> import tempfile, os
>>> with tempfile.TemporaryDirectory() as folder:
...     os.mkfifo(os.path.join(folder, "x.png"))
...     read_regular(os.path.join(folder, "x.png"), 100, "a frame")
Traceback (most recent call last):
...
camera.files.UnusableFile: '...x.png' is a FIFO, not a regular file; a frame must be a regular file
"""

from __future__ import annotations

import os
import stat

from companion.safe_text import quote_path

KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a device"),
         (stat.S_ISBLK, "a device"), (stat.S_ISSOCK, "a socket"))


class UnusableFile(ValueError):
    """A file the camera cannot use, in one sentence naming it and what to do."""


class NoSuchFile(UnusableFile):
    """There is no file by that name."""


def read_regular(path: str | os.PathLike[str], limit: int, what: str) -> bytes:
    """The bytes of the regular file `path`, at most `limit` of them; UnusableFile for a
    folder, FIFO, device or socket, a larger file, or one that cannot be opened or read.
    `what` names the file in the sentence, with its article ("a frame", "a camera model").
    The path is quoted only for a sentence (at every frame it was 0.2 ms of `camera watch`)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        raise NoSuchFile(f"there is no file {quoted(path)}") from None
    except OSError as exc:
        raise UnusableFile(f"{quoted(path)} cannot be opened ({exc.strerror or exc})") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            kind = next((k for test, k in KINDS if test(info.st_mode)), "something else")
            raise UnusableFile(f"{quoted(path)} is {kind}, not a regular file; {what} must be a "
                               "regular file")
        if info.st_size > limit:
            raise UnusableFile(_too_big(path, what, limit))
        chunks, left = [], limit + 1  # a file that grows while it is read is still cut
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        if left <= 0:
            raise UnusableFile(_too_big(path, what, limit))
        return b"".join(chunks)
    except OSError as exc:
        raise UnusableFile(f"{quoted(path)} cannot be read ({exc.strerror or exc})") from None
    finally:
        os.close(fd)


def quoted(path: str | os.PathLike[str]) -> str:
    """The path as a sentence names it; made only for a sentence."""
    return quote_path(os.fspath(path))


def _too_big(path: str | os.PathLike[str], what: str, limit: int) -> str:
    return (f"{quoted(path)} is larger than {what} can be ({limit / 1e6:.1f} MB at most); "
            "check that it is the right file")
