"""`history`, `stats` and `export` as real subprocesses on a real journal.

The games are played through Session(Journal), as the app plays them; the export of a
game with undo and redo, replayed by `sorry-companion replay --json`, must give the
very state the live game had.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from companion.journal import Journal
from companion.session import Session
from games.revenge.rules import Card, Play, Press
from games.revenge.rules.events import Setup

REPO = Path(__file__).resolve().parents[2]
SCRIPT = Path(sys.executable).with_name("sorry-companion")
CLI = [str(SCRIPT)] if SCRIPT.exists() else [sys.executable, "-m", "companion.cli"]


def cli(*args: str, cwd: Path, home: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "HOME": str(home), "PYTHONPATH": str(REPO)}
    for var in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "SORRY_COMPANION_CONFIG"):
        env.pop(var, None)
    return subprocess.run([*CLI, *args], capture_output=True, text=True, cwd=cwd, env=env,
                          timeout=60)


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Two games in a journal: one won, one still running after undo and redo."""
    root = tmp_path_factory.mktemp("played")
    data = root / "data"
    with Journal.open(data) as journal:
        s = Session(journal)
        s.new_game(Setup.create(["Ana", "Ben", "Cleo"], pawns=2))
        for card in ("10", "10", "5"):  # Cleo busts: Ana and Ben advance
            s.submit(Play(Card.parse(card)))
        for card in ("10", "10", "1"):  # Cleo reaches 21 ...
            s.submit(Play(Card.parse(card)))
        s.submit(Press("Ben", 1.0))  # ... Ben calls SORRY! and steals: he wins
        s.close_window()
        won = s.state.to_json()  # type: ignore[union-attr]
        s.new_game(Setup.create(["ana", "Dev"]))
        for card in ("10", "5", "6"):  # ana reaches 21 ...
            s.submit(Play(Card.parse(card)))
        s.submit(Press("Dev", 2.0))  # ... Dev calls ...
        s.submit(Press("ana", 2.1))  # ... ana blocks
        s.submit(Play(Card.parse("7")))
        s.submit(Play(Card.parse("9")))
        s.undo()
        s.undo()
        s.redo()
        s.submit(Play(Card.parse("switch")))
        live = s.state.to_json()  # type: ignore[union-attr]
    home = root / "home"
    home.mkdir()
    return {"data": data, "home": home, "root": root, "won": won, "live": live}


def test_history_lists_every_game(played: dict[str, Any]) -> None:
    done = cli("--data", str(played["data"]), "history", cwd=played["root"],
               home=played["home"])
    assert done.returncode == 0 and done.stderr == ""
    header, first, second = done.stdout.splitlines()
    assert header.split() == ["ID", "GAME", "STARTED", "PLAYERS", "WINNER", "ROUNDS"]
    assert first.split()[1] == second.split()[1] == "revenge"
    assert first.split()[0] == "1" and "Ana, Ben, Cleo" in first
    assert first.split()[-2:] == ["Ben", "2"]
    assert second.split()[0] == "2" and "ana, Dev" in second
    assert second.split()[-2:] == ["unfinished", "1"]
    assert first.rindex("Ben") == second.index("unfinished") == header.index("WINNER")
    assert len({len(line) for line in (header, first, second)}) == 1  # ROUNDS right-aligned


def test_history_json(played: dict[str, Any]) -> None:
    done = cli("--data", str(played["data"]), "history", "--json", cwd=played["root"],
               home=played["home"])
    assert done.returncode == 0
    games = json.loads(done.stdout)
    assert [(g["id"], g["game"], g["players"], g["winner"], g["rounds"], g["events"])
            for g in games] == [
        (1, "revenge", ["Ana", "Ben", "Cleo"], "Ben", 2, 8),
        (2, "revenge", ["ana", "Dev"], None, 1, 11),
    ]
    assert games[0]["finished"] is not None and games[1]["finished"] is None


def test_stats_table_and_json(played: dict[str, Any]) -> None:
    done = cli("--data", str(played["data"]), "stats", cwd=played["root"],
               home=played["home"])
    assert done.returncode == 0 and done.stderr == ""
    lines = done.stdout.splitlines()
    assert lines[0] == ("PLAYER  GAMES  WINS  ROUNDS WON  BUSTS  STEALS MADE  "
                        "STEALS BLOCKED")
    rows = {line.split()[0]: [int(x) for x in line.split()[1:]] for line in lines[1:-1]}
    # finished games only: ana's block and Dev's game are in the game still running
    #                 games wins rounds busts steals blocked
    assert rows == {"Ben": [1, 1, 1, 0, 1, 0],
                    "Ana": [1, 0, 0, 0, 0, 0],
                    "Cleo": [1, 0, 0, 1, 0, 0]}
    assert lines[-1] == "Not counted (not finished or abandoned; `history` lists them): 1"
    assert len({len(line) for line in lines[:-1]}) == 1  # right-aligned columns
    done = cli("--data", str(played["data"]), "stats", "--json", cwd=played["root"],
               home=played["home"])
    assert json.loads(done.stdout)[0] == {"game": "revenge", "name": "Ben", "games": 1, "wins": 1,
                                          "rounds_won": 1, "busts": 0, "steals": 1,
                                          "steals_blocked": 0}


def test_export_then_replay_gives_the_live_state(played: dict[str, Any]) -> None:
    root, home = played["root"], played["home"]
    done = cli("--data", str(played["data"]), "export", "-o", "newest.jsonl", cwd=root,
               home=home)
    assert done.returncode == 0, done.stderr
    lines = (root / "newest.jsonl").read_text(encoding="utf-8").splitlines()
    with Journal.open(played["data"]) as journal:
        assert [json.loads(line) for line in lines] == journal.load(2).events
    assert json.loads(lines[0])["type"] == "setup"
    assert [json.loads(line)["type"] for line in lines].count("undo") == 2
    replayed = cli("replay", "--json", "newest.jsonl", cwd=root, home=home)
    assert replayed.returncode == 0, replayed.stderr
    assert json.loads(replayed.stdout) == played["live"]
    done = cli("--data", str(played["data"]), "export", "1", cwd=root, home=home)
    (root / "first.jsonl").write_text(done.stdout, encoding="utf-8")
    replayed = cli("replay", "--json", "first.jsonl", cwd=root, home=home)
    assert json.loads(replayed.stdout) == played["won"]


def test_export_of_an_unknown_game_is_one_sentence(played: dict[str, Any]) -> None:
    done = cli("--data", str(played["data"]), "export", "99", cwd=played["root"],
               home=played["home"])
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.splitlines() == [
        "sorry-companion: there is no game 99 in the journal; `sorry-companion history` "
        "lists the stored games"]


def test_data_option_beats_the_config_key(played: dict[str, Any], tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    (tmp_path / "c.toml").write_text(f'data_dir = "{empty}"\n', encoding="utf-8")
    done = cli("--config", "c.toml", "history", cwd=tmp_path, home=played["home"])
    assert done.returncode == 0
    assert done.stdout == f"No games are stored yet in {empty}.\n"
    assert not empty.exists()  # listing never creates a journal
    done = cli("--config", "c.toml", "--data", str(played["data"]), "history", cwd=tmp_path,
               home=played["home"])
    assert done.stdout.count("\n") == 3


def test_nothing_stored_yet(tmp_path: Path) -> None:
    home = tmp_path / "home"
    done = cli("stats", cwd=tmp_path, home=home)
    assert done.returncode == 0 and done.stdout == "No games are stored yet.\n"
    done = cli("export", cwd=tmp_path, home=home)
    assert done.returncode == 1 and "there is nothing to export" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_damaged_row_is_reported_and_the_rest_still_listed(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with Journal.open(data) as journal:
        s = Session(journal)
        s.new_game(Setup.create(["Ana", "Ben"]))
        for card in ("10", "10", "5", "3", "4"):
            s.submit(Play(Card.parse(card)))
    conn = sqlite3.connect(data / "journal.sqlite3")
    conn.execute("UPDATE events SET json = 'garbage' WHERE seq = 4")
    conn.commit()
    conn.close()
    done = cli("--data", str(data), "history", cwd=tmp_path, home=tmp_path)
    assert done.returncode == 0
    assert done.stdout.splitlines()[1].split()[-2:] == ["unfinished", "1"]
    assert done.stderr.startswith("sorry-companion: game 1: event 4 was damaged (its checksum")
    assert "and the 1 events after it" in done.stderr and "the journal itself is unchanged" \
        in done.stderr
    assert len(done.stderr.splitlines()) == 1
    conn = sqlite3.connect(data / "journal.sqlite3")
    assert conn.execute("SELECT COUNT(*) FROM events WHERE seq >= 4").fetchone()[0] == 2
    assert conn.execute("SELECT COUNT(*) FROM set_aside").fetchone()[0] == 0  # only looked
    conn.close()


@pytest.mark.parametrize("content", [b"", b"not a database at all" * 100])
def test_commands_that_only_look_never_change_a_file_they_cannot_use(tmp_path: Path,
                                                                    content: bytes) -> None:
    data = tmp_path / "data"
    data.mkdir()
    (data / "journal.sqlite3").write_bytes(content)
    for command in ("history", "stats", "export"):
        done = cli("--data", str(data), command, cwd=tmp_path, home=tmp_path)
        assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
        assert "start the app once" in done.stderr
    assert sorted(p.name for p in data.iterdir()) == ["journal.sqlite3"]
    assert (data / "journal.sqlite3").read_bytes() == content
