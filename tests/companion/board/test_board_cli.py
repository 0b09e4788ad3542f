"""`sorry-companion board options` exactly as BOARD.md's contract, in a real subprocess for
stdin and exit statuses."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from companion.cli import main

POSITION = {"edition": "classic", "pawns": {"red": ["START", "T20", "S2", "HOME"],
                                            "blue": ["T24", "T26", "START", "START"]}}


def _run(stdin: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "companion.cli", "board", "options", "-", *args],
                          input=stdin, capture_output=True, text=True, timeout=60)


def test_options_json_from_stdin_as_the_contract_says():
    done = _run(json.dumps(POSITION), "--card", "4", "--color", "red", "--json")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["forfeit"] is False and out["draw_again"] is False
    first = out["options"][0]
    assert set(first) >= {"kind", "legs", "pawns", "bumped", "text"}
    assert first == {**first, "kind": "backward", "legs": [["T20", "T19"]], "bumped": [],
                     "text": "T20 back to T16, slides to T19"}
    assert first["pawns"]["red"] == ["START", "T19", "S2", "HOME"]


def _red_two(tmp_path, capsys, red_first: str) -> tuple[str, dict]:
    """A classic 2 for red, whose one pawn in play stands on `red_first` (the rest HOME):
    the position's file and `--json`'s answer."""
    path = tmp_path / "p.json"
    path.write_text(json.dumps({"edition": "classic",
                                "pawns": {"red": [red_first, "HOME", "HOME", "HOME"],
                                          "blue": ["START"] * 4}}))
    assert main(["board", "options", str(path), "--card", "2", "--color", "red", "--json"]) == 0
    return str(path), json.loads(capsys.readouterr().out)


def test_a_forfeit_and_the_classic_two(tmp_path, capsys):
    path, out = _red_two(tmp_path, capsys, "S5")
    assert out["forfeit"] and out["draw_again"] and out["options"] == []
    assert "exact count" in out["reason"]
    assert main(["board", "options", path, "--card", "2", "--color", "red"]) == 0
    text = capsys.readouterr().out
    assert "No move for red" in text and "draw again" in text


@pytest.mark.parametrize("stdin, args, words", [
    (json.dumps(POSITION), ("--card", "6", "--color", "red"), "no card '6'"),
    (json.dumps(POSITION), ("--card", "7", "--color", "green"), "'green' has no pawns"),
    ('{"edition": "classic", "pawns": {"red": ["T1", "T1", "START", "START"]}}',
     ("--card", "7", "--color", "red"), "two red pawns are both on T1"),
    ('{"edition": "classic", "pawns": {"red": ["T1", "START", "START"]}}',
     ("--card", "7", "--color", "red"), "list of 4 locations"),
    ("not json", ("--card", "7", "--color", "red"), "not a JSON position"),
])
def test_bad_position_card_or_colour_is_one_sentence_and_exit_2(stdin, args, words):
    done = _run(stdin, *args)
    assert done.returncode == 2 and done.stdout == ""
    assert words in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert "Traceback" not in done.stderr


def test_a_classic_two_whose_every_option_wins_never_draws_again(tmp_path, capsys):
    """BOARD.md "A turn": never draw again after the move that wins."""
    path, out = _red_two(tmp_path, capsys, "S4")
    assert out["draw_again"] is False and len(out["options"]) == 1
    assert main(["board", "options", path, "--card", "2", "--color", "red"]) == 0
    assert "draw again" not in capsys.readouterr().out.lower()
