"""Every transcript and journal written before a refactor replays to the very state it had
then, through `sorry-companion replay --json`, `history` and `stats` exactly as a user would
run them, and through a Session's resume:
- 200 card-game transcripts exported before the core refactor (issue 10);
- 60 board-game transcripts and a journal of card and board games written before issue 17
  ("one slice per game"; tests/fixtures/make_before_slices_fixture.py)."""

from __future__ import annotations

import contextlib
import json
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from companion import games
from companion.cli import main
from companion.journal import SCHEMA_VERSION, Journal
from companion.session import Session
from companion.snapshots import Resumable, load_unfinished
from companion.stats import replay_events

FIXTURES = Path(__file__).parent.parent / "fixtures"
FIXTURE = FIXTURES / "revenge-before-refactor.jsonl"
ROWS = [json.loads(line) for line in FIXTURE.read_text("utf-8").splitlines()]
BOARD_ROWS = [json.loads(line) for line in
              (FIXTURES / "board-before-slices.jsonl").read_text("utf-8").splitlines()]
JOURNAL = FIXTURES / "journal-before-slices.sqlite3"
JOURNAL_READ = json.loads((FIXTURES / "journal-before-slices.json").read_text("utf-8"))


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


def test_the_board_fixture_holds_both_editions_undos_finished_and_cut_games():
    assert len(BOARD_ROWS) == 60
    assert {r["state"]["edition"] for r in BOARD_ROWS} == {"classic", "2016"}
    assert sum(r["state"]["winner"] is not None for r in BOARD_ROWS) > 10
    assert all(any(e["type"] == "undo" for e in r["transcript"]) for r in BOARD_ROWS)


@pytest.mark.parametrize("row", BOARD_ROWS, ids=[r["name"] for r in BOARD_ROWS])
def test_a_board_transcript_from_before_issue_17_replays_to_the_same_state(row, tmp_path, capsys):
    assert _replay_json(tmp_path, capsys, row["transcript"]) == row["state"]
    cut = row["transcript"][: row["cut"]]
    assert _replay_json(tmp_path, capsys, cut) == row["cut_state"]


@pytest.fixture
def old_journal(tmp_path: Path) -> Path:
    """A copy of the journal written before issue 17 (the app may migrate it)."""
    folder = tmp_path / "data"
    folder.mkdir()
    shutil.copyfile(JOURNAL, folder / "journal.sqlite3")
    return folder


def _cli_json(capsys: pytest.CaptureFixture[str], *argv: str) -> Any:
    capsys.readouterr()
    assert main(list(argv)) == 0
    return json.loads(capsys.readouterr().out)


def _merged(rows: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Stats rows summed per player over games (before issue 17, one list mixed them)."""
    out: dict[str, dict[str, Any]] = {}
    for row in rows:
        mine = out.setdefault(row["name"], {"name": row["name"]})
        for key, value in row.items():
            if key not in ("name", "game"):
                mine[key] = mine.get(key, 0) + value
    return out


def test_history_and_stats_read_a_journal_from_before_issue_17_as_they_did(old_journal, capsys):
    names = ["revenge", "board"] * 3  # the order make_before_slices_fixture played them
    file = old_journal / "journal.sqlite3"
    for readonly in (True, False):  # as it was (format 1), then after the app migrated it
        history = _cli_json(capsys, "--data", str(old_journal), "history", "--json")
        assert [{k: row[k] for k in old} for row, old in
                zip(history, JOURNAL_READ["history"], strict=True)] == JOURNAL_READ["history"]
        assert [row["game"] for row in history] == names
        stats = _cli_json(capsys, "--data", str(old_journal), "stats", "--json")
        # the recorded figures counted unfinished games too; since issue 20 only finished
        # games count: the same wins, games = finished games played, no counter higher
        now, then = _merged(stats), _merged(JOURNAL_READ["stats"])
        finished = [row["players"] for row in history if row["winner"]]
        assert set(now) <= set(then)
        for name, mine in now.items():
            assert mine["wins"] == then[name]["wins"], name
            assert mine["games"] == sum(name in players for players in finished), name
            assert all(mine[k] <= then[name][k] for k in mine if k != "name"), name
        assert {row["game"] for row in stats if "bumps" in row} == {"board"}
        with Journal(file, readonly=readonly) as journal:
            assert [r.game for r in journal.games()] == names
        with contextlib.closing(sqlite3.connect(file)) as conn:  # read-only left it as it was
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            assert version == (1 if readonly else SCHEMA_VERSION)
        Journal.open(old_journal).close()  # migrates it


def test_every_game_of_a_journal_from_before_issue_17_replays_and_resumes_as_it_did(old_journal):
    with Journal.open(old_journal) as journal:
        for game_id, state in JOURNAL_READ["states"].items():
            game, why = replay_events(journal.load(int(game_id)).events)
            assert game is not None and why is None
            assert game.rules.state_json(game.state) == state
        update = Session(journal).resume()
        assert update is not None and update.game_id == JOURNAL_READ["resume"]["game_id"]
        assert games.get(update.game).state_json(update.state) == JOURNAL_READ["resume"]["state"]


def test_the_snapshots_pickled_before_issue_32_still_load_where_the_rules_moved(old_journal):
    """They name their types under companion.games.<game>, where the rules lived before
    each game had its folder: read from the snapshot, not replayed from the setup."""
    with Journal.open(old_journal) as journal:
        blobs = [row[0] for row in journal.query("SELECT data FROM snapshots", ())]
        assert blobs and all(b"companion.games." in blob for blob in blobs)
        found = load_unfinished(journal)
        assert isinstance(found, Resumable) and found.snapshot_seq is not None
        update = Session(journal).resume()
        assert update is not None
        assert games.get(update.game).state_json(update.state) == JOURNAL_READ["resume"]["state"]
