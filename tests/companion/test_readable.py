"""`export --csv` and `history --html`: the finished games in forms a family reads, run as
real subprocesses on a real journal played through a Session."""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from test_history_cli import cli

from companion.commands.finished import Finished
from companion.commands.readable import html_page
from companion.journal import GameRecord, Journal
from companion.session import Session
from companion.stats import GameStats, PlayerStats
from games.revenge.rules import Card, Play, Press
from games.revenge.rules.events import Setup


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A finished game (Zoé steals the win) and an unfinished one."""
    root = tmp_path_factory.mktemp("readable")
    data = root / "data"
    with Journal.open(data) as journal:
        s = Session(journal)
        s.new_game(Setup.create(["Ana", "Zoé", "Cleo"], pawns=2))
        for card in ("10", "10", "5", "10", "10", "1"):  # Cleo busts, then reaches 21
            s.submit(Play(Card.parse(card)))
        s.submit(Press("Zoé", 1.0))  # Zoé steals it and wins
        s.close_window()
        s.new_game(Setup.create(["Ana", "Dev"]))
        s.submit(Play(Card.parse("7")))
    home = root / "home"
    home.mkdir()
    return {"data": data, "home": home, "root": root}


def run(played: dict[str, Path], *args: str) -> Any:
    return cli("--data", str(played["data"]), *args, cwd=played["root"], home=played["home"])


def test_export_csv_has_a_row_per_player_of_each_finished_game(played):
    done = run(played, "export", "--csv")
    assert done.returncode == 0
    assert done.stdout.startswith("\ufeff")  # so that a spreadsheet reads "Zoé" as written
    rows = list(csv.DictReader(io.StringIO(done.stdout.removeprefix("\ufeff"))))
    assert [(r["game_id"], r["player"], r["seat"], r["won"]) for r in rows] == [
        ("1", "Ana", "1", "0"), ("1", "Zoé", "2", "1"), ("1", "Cleo", "3", "0")]
    assert rows[1]["steals"] == "1" and rows[1]["rounds_won"] == "1"
    assert rows[2]["busts"] == "1"
    assert datetime.strptime(rows[0]["finished"], "%Y-%m-%d %H:%M")
    assert done.stderr.strip() == ("finished: 1 game written; 1 not finished or given up, "
                                   "left out")


def test_stats_csv_and_page_count_the_same_games_and_leave_out_the_same(played):
    """One loop (companion.commands.finished) reads the finished games for all three."""
    stats = run(played, "stats")
    page = run(played, "history", "--html")
    assert "Not counted (not finished or abandoned; `history` lists them): 1" in stats.stdout
    assert "1 not finished or given up, left out" in run(played, "export", "--csv").stderr
    assert "Finished: 1 game" in page.stdout and "Not shown: 1 game not finished" in page.stdout
    zoe = next(line for line in stats.stdout.splitlines() if line.startswith("Zoé"))
    assert zoe.split()[1:3] == ["1", "1"]  # one game, one win: the finished game only


def test_export_csv_to_a_file(played, tmp_path):
    out = tmp_path / "games.csv"
    done = run(played, "export", "--csv", "-o", str(out))
    assert done.returncode == 0 and done.stdout == ""
    with open(out, encoding="utf-8-sig", newline="") as f:
        assert len(list(csv.reader(f))) == 4  # the heading and three players


def test_export_csv_with_a_game_id_says_what_to_do(played):
    done = run(played, "export", "--csv", "2")
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.strip() == ("sorry-companion: --csv writes every finished game; leave "
                                   "out GAME_ID, or drop --csv to export that one game as a "
                                   "transcript")


def test_export_csv_with_no_journal_is_a_heading_alone(tmp_path):
    done = cli("--data", str(tmp_path / "none"), "export", "--csv", cwd=tmp_path, home=tmp_path)
    assert done.returncode == 0
    assert done.stdout.removeprefix("\ufeff").splitlines() == [
        "game_id,game,started,finished,player,seat,won"]


class _Cells(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.cells: list[str] = []
        self.headings: list[str] = []
        self._in: str | None = None

    def handle_starttag(self, tag: str, attrs: Any) -> None:
        self._in = tag if tag in ("td", "h2") else None

    def handle_endtag(self, tag: str) -> None:
        self._in = None

    def handle_data(self, data: str) -> None:
        if self._in == "td":
            self.cells.append(data)
        elif self._in == "h2":
            self.headings.append(data)


def test_history_html_is_a_page_with_the_results_and_the_leaderboard(played):
    done = run(played, "history", "--html")
    assert done.returncode == 0 and done.stderr == ""
    page = _Cells()
    page.feed(done.stdout)
    assert done.stdout.startswith("<!DOCTYPE html>") and done.stdout.rstrip().endswith("</html>")
    assert page.headings == ["The card game (Sorry! Revenge)"]
    assert page.cells[:5] == ["1", page.cells[1], "Ana, Zoé, Cleo", "Zoé", "2"]
    assert page.cells[5:8] == ["Zoé", "1", "1"]  # the leaderboard: the winner first
    assert "Not shown: 1 game not finished" in done.stdout


def test_history_html_and_json_cannot_be_asked_together(played):
    done = run(played, "history", "--html", "--json")
    assert done.returncode == 2 and "not allowed with argument" in done.stderr


def test_the_page_escapes_what_it_shows():
    record = GameRecord(7, datetime(2026, 1, 2, tzinfo=UTC), None, ("<b>Ana</b>", "Ben & Co"),
                        "Ben & Co", 3)
    stats = GameStats((PlayerStats("<b>Ana</b>", 1, 0), PlayerStats("Ben & Co", 1, 1)),
                      "Ben & Co", 2)
    page = html_page([Finished(record, stats)], 0, printed=datetime(2026, 1, 3, tzinfo=UTC))
    assert "<b>Ana" not in page and "&lt;b&gt;Ana&lt;/b&gt;" in page and "Ben &amp; Co" in page


def test_history_html_to_a_file_and_o_alone_is_refused(played, tmp_path):
    page = tmp_path / "history.html"
    done = run(played, "history", "--html", "-o", str(page))
    assert done.returncode == 0 and done.stdout == ""
    assert page.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert done.stderr.strip() == f"finished: 1 game written to '{page}'"
    alone = run(played, "history", "-o", str(page))
    assert alone.returncode == 1
    assert alone.stderr.strip() == ("sorry-companion: -o writes the page of --html; add "
                                    "--html, or leave out -o to print the list")
