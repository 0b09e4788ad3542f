"""Damage as an SD card does it, on a real journal file: finished games played as the app
plays them, and one flipped bit at a known place in one event's row (tests/companion and
tests/ui share it)."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

from companion.journal import Journal
from games.revenge.bench.core import long_game, play_with_writer

REPO = Path(__file__).resolve().parents[1]


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


CRASHING_CHILD = """
import os, sys
from companion.journal import Journal
j = Journal.open(sys.argv[1])
j._conn.execute("PRAGMA wal_autocheckpoint=0")  # every event stays in the -wal
for g in range(3):
    gid = j.start_game({"type": "setup", "players": ["Ana", "Ben", "Cy"]})
    for i in range(int(sys.argv[2])):
        j.append(gid, {"type": "play", "card": str(i % 11), "note": "x" * (i % 50)})
    if g < 2:
        j.set_result(gid, "Ana")
os._exit(0)  # no close: the -wal and its -shm index stay, as after a crash
"""


def crashed_journal(folder: Path, per_game: int) -> int:
    """Three games (two won) whose events are only in the -wal of a killed process; the
    number of events it saved."""
    subprocess.run([sys.executable, "-c", CRASHING_CHILD, str(folder), str(per_game)],
                   check=True, timeout=120, env={**os.environ, "PYTHONPATH": str(REPO)})
    return 3 * (per_game + 1)


def cut_wal(folder: Path, keep: int) -> None:
    """The -wal cut short after `keep` bytes, as a damaged card or a power cut leaves it."""
    wal = folder / "journal.sqlite3-wal"
    wal.write_bytes(wal.read_bytes()[:keep])
