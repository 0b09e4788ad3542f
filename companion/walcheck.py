"""The journal's `-wal` file, kept and counted before SQLite opens the journal.

After a crash the newest events are in `journal.sqlite3-wal`. SQLite replays that file
when it opens the journal, but only up to the first frame whose checksum is wrong: a
damaged `-wal` silently loses every event after the damage, and the first clean close
deletes the file. So before the app opens its journal, a `-wal` left behind is copied
beside it, and the events it holds are counted from its bytes (journal_pages). Once
SQLite has opened the journal, the events it recovered are compared with that count:
any shortfall is one sentence with the count, and the copy stays; otherwise the copy is
removed again.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sqlite3
from datetime import datetime
from pathlib import Path

from companion.journal_pages import file_events
from companion.notices import Notice


class WalCheck:
    """What a `-wal` left by a crash held; see the module docstring."""

    def __init__(self, journal: Path, kept: Path, held: set[tuple[int, int]]) -> None:
        self.journal = journal
        self.kept = kept
        self.held = held

    @classmethod
    def before_open(cls, journal: Path) -> WalCheck | None:
        """Copy and count a non-empty `-wal`; None when there is none (a clean close)."""
        wal = Path(f"{journal}-wal")
        try:
            if not wal.is_file() or wal.stat().st_size == 0:
                return None
            stamp = datetime.now().strftime("%Y%m%d-%H%M%S-%f")
            kept = journal.with_name(f"{journal.name}-wal.kept-{stamp}")
            shutil.copyfile(wal, kept)
            with open(kept, "rb") as f:
                os.fsync(f.fileno())
            held = set(file_events(journal))
        except OSError:
            return None  # the open that follows reports an unreadable folder itself
        return cls(journal, kept, held)

    def after_open(self, conn: sqlite3.Connection) -> Notice | None:
        """The sentence for events the `-wal` held that SQLite did not recover, if any."""
        try:
            recovered = set(conn.execute(
                "SELECT game_id, seq FROM events UNION SELECT game_id, seq FROM set_aside"))
        except sqlite3.Error:
            recovered = set()
        missing = sorted(self.held - recovered)
        if not missing:
            with contextlib.suppress(OSError):
                self.kept.unlink()
            return None
        games = sorted({g for g, _ in missing})
        first = min(s for g, s in missing if g == games[0])
        where = (f"game {games[0]} from event {first}" if len(games) == 1
                 else f"{len(games)} games")
        return Notice(
            f"{len(missing)} saved events ({where}) were in the journal's -wal file but could "
            f"not be read back because that file is damaged; they are missing from the games, "
            f"and the file was kept as {self.kept.name} beside the journal",
            "wal_lost", count=len(missing), where=where, kept=self.kept.name)
