"""Sentences the journal leaves for the scorekeeper (a repair, a set-aside, a lost -wal),
and `notices.json`, where they wait in the data folder until someone has read them.

A Notice is the English sentence itself (a str, so logs and the CLI print it as is) plus
a `code` and its facts in `params`, so the start screen can say it in French too.

The journal writes each notice to `notices.json` and makes it durable (fsync of the file,
then of its folder) *before* it uses what it repaired: a power cut right after a repair
can then never leave a repaired journal that says nothing about what it lost. The app
shows the file's notices until OK is tapped (`dismiss`).
"""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path
from typing import Any

from companion.limits import read_bounded

NOTICES_FILE = "notices.json"
NOTICES_LIMIT = 1 << 20  # 1 MiB of sentences: far more than any journal's damage


class Notice(str):
    """One sentence with its code and facts; compares and prints as its text."""

    code: str
    params: dict[str, Any]

    def __new__(cls, text: str, code: str, **params: Any) -> Notice:
        notice = super().__new__(cls, text)
        notice.code = code
        notice.params = params
        return notice


def as_record(note: Any) -> dict[str, Any]:
    """A notice as notices.json keeps it: its text, code and plain facts."""
    params = {k: v for k, v in (getattr(note, "params", None) or {}).items()
              if isinstance(v, str | int | float)}
    return {"text": str(note), "code": getattr(note, "code", ""), "params": params}


def sync_folder(folder: Path) -> None:
    """Make a created or renamed file's directory entry durable too."""
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def read(folder: str | os.PathLike[str]) -> list[dict[str, Any]]:
    """The notices kept in `folder` and not yet dismissed (none when there is no file)."""
    path = Path(folder) / NOTICES_FILE
    try:
        old = json.loads(read_bounded(path, NOTICES_LIMIT).decode("utf-8"))
    except (OSError, ValueError, RecursionError):
        return []
    if not isinstance(old, list):
        return []
    return [r for r in old if isinstance(r, dict) and isinstance(r.get("text"), str)]


def keep(folder: str | os.PathLike[str], new: list[Any]) -> list[dict[str, Any]]:
    """Add `new` (each once) to the folder's notices and make the file durable before
    returning; OSError when it cannot be (the caller then changes nothing)."""
    records = read(folder)
    texts = {r["text"] for r in records}
    added = [as_record(n) for n in dict.fromkeys(new) if str(n) not in texts]
    if not added:
        return records
    records += added
    path = Path(folder) / NOTICES_FILE
    tmp = path.with_name(f".{NOTICES_FILE}.tmp")
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(json.dumps(records, ensure_ascii=False))
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
    sync_folder(path.parent)
    return records


def dismiss(folder: str | os.PathLike[str]) -> None:
    """The notices were read (OK on the start screen): they are not shown again."""
    with contextlib.suppress(OSError):
        (Path(folder) / NOTICES_FILE).unlink()
