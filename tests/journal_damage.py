"""Damage as an SD card does it, on a real journal file: finished games played as the app
plays them, and one flipped bit at a known place in one event's row (tests/companion and
tests/ui share it)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from bench.core import long_game, play_with_writer
from companion.journal import Journal


def finished_games(folder: Path, lengths: list[int]) -> list[int]:
    """Finished games of the given lengths (setup included), played as the app plays them,
    the journal then closed (its -wal folded into the file)."""
    ids = []
    with Journal.open(folder) as journal:
        for events in lengths:
            game_id = play_with_writer(journal, long_game(events))
            journal.set_result(game_id, "Ana")
            ids.append(game_id)
    return ids


def row_at(folder: Path, game_id: int, seq: int) -> int:
    """Where event `seq` of the game starts in the file: its time, its JSON text, its
    checksum and chain (SQLite's big-endian integers)."""
    db = folder / "journal.sqlite3"
    conn = sqlite3.connect(f"file:{db}?immutable=1", uri=True)
    at, text, crc, chain = conn.execute(
        "SELECT at, json, crc, chain FROM events WHERE game_id = ? AND seq = ?",
        (game_id, seq)).fetchone()
    conn.close()
    data = db.read_bytes()
    needle = f"{at}{text}".encode() + b"".join(
        n.to_bytes(next(w for w in (1, 2, 3, 4, 6) if n < 1 << (8 * w - 1)), "big")
        for n in (crc, chain))
    assert data.count(needle) == 1, "the row cannot be told apart in the file"
    return data.index(needle)


def flip(folder: Path, offset: int, bit: int) -> None:
    db = folder / "journal.sqlite3"
    data = bytearray(db.read_bytes())
    data[offset] ^= 1 << bit
    db.write_bytes(bytes(data))
