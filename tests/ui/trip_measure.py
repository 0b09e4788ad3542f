"""How far one tap travels: the project frames on the stack when it reaches the session,
and the state turned into JSON per event (the issue's "one trip per event")."""

from __future__ import annotations

import sys
from collections.abc import Callable
from itertools import pairwise
from pathlib import Path
from typing import Any

ROOT = str(Path(__file__).resolve().parents[2]) + "/"


def _ours(path: str) -> bool:
    return path.startswith(ROOT) and "/tests/" not in path and "/.venv/" not in path


class Trip:
    """What one action did: the stack from the widget to Session.submit (`path`, as
    file:function, outermost first), and how many times each watched function ran."""

    def __init__(self, watch: tuple[str, ...] = ("state_json",)) -> None:
        self.path: list[str] = []
        self.counts = dict.fromkeys(watch, 0)
        self.files: set[str] = set()

    def _profile(self, frame: Any, event: str, _arg: Any) -> None:
        if event != "call":
            return
        code = frame.f_code
        if not _ours(code.co_filename):
            return
        self.files.add(code.co_filename[len(ROOT):])
        if code.co_name in self.counts:
            self.counts[code.co_name] += 1
        if code.co_name == "submit" and code.co_filename.endswith("companion/session.py") \
                and not self.path:
            chain = []
            f = frame.f_back
            while f is not None:
                if _ours(f.f_code.co_filename):
                    chain.append(f"{f.f_code.co_filename[len(ROOT):]}:{f.f_code.co_name}")
                f = f.f_back
            self.path = chain[::-1]

    def run(self, action: Callable[[], object]) -> Trip:
        sys.setprofile(self._profile)
        try:
            action()
        finally:
            sys.setprofile(None)
        return self

    @property
    def path_files(self) -> list[str]:
        return sorted({p.split(":")[0] for p in self.path})

    @property
    def crossings(self) -> int:
        """How many times the path changes file (table.py -> app.py -> table.py: 2)."""
        files = [p.split(":")[0] for p in self.path]
        return sum(1 for a, b in pairwise(files) if a != b)
