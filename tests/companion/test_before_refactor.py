"""Every card-game transcript exported before the core refactor (issue 10) replays to the
very state it had then: 200 simulated games, whole and cut at a random line, through
`sorry-companion replay --json` exactly as a user would run it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.cli import main

FIXTURE = Path(__file__).parent.parent / "fixtures" / "revenge-before-refactor.jsonl"
ROWS = [json.loads(line) for line in FIXTURE.read_text("utf-8").splitlines()]


def _replay_json(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                 events: list[dict[str, object]]) -> object:
    path = tmp_path / "game.jsonl"
    path.write_text("".join(json.dumps(e) + "\n" for e in events), "utf-8")
    capsys.readouterr()
    assert main(["replay", str(path), "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_the_fixture_holds_200_games_with_undos_tiebreaks_and_open_windows():
    assert len(ROWS) == 200
    assert sum(any(e["type"] == "undo" for e in r["transcript"]) for r in ROWS) > 50
    assert any(any(e["type"] == "tiebreak" for e in r["transcript"]) for r in ROWS)
    assert sum(r["cut_state"]["window"] is not None for r in ROWS) > 10


@pytest.mark.parametrize("row", ROWS, ids=[r["name"] for r in ROWS])
def test_a_transcript_from_before_the_refactor_replays_to_the_same_state(row, tmp_path, capsys):
    assert _replay_json(tmp_path, capsys, row["transcript"]) == row["state"]
    cut = row["transcript"][: row["cut"]]
    assert _replay_json(tmp_path, capsys, cut) == row["cut_state"]
