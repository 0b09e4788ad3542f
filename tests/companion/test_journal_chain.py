"""Issue 21: the events' checksum chain (journal format 3), on real SQLite files.

Each row's chain continues from the event before it, so a row moved to another place by a
damaged file is not replayed there, a repair puts it back where it belongs, an older
journal gets its chain when it is first opened, and the app's writer and a plain append
write the same chain.
"""

from __future__ import annotations

import sqlite3
import zlib
from datetime import UTC, datetime
from pathlib import Path

from companion import journal_chain
from companion.journal import SCHEMA_VERSION, Journal
from companion.snapshots import Resumable, load_unfinished
from games.revenge.bench.core import long_game, play_with_writer

SETUP = {"type": "setup", "players": ["Ana", "Ben"]}


def _journal(folder: Path, events: int) -> int:
    with Journal.open(folder) as journal:
        game_id = journal.start_game(SETUP)
        for i in range(events):
            journal.append(game_id, {"type": "play", "card": str(i % 11)})
    return game_id


def _chains_hold(db: Path) -> bool:
    """Every game's rows, in order, chain from its setup."""
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT game_id, CAST(json AS BLOB), chain FROM events "
                            "ORDER BY game_id, seq").fetchall()
    game, before = None, 0
    for game_id, raw, chain in rows:
        if game_id != game:
            game, before = game_id, journal_chain.start(game_id)
        before = journal_chain.link(before, raw)
        if chain != before:
            return False
    return bool(rows)


def test_the_app_writer_and_a_plain_append_write_the_same_chain(tmp_path: Path) -> None:
    objs = long_game(230)  # several of the writer's batches
    with Journal.open(tmp_path / "writer") as journal:
        play_with_writer(journal, objs)
    with Journal.open(tmp_path / "plain") as journal:
        game_id = journal.start_game(objs[0])
        for obj in objs[1:]:
            journal.append(game_id, obj)
    for name in ("writer", "plain"):
        assert _chains_hold(tmp_path / name / "journal.sqlite3"), name


def test_a_row_moved_into_a_lost_place_is_not_replayed_there(tmp_path: Path) -> None:
    """Event 5 lost and event 9's row renumbered 5: its own checksum holds, its chain
    does not, so the game stops after event 4 instead of replaying event 9 as event 5.
    The gap (no event 9) is found at the opening, which rebuilds the journal by the
    chain (issue 33): one sentence, every event counted once."""
    game_id = _journal(tmp_path, 12)
    with sqlite3.connect(tmp_path / "journal.sqlite3") as conn:
        conn.execute("DELETE FROM events WHERE seq = 5")
        conn.execute("UPDATE events SET seq = 5 WHERE seq = 9")
    with Journal.open(tmp_path) as journal:
        stored = journal.load(game_id)
        assert len(stored.events) == 5
        [repaired] = journal.damage
        assert repaired.code == "repaired"
        assert repaired.params["events"] == 5
        # 5-12 counted: set aside (event 9 twice, its renumbered row and its old version
        # in the -wal) or lost (event 5, unless its old version was found instead)
        assert repaired.params["set_aside"] + repaired.params["lost"] == 8, repaired


def test_a_repair_puts_a_row_whose_number_was_damaged_back_in_its_place(
        tmp_path: Path) -> None:
    """A bit flipped in a row's event number on disk (17 reads 18: two rows claim one
    place): the repair puts each row where its chain says, and every event is kept."""
    game_id = _journal(tmp_path, 40)
    Journal.open(tmp_path).close()  # checkpointed: every row in the main file
    db = tmp_path / "journal.sqlite3"
    data = bytearray(db.read_bytes())
    year = datetime.now(UTC).strftime("%Y").encode()
    body = bytes([17]) + year  # the record's body: (game 1 takes no byte) seq, time...
    assert data.count(body) == 1
    data[data.index(body)] ^= 0x03  # 17 -> 18
    db.write_bytes(bytes(data))
    with Journal.open(tmp_path) as journal:
        [repaired] = [n for n in journal.damage if n.code == "repaired"]
        assert repaired.params["lost"] == repaired.params["set_aside"] == 0
        assert len(journal.load(game_id).events) == 41


def test_an_older_journal_gets_its_chain_when_first_opened(tmp_path: Path) -> None:
    """Format 2 (no chain column): migrated in one transaction, then appended to."""
    game_id = _journal(tmp_path, 30)
    db = tmp_path / "journal.sqlite3"
    with sqlite3.connect(db) as conn:
        conn.execute("ALTER TABLE events DROP COLUMN chain")
        conn.execute("PRAGMA user_version = 2")
    with Journal.open(tmp_path) as journal:
        assert journal.damage == []
        journal.append(game_id, {"type": "play", "card": "7"})
        assert len(journal.load(game_id).events) == 32
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert _chains_hold(db)


def test_the_chain_is_the_crc_of_the_text_continued_from_the_event_before(
        tmp_path: Path) -> None:
    _journal(tmp_path, 2)
    with sqlite3.connect(tmp_path / "journal.sqlite3") as conn:
        rows = conn.execute("SELECT game_id, CAST(json AS BLOB), crc, chain FROM events "
                            "ORDER BY seq").fetchall()
    (gid, setup, crc0, chain0), (_, play, crc1, chain1), _ = rows
    assert crc0 == zlib.crc32(setup) and chain0 == zlib.crc32(setup, gid)
    assert crc1 == zlib.crc32(play) and chain1 == zlib.crc32(play, chain0)


def test_a_snapshot_resume_never_replays_a_row_moved_into_a_lost_place(
        tmp_path: Path) -> None:
    """After the newest snapshot, event N lost and event N+1's row renumbered N: the
    positions run on and every CRC holds, but the chain breaks, so the resume reads every
    event (and sets the moved row aside, said) instead of replaying it as event N."""
    objs = long_game(265)  # its newest snapshot is at the round's end, event 258
    with Journal.open(tmp_path) as journal:
        game_id = play_with_writer(journal, objs)
    last = len(objs) - 1
    with sqlite3.connect(tmp_path / "journal.sqlite3") as conn:
        snap = conn.execute("SELECT MAX(seq) FROM snapshots").fetchone()[0]
        assert snap < last - 1
        conn.execute("DELETE FROM events WHERE game_id = ? AND seq = ?", (game_id, last - 1))
        conn.execute("UPDATE events SET seq = ? WHERE game_id = ? AND seq = ?",
                     (last - 1, game_id, last))
    with Journal.open(tmp_path) as journal:
        found = load_unfinished(journal)
        assert not isinstance(found, Resumable)
        assert found is not None and len(found.events) == last - 1
        assert any("checksum chain breaks" in n for n in journal.damage)
