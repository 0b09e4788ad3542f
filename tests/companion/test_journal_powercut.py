"""Issue 21: power cuts, simulated the way NOTES.md says (a SIGKILL keeps the page cache,
a power cut does not).

A child plays a long game through the app's own Session and journal writer, at table
pace (a tap every 0.2-0.4 s) or in bursts (taps 0-4 ms apart), printing each event when
the screen shows it and when it is durable. An LD_PRELOAD shim
(tests/companion/native/powercut.c) records, at every fsync, what the disk holds for sure.
The child is killed at a random moment; the data folder is then rebuilt as the cut left
it: only the files the folder's last fsync listed, each with its last synced content and,
after it, none of the sectors written since, a random set of them, or a prefix of them
(512-byte sectors). The app's journal then opens it. Checked per cut: no durable event is
lost; the resumed game is a prefix of what was shown; and every shown event that was
lost is reported: a notice says so, or the resume line names the last saved event, so
the table sees where it resumes. POWERCUT_CASES sets the number of cuts (`make fuzz`:
100; `make test`: a few).
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from native_shim import build_shim

from companion.game import Game
from companion.journal import Journal
from companion.resume_words import last_saved_words
from companion.snapshots import load_unfinished

REPO = Path(__file__).resolve().parents[2]
CASES = int(os.environ.get("POWERCUT_CASES", "2"))
SECTOR = 512
MODES = ("dropped", "sectors", "prefix")
FIGURES = {"cuts": 0, "durable_lost": 0, "shown_lost_table": [], "shown_lost_burst": [],
           "notices": 0, "unreported": 0}

CHILD = """
import random, sys, threading, time
from games.revenge.bench.core import long_game
from companion.journal import Journal
from companion.session import APP_WRITE_SETTLE_S, Session
folder, seed, pace = sys.argv[1], int(sys.argv[2]), sys.argv[3]
rng = random.Random(seed)
lock = threading.Lock()
def say(*words):
    with lock:  # one line at a time: the writer's thread prints too
        sys.stdout.write(" ".join(map(str, words)) + chr(10))
        sys.stdout.flush()
objs = long_game(600)
journal = Journal.open(folder)
session = Session(journal, background=True, write_settle=APP_WRITE_SETTLE_S)  # as the app
session.writer.subscribe(durable=lambda gid, seq: say("D", seq))
session.new_game(Session.setup(objs[0]))
say("G", session.game_id)
for n, obj in enumerate(objs[1:], 1):
    session.submit(session.parse_event(obj))
    say("S", n)
    time.sleep(rng.uniform(0.2, 0.4) if pace == "table" else rng.choice([0, 0.001, 0.004]))
say("END")
time.sleep(60)
"""


@pytest.fixture(scope="module")
def shim(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_shim(tmp_path_factory, "powercut", "power-cut")


def _torn(durable: bytes, current: bytes, mode: str, rng: random.Random) -> bytes:
    """What the disk holds: the synced content, plus unsynced sectors as `mode` says."""
    if mode == "dropped" or current == durable:
        return durable
    size = max(len(durable), len(current))
    out = bytearray(durable.ljust(size, b"\0"))
    changed = [i for i in range(0, size, SECTOR) if durable[i:i + SECTOR] !=
               current[i:i + SECTOR]]
    kept = (rng.sample(changed, rng.randint(0, len(changed))) if mode == "sectors"
            else changed[:rng.randint(0, len(changed))])
    end = len(durable)
    for at in kept:
        piece = current[at:at + SECTOR]
        out[at:at + len(piece)] = piece
        end = max(end, at + len(piece))
    return bytes(out[:end])


def _rebuild(live: Path, shadow: Path, target: Path, mode: str, rng: random.Random) -> None:
    """The folder as the power cut left it (see the module docstring)."""
    target.mkdir()
    entries = shadow / "entries"
    if not entries.exists():
        return
    by_inode = {p.stat().st_ino: p for p in live.iterdir() if p.is_file()}
    for line in entries.read_text().splitlines():
        name, inode = line.rsplit(" ", 1)
        synced = shadow / inode
        durable = synced.read_bytes() if synced.exists() else b""
        current = by_inode[int(inode)].read_bytes() if int(inode) in by_inode else durable
        (target / name).write_bytes(_torn(durable, current, mode, rng))


@pytest.mark.parametrize("case", range(CASES))
def test_a_power_cut_loses_no_durable_event_and_says_what_it_lost(
        shim: Path, tmp_path: Path, case: int) -> None:
    rng = random.Random(case)
    pace = "table" if case % 2 == 0 else "burst"
    live, shadow = tmp_path / "live", tmp_path / "shadow"
    live.mkdir()
    shadow.mkdir()
    env = {**os.environ, "PYTHONPATH": str(REPO), "LD_PRELOAD": str(shim),
           "POWERCUT_WATCH": str(live), "POWERCUT_SHADOW": str(shadow)}
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(live), str(case), pace],
                             stdout=subprocess.PIPE, text=True, env=env)
    assert child.stdout is not None
    shown, durable = 0, -1
    cut_after = rng.uniform(1.5, 4.0) if pace == "table" else rng.uniform(0.3, 1.5)
    start = None
    try:
        for line in child.stdout:
            kind, *rest = line.split()
            if kind == "G":
                start = time.monotonic()
            elif kind == "S":
                shown = int(rest[0])
            elif kind == "D":
                durable = max(durable, int(rest[0]))
            if kind == "END" or (start is not None and time.monotonic() - start > cut_after):
                break
    finally:
        child.send_signal(signal.SIGKILL)  # the power goes
        child.wait(timeout=30)
        for line in child.stdout:  # what the child printed before it died
            kind, *rest = line.split()
            if kind == "S":
                shown = max(shown, int(rest[0]))
            elif kind == "D":
                durable = max(durable, int(rest[0]))
    mode = MODES[case % len(MODES)]
    after = tmp_path / "after"
    _rebuild(live, shadow, after, mode, rng)
    with Journal.open(after) as journal:
        found = load_unfinished(journal)
        notes = list(journal.damage)
        events = found.events if found is not None else []
    saved = len(events) - 1  # events after the setup
    FIGURES["cuts"] += 1
    FIGURES["durable_lost"] += max(0, durable - saved)
    assert saved >= durable, f"{durable - saved} durable events lost ({mode}, {pace})"
    # killed between applying an event and printing it: that one event may be saved
    assert saved <= shown + 1, "the journal holds an event the screen never showed"
    lost = max(0, shown - saved)
    FIGURES[f"shown_lost_{pace}"].append(lost)
    FIGURES["notices"] += bool(notes)
    if lost:
        words = last_saved_words(Game.from_json(events)) if events else None
        reported = bool(notes) or words is not None or saved == 0
        FIGURES["unreported"] += not reported
        assert reported, f"{lost} shown events lost without a word ({mode}, {pace})"


def test_the_power_cut_figures() -> None:
    """Runs after the cuts in this module (pytest keeps file order)."""
    table, burst = FIGURES["shown_lost_table"], FIGURES["shown_lost_burst"]
    print(f"power-cut fuzz: {FIGURES['cuts']} cuts, {FIGURES['durable_lost']} durable events "
          f"lost, shown events lost at table pace max {max(table, default=0)} "
          f"(total {sum(table)} in {len(table)} cuts), in bursts max {max(burst, default=0)} "
          f"(total {sum(burst)} in {len(burst)} cuts), {FIGURES['notices']} cuts with a "
          f"notice, {FIGURES['unreported']} losses unreported")
    assert FIGURES["unreported"] == 0
