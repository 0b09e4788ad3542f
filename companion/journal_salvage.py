"""Rebuilding a damaged journal from every row that can still be read.

SQLite reads a table through its b-tree, which one damaged page can cut short; the rows
are read past it here (and from the leaf pages themselves, journal_pages), each game's
events are put back in place from its setup by their checksum chain (journal_chain),
the other tables' readable rows are copied too, and what no copy holds is counted
exactly against the header's count of stored events. The journal's `_salvage` does the
files (the copy, the rename, the sentence); this module does the rows.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import zlib
from typing import Any

from companion import journal_chain
from companion.games import DEFAULT, game_of
from companion.journal_pages import EventRow

__all__ = ["read_row", "rebuild", "row_fault", "stored_game"]


def rebuild(old: sqlite3.Connection, new: sqlite3.Connection,
            leaf_rows: dict[tuple[int, int], EventRow], now: str,
            skip: set[str], touched: set[int] | None = None) -> tuple[int, int, int, int]:
    """Copy what `old` still holds into `new` (its tables made): the games kept, the
    events kept, the rows set aside and the events lost; `skip`: the journal's own tables,
    which are copied row by row, not as they are; `touched` gets the games that lost
    events or had rows set aside."""
    counts = _copy_readable(old, new, leaf_rows, now, set() if touched is None else touched)
    _copy_other_tables(old, new, skip)
    return _with_uncounted(old, counts)


def read_row(seq: int, expected: int, raw: bytes | None, crc: int | None,
             chain: int | None = None,
             before: int | None = None) -> tuple[dict[str, Any] | None, str | None]:
    """The stored event, parsed once, or why this row cannot be used (with `before`, the
    chain of the event before it, the row must follow that event: journal_chain)."""
    fault = row_fault(seq, expected, raw, crc, chain, before)
    if fault is not None or raw is None:
        return None, fault
    try:
        obj = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return None, "it is not valid JSON"
    if not isinstance(obj, dict):
        return None, "it is not a JSON object"
    return obj, None


def row_fault(seq: int, expected: int, raw: bytes | None, crc: int | None,
              chain: int | None = None, before: int | None = None) -> str | None:
    """Why a stored row is not event `expected` of its game (its number, its checksum, its
    place in the checksum chain), or None; its JSON is not read (read_row does)."""
    if seq != expected:
        return f"event {expected} is missing"
    if raw is None or crc is None or zlib.crc32(raw) != crc:
        return "its checksum does not match"
    if chain is not None and before is not None and journal_chain.link(before, raw) != chain:
        return "it does not follow the event before it (its checksum chain breaks)"
    return None


def stored_game(raw: object) -> str:
    """The game a stored setup's text belongs to; unreadable: the default game."""
    if not isinstance(raw, bytes | str):
        return DEFAULT
    try:
        return game_of(json.loads(raw))
    except ValueError:  # a damaged setup (UnicodeDecodeError is a ValueError)
        return DEFAULT


def _readable(conn: sqlite3.Connection, sql: str) -> list[tuple[Any, ...]]:
    """Rows of `sql` (which selects rowid first, `WHERE rowid > ?`) that can be read.

    A scan stops at the first damaged page; the next readable rows are found by seeking
    further and further past it, so one bad page does not hide the rest of the table.
    Each rowid is read once: a damaged page that sends the scan back to rows already read
    counts as damage, not as more rows.
    """
    rows: list[tuple[Any, ...]] = []
    after = -(2**63)
    for _ in range(64):  # a bound on the damaged stretches skipped
        try:
            for row in conn.execute(sql, (after,)):
                if not isinstance(row[0], int) or row[0] <= after:
                    raise sqlite3.DatabaseError("the scan went back to rows already read")
                rows.append(row)
                after = row[0]
            return rows
        except sqlite3.DatabaseError:
            pass
        for step in (2**k for k in range(40)):
            try:
                nxt = conn.execute(sql.replace("ORDER BY rowid", "ORDER BY rowid LIMIT 1"),
                                   (after + step,)).fetchone()
            except sqlite3.DatabaseError:
                continue
            if nxt is None:
                return rows
            after = nxt[0] - 1
            break
        else:
            return rows
    return rows


def _index_seqs(conn: sqlite3.Connection) -> dict[int, int]:
    """Each game's highest event number by the (game_id, seq) index, a b-tree of its own:
    what the table held even where the table's own pages are lost."""
    top: dict[int, int] = {}
    with contextlib.suppress(sqlite3.DatabaseError):
        for gid, seq in conn.execute("SELECT game_id, seq FROM events "
                                     "INDEXED BY sqlite_autoindex_events_1"):
            if isinstance(gid, int) and isinstance(seq, int) and 0 <= seq < 2**31:
                top[gid] = max(seq, top.get(gid, -1))
    return top


def _with_uncounted(src: sqlite3.Connection,
                    counts: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
    """The salvage's counts, its lost events exactly what the header's count says was
    stored less what was kept or set aside (each an event of its own: journal_chain), so
    rows a cut or a lost page took without a trace are counted too. A journal that never
    kept the count keeps the estimate from the highest event numbers found."""
    games, events, set_aside, lost = counts
    try:
        stored = int(src.execute("PRAGMA application_id").fetchone()[0])
    except sqlite3.DatabaseError:
        return counts
    if stored > 0:
        lost = max(0, stored - 1 - events - set_aside)
    return games, events, set_aside, lost


def _copy_other_tables(old: sqlite3.Connection, new: sqlite3.Connection,
                       skip: set[str]) -> None:
    """Every table of the damaged journal beyond the journal's own (the snapshots), with
    the rows that can still be read: a repair keeps every table (a snapshot is checked
    against the events before it is used, so a damaged one costs nothing but time)."""
    try:
        tables = old.execute("SELECT name, sql FROM sqlite_master WHERE type = 'table' "
                             "AND name NOT LIKE 'sqlite_%'").fetchall()
    except sqlite3.DatabaseError:
        tables = []
    for name, sql in tables:
        if name in skip or not isinstance(sql, str):
            continue
        try:
            new.execute(sql)
            rows = _readable(old, f'SELECT rowid, * FROM "{name}" WHERE rowid > ? ORDER BY rowid')
            if not rows:
                continue
            marks = ", ".join("?" * (len(rows[0]) - 1))
            new.execute("BEGIN")
            new.executemany(f'INSERT OR IGNORE INTO "{name}" VALUES ({marks})',
                            [r[1:] for r in rows])
            new.execute("COMMIT")
        except sqlite3.DatabaseError:
            with contextlib.suppress(sqlite3.Error):
                new.execute("ROLLBACK")


def _copy_readable(old: sqlite3.Connection, new: sqlite3.Connection,
                   leaf_rows: dict[tuple[int, int], EventRow],
                   now: str, touched: set[int]) -> tuple[int, int, int, int]:
    """Copy every usable game and each game's clean prefix of events; the rest set aside.

    Rows are read through the tables' b-trees, then from the leaf pages themselves (`leaf_rows`,
    journal_pages) for the rows a damaged interior page hides. Each game's events are put
    in place from its setup by their checksum chain (journal_chain): a row whose position or
    game the damage changed still goes where its chain says, a copy of a placed row is not
    an event of its own. Returns the games and events kept, the rows set aside and the
    events known to have existed that no copy holds.
    """
    games = {r[0]: r for r in _readable(old, "SELECT id, started, finished, players, winner, "
                                             "abandoned FROM games WHERE rowid > ? "
                                             "ORDER BY rowid")}
    chain = "chain" if _has_chain(old) else "NULL"
    rows = _readable(old, f"SELECT id, game_id, seq, at, CAST(json AS BLOB), crc, {chain} "
                          "FROM events WHERE rowid > ? ORDER BY rowid")
    seen = {(r[1], r[2]) for r in rows}
    with contextlib.suppress(sqlite3.DatabaseError):
        moved = _readable(old, "SELECT id, game_id, seq, at, json, crc, reason, moved "
                               "FROM set_aside WHERE rowid > ? ORDER BY rowid")
        seen |= {(r[1], r[2]) for r in moved}
        rows += [(None, *r[1:]) for r in moved]
    rows += [(-1, *row) for key, row in sorted(leaf_rows.items()) if key not in seen]
    top = _index_seqs(old)
    for row in rows:
        if row[0] is not None and isinstance(row[1], int) and isinstance(row[2], int):
            top[row[1]] = max(row[2], top.get(row[1], -1))
    by_game: dict[int, list[tuple[Any, ...]]] = {}
    aside: list[tuple[Any, ...]] = []
    for row in rows:
        if row[0] is None:
            aside.append(row[1:])
        elif isinstance(row[1], int) and isinstance(row[2], int):
            by_game.setdefault(row[1], []).append(row)
    games = {k: v for k, v in games.items() if isinstance(k, int)}
    placer = _Placer([r for r in rows if r[0] is not None])
    new.execute("BEGIN")
    kept_games = kept_events = 0
    lost = 0
    # the real games first: a row a flipped bit gave a game that does not exist is
    # still theirs to take back by its chain before it is set aside
    for gid in sorted(games) + sorted(set(by_game) - set(games)):
        good = placer.place(gid, by_game.get(gid, []))
        reason = (f"game {gid}: event {len(good)} could not be recovered from the damaged "
                  "journal; the events after it were set aside")
        rest = placer.leftovers(by_game.get(gid, []))
        aside += [(gid, r[2], r[3], r[4], r[5], reason, now) for r in rest]
        accounted = {r[2] for r in by_game.get(gid, [])} | {a[1] for a in aside if a[0] == gid}
        missing = sum(1 for seq in range(top.get(gid, -1) + 1) if seq not in accounted)
        lost += missing
        if (rest or missing) and (gid in games or good):  # a game of the rebuilt journal
            touched.add(gid)
        if gid in games:
            _, started, finished, players, winner, abandoned = games[gid]
            new.execute("INSERT INTO games VALUES (?, ?, ?, ?, ?, ?, ?)",  # damaged: defaults
                        (gid, started if isinstance(started, str) else now, finished,
                         players if isinstance(players, str) else "[]", winner,
                         abandoned if isinstance(abandoned, int) else 0,
                         stored_game(good[0][4] if good else None)))
        elif good:  # the game's own row is lost: rebuild it from its setup
            setup = json.loads(bytes(good[0][4]).decode("utf-8"))
            players = setup.get("players") if isinstance(setup.get("players"), list) else []
            new.execute("INSERT INTO games (id, started, players, game) VALUES (?, ?, ?, ?)",
                        (gid, good[0][3], json.dumps(players, ensure_ascii=False),
                         game_of(setup)))
        else:
            continue
        kept_games += 1
        link = journal_chain.start(gid)
        for seq, row in enumerate(good):
            link = journal_chain.link(link, bytes(row[4]))
            new.execute("INSERT INTO events (game_id, seq, at, json, crc, chain) "
                        "VALUES (?, ?, ?, ?, ?, ?)",
                        (gid, seq, row[3], bytes(row[4]).decode("utf-8"), row[5], link))
            kept_events += 1
    aside += [(*r[1:6], "a row of the damaged journal without a game or a position", now)
              for r in placer.unplaced()]
    new.executemany("INSERT INTO set_aside (game_id, seq, at, json, crc, reason, moved) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?)", aside)
    new.execute("COMMIT")
    return kept_games, kept_events, len(aside), lost


def _has_chain(conn: sqlite3.Connection) -> bool:
    """Whether the events table has its chain column (format 3)."""
    try:
        return any(r[1] == "chain" for r in conn.execute("PRAGMA table_info(events)"))
    except sqlite3.DatabaseError:
        return False


class _Placer:
    """Puts a damaged journal's event rows (id, game, seq, at, json, crc, chain) back in
    place, game by game, by their checksum chain; each row is used once."""

    RESCUES = 256  # searches of every row for one that fits a gap, at most per repair

    def __init__(self, rows: list[tuple[Any, ...]]) -> None:
        self.used: set[int] = set()
        self.placed: set[tuple[int, bytes]] = set()  # (chain, text) of the rows kept
        self.rescues = self.RESCUES
        self.rows = rows
        self.chained = [r for r in rows if isinstance(r[6], int) and isinstance(r[4], bytes)]

    def place(self, game_id: int, claimed: list[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
        """The game's clean prefix of events, from its setup on."""
        by_seq: dict[int, list[tuple[Any, ...]]] = {}
        for row in claimed:
            by_seq.setdefault(row[2], []).append(row)
        good: list[tuple[Any, ...]] = []
        before = journal_chain.start(game_id)
        while True:
            found = next((r for r in by_seq.get(len(good), []) if id(r) not in self.used
                          and read_row(len(good), len(good), r[4], r[5], r[6], before)[0]
                          is not None), None) or self._rescue(len(good), before)
            if found is None:
                return good
            self.used.add(id(found))
            before = journal_chain.link(before, bytes(found[4]))
            self.placed.add((before, bytes(found[4])))
            good.append(found)

    def _rescue(self, seq: int, before: int) -> tuple[Any, ...] | None:
        """A row whose chain says it is this event though its game or position says not."""
        if self.rescues <= 0:
            return None
        self.rescues -= 1
        for row in self.chained:
            raw = bytes(row[4])
            if (id(row) not in self.used and journal_chain.link(before, raw) == row[6]
                    and read_row(seq, seq, raw, row[5])[0] is not None):
                return row
        return None

    def _copy(self, row: tuple[Any, ...]) -> bool:
        """A second copy of a row already kept (an old version of its page, a row whose
        position the damage changed): the same event, nothing more to keep."""
        return isinstance(row[4], bytes) and (row[6], bytes(row[4])) in self.placed

    def leftovers(self, claimed: list[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
        """The game's rows not kept in it, by position, to be set aside."""
        rest = [r for r in claimed if id(r) not in self.used and not self._copy(r)]
        self.used |= {id(r) for r in claimed}
        return sorted(rest, key=lambda r: r[2])

    def unplaced(self) -> list[tuple[Any, ...]]:
        """Rows without a game or a position that no chain placed (a row without any
        content is nothing to keep)."""
        return [r for r in self.rows if id(r) not in self.used and r[4] is not None
                and not (isinstance(r[1], int) and isinstance(r[2], int)) and not self._copy(r)]
