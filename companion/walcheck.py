"""The journal's `-wal` file, kept and counted before SQLite opens the journal.

After a crash the newest events are in `journal.sqlite3-wal`. SQLite replays that file
when it opens the journal, but only up to the first frame whose checksum is wrong, and
only up to its last commit: a damaged or cut `-wal` silently loses every event after the
damage, and the first clean close deletes the file. So before the journal is opened, a
`-wal` left behind is copied beside it (the safety copy), and the events it holds are
counted from its bytes (journal_pages), in every frame, also those a cut or a power cut
left without their commit. Once SQLite has opened the journal, the events it recovered
are compared with that count: any shortfall is one sentence with the count, and the copy
stays; otherwise the copy is removed again. A game the `-wal` shows as won but SQLite
recovered without its winner keeps its winner, so a finished game is never offered to
resume.

When the safety copy cannot be made (a full disk, no inode left), nothing is opened for
writing: JournalError says so, and every file stays as it is until it can be made.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sqlite3
from datetime import datetime
from pathlib import Path

from companion.errors import JournalError
from companion.journal_pages import (
    EventRow,
    GameRow,
    file_events,
    saves_beyond,
    wal_contents,
    wal_count,
)
from companion.notices import Notice, sync_folder


class WalCheck:
    """What a `-wal` left by a crash held; see the module docstring."""

    def __init__(self, journal: Path, kept: Path | None, held: dict[tuple[int, int], EventRow],
                 games: dict[int, GameRow], cut: bool,
                 committed: set[tuple[int, int]], counted: int = 0, newest: int = 0,
                 beyond: int | None = None) -> None:
        self.journal = journal
        self.newest = newest  # the events the newest page 1 at all says were stored
        self.beyond = beyond  # saves the -shm lists after the -wal's end (journal_pages)
        self.counted = counted  # the events the newest committed page 1 says were stored
        self.committed = committed  # the events in frames a commit covers
        self.kept = kept
        self.held = held
        self.games = games
        self.cut = cut or bool(beyond)

    @classmethod
    def before_open(cls, journal: Path, *, preview: bool = False) -> WalCheck | None:
        """Copy and count a non-empty `-wal`; None when there is none (a clean close).
        `preview` (a read-only look at a private copy): counted, not copied again."""
        wal = Path(f"{journal}-wal")
        try:
            if not wal.is_file() or wal.stat().st_size == 0:
                return None
        except OSError:
            return None  # the open that follows reports an unreadable folder itself
        kept = None
        if not preview:
            stamp = datetime.now().strftime("%Y%m%d-%H%M%S-%f")
            kept = journal.with_name(f"{journal.name}-wal.kept-{stamp}")
            try:
                shutil.copyfile(wal, kept)
                with open(kept, "rb") as f:
                    os.fsync(f.fileno())
                sync_folder(journal.parent)
            except OSError as exc:
                with contextlib.suppress(OSError):
                    kept.unlink()
                raise JournalError(
                    f"the journal's -wal file (its newest events) could not be copied to "
                    f"safety before opening ({exc.strerror or exc}); nothing was opened or "
                    f"changed: free some space in {journal.parent} and start again") from exc
        try:
            held, games, cut = wal_contents(journal)
            committed = set(file_events(journal, with_db=False))
            counted = wal_count(journal)
            newest = wal_count(journal, committed_only=False)
            beyond = saves_beyond(journal)
        except OSError:
            return None
        return cls(journal, kept, held, games, cut, committed, counted, newest, beyond)

    def after_open(self, conn: sqlite3.Connection) -> Notice | None:
        """The sentence for events the `-wal` held that SQLite did not recover, if any."""
        try:
            recovered = set(conn.execute(
                "SELECT game_id, seq FROM events UNION SELECT game_id, seq FROM set_aside"))
        except sqlite3.Error:
            recovered = set()
        missing = self._distinct(conn, sorted(set(self.held) - recovered))
        if self.cut:
            return self._cut_short(conn, missing)
        unseen = self._unseen(conn, len(missing))
        if not missing and not unseen:
            if self.kept is not None:
                with contextlib.suppress(OSError):
                    self.kept.unlink()
            return None
        won = self._keep_winners(conn, {g for g, _ in missing})
        winners = "".join(f"; game {g} was won by {w} and stays finished" for g, w in won)
        games = sorted({g for g, _ in missing})
        if not games:
            where = "the newest games"
        elif len(games) == 1:
            where = f"game {games[0]} from event {min(s for _, s in missing)}"
        else:
            where = f"{len(games)} games"
        kept = (f"the file was kept as {self.kept.name} beside the journal"
                if self.kept is not None else "the app keeps a copy of that file when it opens")
        facts = {"count": len(missing) + unseen, "where": where,
                 "kept": self.kept.name if self.kept is not None else ""}
        if not unseen and not set(missing) & self.committed:
            return Notice(
                f"the app stopped while it was saving: the last {len(missing)} events tapped "
                f"({where}) were not saved{winners}; the game goes on from the last saved "
                f"event, so tap again what came after it ({kept})", "in_flight", **facts)
        return Notice(
            f"{len(missing) + unseen} saved events ({where}) were in the journal's -wal file "
            f"but could not be read back because that file is damaged; they are missing from "
            f"the games{winners}, and {kept}", "wal_lost", **facts)

    def _distinct(self, conn: sqlite3.Connection,
                  missing: list[tuple[int, int]]) -> list[tuple[int, int]]:
        """Each missing event once: a row whose game or number a damaged frame changed is
        the event its checksum chain (journal_chain) says, recovered or counted already."""
        try:
            seen = {c for (c,) in conn.execute(
                "SELECT chain FROM events WHERE chain IS NOT NULL")}
        except sqlite3.Error:
            seen = set()
        distinct = []
        for key in missing:
            chain = self.held[key][5]
            if chain is None or chain not in seen:
                distinct.append(key)
                if chain is not None:
                    seen.add(chain)
        return distinct

    def _unseen(self, conn: sqlite3.Connection, found_missing: int) -> int:
        """Saved events the -wal's newest page 1 counts that no frame still shows (their
        only copy was in a damaged frame): counted, never silently dropped."""
        if self.counted <= 0:
            return 0
        try:
            held = conn.execute("SELECT (SELECT COUNT(*) FROM events) + "
                                "(SELECT COUNT(*) FROM set_aside)").fetchone()[0]
        except sqlite3.Error:
            return 0
        return max(0, self.counted - 1 - int(held) - found_missing)

    def _cut_short(self, conn: sqlite3.Connection, missing: list[tuple[int, int]]) -> Notice:
        """A -wal that ends in the middle of a frame: written up to there and no further
        (a power cut while saving, or a file cut short by a damaged card). What came after
        its end cannot be counted; the sentence says where each game goes on."""
        won = self._keep_winners(conn, {g for g, _ in missing})
        try:
            last = conn.execute("SELECT game_id, MAX(seq) FROM events GROUP BY game_id "
                                "ORDER BY game_id DESC LIMIT 1").fetchone()
            held = conn.execute("SELECT (SELECT COUNT(*) FROM events) + "
                                "(SELECT COUNT(*) FROM set_aside)").fetchone()[0]
        except sqlite3.Error:
            last, held = None, None
        where = (f"game {last[0]} goes on after its event {last[1]}" if last
                 else "no game could be read")
        # the rows it holds that SQLite did not read back, those of its last save whose
        # page 1 it still holds (its count), and each save the -shm lists after its end
        torn = max(0, self.newest - 1 - int(held) - len(missing)) if held is not None else 0
        count = len(missing) + torn + (self.beyond or 0)
        touched = sorted({g for g, _ in missing} | ({int(last[0])} if last and count else set()))
        games = ", ".join(str(g) for g in touched)
        named = f"game {games}" if len(touched) == 1 else f"games {games}"
        if not count:
            counted = "any event saved after its end is missing"
        elif self.beyond is None:  # no index of the -wal left: what lay after it is unknown
            counted = (f"{count} saved events are missing ({named}), and any other event "
                       "saved after its end too")
        else:  # each save the index lists after its end stored one event at least
            least = "at least " if self.beyond else ""
            counted = f"{least}{count} saved events are missing ({named})"
        winners = "".join(f"; game {g} was won by {w} and stays finished" for g, w in won)
        kept = (f"the file was kept as {self.kept.name} beside the journal"
                if self.kept is not None else "the app keeps a copy of that file when it opens")
        return Notice(
            f"the journal's -wal file ends in the middle of a save (a power cut while saving, "
            f"or a file cut short): {counted}; {where}, so tap again what came after it"
            f"{winners}; {kept}", "wal_cut", count=count, where=where, games=games or "-",
            kept=self.kept.name if self.kept is not None else "")

    def _keep_winners(self, conn: sqlite3.Connection, lossy: set[int]) -> list[tuple[int, str]]:
        """Games the -wal shows won whose winner SQLite did not recover: it is kept."""
        won = []
        for game_id in sorted(lossy):
            row = self.games.get(game_id)
            if row is None or row[3] is None:
                continue
            with contextlib.suppress(sqlite3.Error):
                cur = conn.execute("UPDATE games SET winner = ?, finished = ? WHERE id = ? AND "
                                   "winner IS NULL", (row[3], row[1], game_id))
                if cur.rowcount:
                    won.append((game_id, row[3]))
        return won
