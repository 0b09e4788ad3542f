"""Abandoned games (a new game started over a running one, Session.new_game(...,
abandon=True)) are listed as abandoned by `history` and left out of `stats`, the
leaderboard's figures; an unfinished game that was not given up still counts."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from companion.journal import Journal
from companion.session import Session
from companion.stats import aggregate, counted
from games.revenge.rules import Card, Play
from games.revenge.rules.events import Setup

REPO = Path(__file__).resolve().parents[2]
SCRIPT = Path(sys.executable).with_name("sorry-companion")
CLI = [str(SCRIPT)] if SCRIPT.exists() else [sys.executable, "-m", "companion.cli"]


def cli(*args: str, root: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "HOME": str(root / "home"), "PYTHONPATH": str(REPO)}
    for var in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "SORRY_COMPANION_CONFIG"):
        env.pop(var, None)
    (root / "home").mkdir(exist_ok=True)
    return subprocess.run([*CLI, "--data", str(root / "data"), *args], capture_output=True,
                          text=True, cwd=root, env=env, timeout=60)


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Game 1 given up after Ana's two busts; game 2 won by Ben (Ana busts once);
    game 3 left unfinished (Cy busts) without being given up: it stays resumable."""
    root = tmp_path_factory.mktemp("abandoned")
    with Journal.open(root / "data") as journal:
        s = Session(journal)
        s.new_game(Setup.create(["Ana", "Ben"], pawns=4))
        for card in ("10", "10", "5", "9", "10", "1", "5"):  # Ana busts twice
            s.submit(Play(Card.parse(card)))
        assert s.game_stats().players[0].busts == 2  # type: ignore[union-attr]
        s.new_game(Setup.create(["Ana", "Ben"], pawns=1), abandon=True)
        for card in ("10", "10", "5"):  # Ana busts: Ben wins
            s.submit(Play(Card.parse(card)))
        s.new_game(Setup.create(["Cy", "Ben"], pawns=4))  # game over: nothing abandoned
        for card in ("10", "10", "5"):  # Cy busts
            s.submit(Play(Card.parse(card)))
    return root


def test_the_journal_marks_only_the_given_up_game(root: Path) -> None:
    with Journal.open(root / "data") as journal:
        records = journal.games()
    assert [(r.winner, r.abandoned, counted(r)) for r in records] == [
        (None, True, False), ("Ben", False, True), (None, False, False)]


def test_history_lists_the_abandoned_game_as_abandoned(root: Path) -> None:
    done = cli("history", root=root)
    assert done.returncode == 0 and done.stderr == ""
    header, first, second, third = done.stdout.splitlines()
    assert first.split()[-2:] == ["abandoned", "2"]
    assert first.index("abandoned") == header.index("WINNER")
    assert second.split()[-2:] == ["Ben", "1"]
    assert third.split()[-2:] == ["unfinished", "1"]
    listed = json.loads(cli("history", "--json", root=root).stdout)
    assert [g["abandoned"] for g in listed] == [True, False, False]


def test_stats_leave_the_abandoned_and_the_unfinished_game_out(root: Path) -> None:
    done = cli("stats", "--json", root=root)
    assert done.returncode == 0 and done.stderr == ""
    rows = {p["name"]: (p["games"], p["wins"], p["busts"]) for p in json.loads(done.stdout)}
    # Ana busted twice in the abandoned game, Cy once in the open one: only game 2 counts
    # ("Games" is games played to the end, issue 20).
    assert rows == {"Ben": (1, 1, 0), "Ana": (1, 0, 1)}
    table = cli("stats", root=root).stdout.splitlines()
    assert table[-1] == "Not counted (not finished or abandoned; `history` lists them): 2"


def test_the_session_gives_no_figures_for_an_abandoned_game(root: Path) -> None:
    with Journal.open(root / "data") as journal:
        listing: list[Any] = Session(journal).stored_stats({})
    assert [figures is None for _record, figures in listing] == [True, False, True]
    leaders = aggregate(f for _r, f in listing if f is not None)
    assert [(p.name, p.games, p.busts) for p in leaders] == [("Ben", 1, 0), ("Ana", 1, 1)]
