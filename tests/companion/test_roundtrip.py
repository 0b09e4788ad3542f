"""Transcripts round-trip: a simulated game, written out and replayed, is the same game.

400 simulated games (`make fuzz`: 1,000) of every table (2-4 players, 1-4 pawns,
standard and long) are written as JSON Lines and replayed; the replayed state must equal
the live one. A few also go through `sorry-companion replay --json` in a subprocess, the CLI path.
"""

from __future__ import annotations

import io
import json
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from companion.transcript import replay_lines, write_transcript
from games.revenge.rules.simulate import SimulatedGame, random_options, simulate

GAMES = int(os.environ.get("ROUNDTRIP_GAMES", "400"))  # `make fuzz`: 1,000
CLI_GAMES = 4


def _text(sim: SimulatedGame) -> str:
    out = io.StringIO()
    write_transcript(out, sim.events)
    return out.getvalue()


@pytest.fixture(scope="module")
def games() -> list[SimulatedGame]:
    sims = []
    for seed in range(GAMES):
        rng = random.Random(f"roundtrip/{seed}")
        sims.append(simulate(rng, **random_options(rng)))
    return sims


def test_the_games_mix_every_table(games):
    tables = {(len(g.game.setup.players), g.game.setup.pawns, g.game.setup.variant.value)
              for g in games}
    assert len(tables) == 3 * 4 * 2  # 2-4 players x 1-4 pawns x standard/long


def test_a_thousand_transcripts_replay_to_identical_states(games):
    for n, sim in enumerate(games):
        text = _text(sim)
        replay = replay_lines(text.splitlines())
        assert replay.error is None, f"game {n}: {replay.error}"
        assert replay.events == len(sim.events) == text.count("\n")
        assert replay.game is not None
        assert replay.game.state.to_json() == sim.state.to_json(), f"game {n}"
        assert replay.game.state == sim.state  # the whole state, not only its JSON view


def _replay_command() -> list[str]:
    script = Path(sys.executable).with_name("sorry-companion")
    found = str(script) if script.exists() else shutil.which("sorry-companion")
    return [found] if found else [sys.executable, "-m", "companion.cli"]


def test_transcripts_replay_through_the_cli(games, tmp_path):
    for n, sim in enumerate(games[:CLI_GAMES]):
        path = tmp_path / f"game-{n:04d}.jsonl"
        path.write_text(_text(sim), encoding="utf-8")
        done = subprocess.run([*_replay_command(), "replay", str(path), "--json"],
                              capture_output=True, text=True, timeout=60, check=False)
        assert (done.returncode, done.stderr) == (0, ""), f"game {n}"
        assert json.loads(done.stdout) == json.loads(json.dumps(sim.state.to_json()))
