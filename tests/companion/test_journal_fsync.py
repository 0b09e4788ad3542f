"""Issue 9, finding 9: after a one-off fsync EIO the refused event never comes back.

A real fault: an LD_PRELOAD shim (tests/companion/native/failsync.c, built here with the
system's C compiler) makes the Nth sync of the journal's -wal fail once with EIO. The
child reports each event as acknowledged or refused, then dies without closing, as a
crash does. The journal opened afterwards must hold every acknowledged event and not the
refused one.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from native_shim import build_shim

from companion.journal import Journal

REPO = Path(__file__).resolve().parents[2]

CHILD = """
import os, sys
from companion.errors import JournalError
from companion.journal import Journal
j = Journal.open(sys.argv[1])
gid = j.start_game({"type": "setup", "players": ["Ana", "Ben"]})
for i in range(1, 13):
    try:
        j.append(gid, {"type": "play", "card": str(i % 11)})
    except JournalError as exc:
        print("R", i, flush=True)
        assert "not accepted" in str(exc), exc
        os._exit(9)  # a crash right after the refusal
    print("A", i, flush=True)
os._exit(0)
"""


@pytest.fixture(scope="module")
def shim(tmp_path_factory) -> Path:
    return build_shim(tmp_path_factory, "failsync", "fsync fault")


@pytest.mark.parametrize("nth", [5, 6, 8, 11, 14])
def test_an_event_refused_after_an_fsync_error_never_comes_back(shim, tmp_path, nth):
    env = {**os.environ, "PYTHONPATH": str(REPO), "LD_PRELOAD": str(shim),
           "FAILSYNC_NTH": str(nth)}
    done = subprocess.run([sys.executable, "-c", CHILD, str(tmp_path)], env=env,
                          capture_output=True, text=True, timeout=120)
    lines = [ln.split() for ln in done.stdout.splitlines()]
    acked = [int(n) for kind, n in lines if kind == "A"]
    refused = [int(n) for kind, n in lines if kind == "R"]
    assert refused, f"the shim never failed a sync: {done.stdout} {done.stderr[-400:]}"
    with Journal.open(tmp_path) as journal:
        events = journal.load(1).events
    assert len(events) - 1 == len(acked) == refused[0] - 1
