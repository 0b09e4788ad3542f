"""Issue 9, findings 1, 3 and 4: damaged journals and damaged `-wal` files.

Every acknowledged event is either kept or counted in the journal's sentences: no silent
loss. The journals are real: a child process appends events (each acknowledged on its
stdout after the commit) and dies without closing, leaving its `-wal` as a crash does;
then bytes of the `-wal` or of the main file are damaged in the ways an SD card damages
them (flipped bytes, a zeroed page, random bytes, a cut). JOURNAL_FUZZ_CASES sets the
number of corruptions of each kind (`make fuzz`: 200 each).
"""

from __future__ import annotations

import json
import os
import random
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from companion.journal import Journal
from companion.notices import Notice

REPO = Path(__file__).resolve().parents[2]
CASES = int(os.environ.get("JOURNAL_FUZZ_CASES", "8"))
PAGE = 4096
# per kind: cases, acknowledged events, events kept, cases with losses
TALLY: dict[str, list[int]] = {"wal": [0, 0, 0, 0], "main": [0, 0, 0, 0], "cut": [0, 0, 0, 0],
                               "exact": [0, 0]}

CHILD = """
import json, os, sys
from companion.journal import Journal
j = Journal.open(sys.argv[1])
acked = []
for g in range(3):
    gid = j.start_game({"type": "setup", "players": ["Ana", "Ben", "Cy"]})
    acked.append([gid, 0])
    for i in range(int(sys.argv[2])):
        j.append(gid, {"type": "play", "card": str(i % 11), "note": "x" * (i % 50)})
        acked.append([gid, i + 1])
    if g < 2:
        j.set_result(gid, "Ana")
print(json.dumps(acked), flush=True)
os._exit(0)  # no close: the -wal stays, as after a crash
"""


def _fixture(folder: Path, per_game: int) -> set[tuple[int, int]]:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run([sys.executable, "-c", CHILD, str(folder), str(per_game)], env=env,
                          capture_output=True, text=True, timeout=120, check=True)
    return {tuple(k) for k in json.loads(done.stdout)}


@pytest.fixture(scope="module")
def crashed(tmp_path_factory) -> tuple[Path, set[tuple[int, int]]]:
    folder = tmp_path_factory.mktemp("crashed")
    acked = _fixture(folder, 140)
    assert Path(f"{folder}/journal.sqlite3-wal").stat().st_size > 0
    return folder, acked


@pytest.fixture(scope="module")
def closed(tmp_path_factory) -> tuple[Path, set[tuple[int, int]]]:
    folder = tmp_path_factory.mktemp("closed")
    acked = _fixture(folder, 300)
    Journal.open(folder).close()  # checkpoints the -wal into the main file
    assert not Path(f"{folder}/journal.sqlite3-wal").exists()
    return folder, acked


def damage(data: bytearray, rng: random.Random, *, header: int, cut: bool = True) -> bytearray:
    """Flipped bits, a zeroed or random page, a zeroed stretch, or (`cut`) a cut. The fuzz
    makes no cuts: what is cut off leaves nothing to count (NOTES-issue9.md)."""
    how = rng.choice(["flip", "zero_page", "random_page", "zero_range"] + ["cut"] * cut)
    if how == "flip":
        for _ in range(rng.randint(1, 20)):
            at = rng.randrange(header, len(data))
            data[at] ^= 1 << rng.randrange(8)
    elif how in ("zero_page", "random_page"):
        start = rng.randrange(header, max(header + 1, len(data) - PAGE))
        start -= (start - header) % PAGE if how == "zero_page" else 0
        data[start:start + PAGE] = (bytes(PAGE) if how == "zero_page"
                                    else rng.randbytes(PAGE))[:len(data) - start]
    elif how == "cut":
        del data[rng.randrange(header, len(data)):]
    else:
        at = rng.randrange(header, len(data))
        end = min(len(data), at + rng.randint(1, 300))
        data[at:end] = bytes(end - at)
    return data


def outcome(folder: Path, acked: set[tuple[int, int]]) -> tuple[int, int, list[str]]:
    """Events kept, events counted by the journal's sentences, and the sentences."""
    with Journal.open(folder) as j:
        notes = list(j.damage)
        kept: set[tuple[int, int]] = set()
        for record in j.games():
            stored = j.load(record.game_id)
            kept |= {(record.game_id, n) for n in range(len(stored.events))}
        notes += [n for n in j.damage if n not in notes]
        # grouped: a plain COUNT(*) of a table SQLite reads through a damaged page that its
        # quick check passed can come out short (seen in case 49)
        aside = sum(n for _, n in j._read(
            "SELECT game_id, COUNT(*) FROM set_aside GROUP BY game_id"))
    counted = aside
    for note in notes:
        assert isinstance(note, Notice) or "set_aside" in note, note
        assert "\n" not in note and len(note) < 600, note
        params = getattr(note, "params", {})
        counted += int(params.get("count", 0)) + int(params.get("lost", 0))
        counted += int(params.get("held", 0))
    return len(kept & acked), counted, notes


@pytest.mark.parametrize("seed", range(CASES))
def test_a_damaged_wal_never_loses_an_acknowledged_event_silently(crashed, tmp_path, seed):
    source, acked = crashed
    rng = random.Random(seed)
    folder = tmp_path / "data"
    shutil.copytree(source, folder)
    wal = folder / "journal.sqlite3-wal"
    wal.write_bytes(bytes(damage(bytearray(wal.read_bytes()), rng, header=0, cut=False)))
    kept, counted, notes = outcome(folder, acked)
    assert len(acked) - kept == counted, (len(acked), kept, counted, notes)
    if kept < len(acked):
        assert list(folder.glob("journal.sqlite3*kept*")) or list(folder.glob("*damaged*"))
    _tally("wal", len(acked), kept, counted)


@pytest.mark.parametrize("seed", range(CASES))
def test_a_damaged_main_file_never_loses_an_acknowledged_event_silently(closed, tmp_path, seed):
    source, acked = closed
    rng = random.Random(10_000 + seed)
    folder = tmp_path / "data"
    shutil.copytree(source, folder)
    db = folder / "journal.sqlite3"
    db.write_bytes(bytes(damage(bytearray(db.read_bytes()), rng, header=100, cut=False)))
    kept, counted, notes = outcome(folder, acked)
    _tally("main", len(acked), kept, counted)
    # issue 21: seeds 49 and 76 were silent (a damaged index SQLite's quick check passes);
    # the opening's index and count checks find them now; the count is exact since the
    # events' checksum chain (cases 40, 86, 107, 153 and 174 were counted over)
    assert len(acked) - kept == counted, (len(acked), kept, counted, notes)


@pytest.mark.parametrize("seed", range(CASES))
def test_a_cut_main_file_counts_every_lost_event_exactly(closed, tmp_path, seed):
    """Issue 21, finding 9: after a cut the sentence said 233 lost where 577 were; the
    header's count of stored events (journal.count_added) makes every loss countable."""
    source, acked = closed
    rng = random.Random(50_000 + seed)
    folder = tmp_path / "data"
    shutil.copytree(source, folder)
    db = folder / "journal.sqlite3"
    data = bytearray(db.read_bytes())
    del data[rng.randrange(100, len(data)):]
    db.write_bytes(bytes(data))
    kept, counted, notes = outcome(folder, acked)
    _tally("cut", len(acked), kept, counted)
    assert len(acked) - kept == counted, (len(acked), kept, counted, notes)


def _tally(kind: str, acked: int, kept: int, counted: int) -> None:
    t = TALLY[kind]
    t[0] += 1
    t[1] += acked
    t[2] += kept
    t[3] += 1 if acked - kept > 0 else 0
    if acked - kept > 0:
        TALLY["exact"][0] += acked - kept == counted
        TALLY["exact"][1] += 1


def test_one_zeroed_page_keeps_every_event_the_pages_still_hold(closed, tmp_path):
    """Finding 4: the salvage reads each row once; a zeroed interior page loses nothing."""
    source, acked = closed
    folder = tmp_path / "data"
    shutil.copytree(source, folder)
    db = folder / "journal.sqlite3"
    data = bytearray(db.read_bytes())
    conn = sqlite3.connect(f"file:{db}?immutable=1", uri=True)
    root = conn.execute("SELECT rootpage FROM sqlite_master WHERE name='events'").fetchone()[0]
    conn.close()
    data[(root - 1) * PAGE:root * PAGE] = bytes(PAGE)  # the events table's root page
    db.write_bytes(bytes(data))
    kept, _, notes = outcome(folder, acked)
    assert kept == len(acked), notes
    with Journal.open(folder) as j:
        assert j._read("SELECT COUNT(*) FROM set_aside")[0][0] == 0


def test_a_damaged_wal_is_kept_beside_the_journal_and_counted(crashed, tmp_path):
    """Finding 3: a frame damaged early in the -wal; SQLite drops it and all after it."""
    source, acked = crashed
    folder = tmp_path / "data"
    shutil.copytree(source, folder)
    wal = folder / "journal.sqlite3-wal"
    data = bytearray(wal.read_bytes())
    data[32 + 24 + 100] ^= 0xFF  # the first frame's page content
    wal.write_bytes(bytes(data))
    with Journal.open(folder) as j:
        [note] = [n for n in j.damage if getattr(n, "code", "") == "wal_lost"]
        kept = sum(len(j.load(r.game_id).events) for r in j.games())
    assert note.params["count"] == len(acked) - kept > 0
    assert f"{len(acked) - kept} saved events" in note
    [copy] = folder.glob("journal.sqlite3-wal.kept-*")
    assert copy.read_bytes() == bytes(data)


def test_the_fuzz_figures(capsys):
    names = {"wal": "-wal damaged", "main": "main file damaged", "cut": "main file cut"}
    for kind in ("wal", "main", "cut"):
        cases, acked, kept, lossy = TALLY[kind]
        if cases:
            print(f"journal fuzz ({names[kind]}): {cases} corruptions, {acked} acknowledged "
                  f"events, {kept} kept, {lossy} cases with losses counted in the sentences, "
                  "0 silent losses")
    exact, lossy = TALLY["exact"]
    print(f"journal fuzz: the count said was exact in {exact} of {lossy} cases with losses")
