"""TRANSCRIPT.md, row by row, and `sorry-companion replay` as a real subprocess."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from companion.transcript import replay_lines

SETUP = {"type": "setup", "players": ["Ana", "Ben", "Cy"]}


def lines(*objs) -> list[str]:
    return [json.dumps(o) for o in objs]


def state_of(*objs):
    result = replay_lines(lines(SETUP, *objs))
    assert result.error is None, result.error
    return result.game.state.to_json()


def error_of(*objs) -> str:
    result = replay_lines(lines(*objs))
    assert result.error is not None
    return str(result.error)


def test_setup_row_defaults_and_options():
    s = state_of()
    assert s["turn"] == "Ana" and s["pawns"] == 4 and s["variant"] == "standard"
    assert [p["color"] for p in s["players"]] == ["red", "blue", "yellow"]
    s = replay_lines(lines({"type": "setup", "players": ["Ana", "Ben"], "first": "Ben",
                            "colors": ["green", "yellow"], "pawns": 2,
                            "variant": "long"})).game.state.to_json()
    assert s["turn"] == "Ben" and s["goal"] == 4 and s["pawns"] == 2
    assert [p["color"] for p in s["players"]] == ["green", "yellow"]


def test_play_row_with_player_check_and_target():
    assert state_of({"type": "play", "card": "7", "player": "Ana"})["total"] == 7
    assert "it is Ana's turn" in error_of(SETUP, {"type": "play", "card": "7", "player": "Ben"})


def test_press_row_earliest_t_wins_and_close_row():
    s = state_of(*[{"type": "play", "card": c} for c in ("10", "10", "1")],
                 {"type": "press", "player": "Ben", "t": 2.5},
                 {"type": "press", "player": "Ana", "t": 2.4})
    assert s["awaiting"] == "block" and s["window"]["caller"] == "Ana"
    s = state_of(*[{"type": "play", "card": c} for c in ("10", "10", "1")],
                 {"type": "press", "player": "Ben"}, {"type": "close"})
    assert [p["progress"] for p in s["players"]] == [0, 1, 0]


def test_end_play2_row():
    s = state_of({"type": "play", "card": "play2"}, {"type": "end_play2"})
    assert s["turn"] == "Ben" and s["awaiting"] is None


def test_tiebreak_row():
    setup = dict(SETUP, pawns=1)
    objs = [setup, {"type": "play", "card": "slide:20"}, {"type": "play", "card": "0"},
            {"type": "play", "card": "5"},
            {"type": "tiebreak", "player": "Ana", "total": 19},
            {"type": "tiebreak", "player": "Ben", "total": 21}]
    s = replay_lines(lines(*objs)).game.state.to_json()
    assert s["winner"] == "Ben" and s["turn"] is None and s["tied"] == []


def test_undo_redo_rows():
    s = state_of({"type": "play", "card": "7"}, {"type": "undo"})
    assert s["total"] == 0 and s["turn"] == "Ana"
    s = state_of({"type": "play", "card": "7"}, {"type": "undo"}, {"type": "redo"})
    assert s["total"] == 7 and s["turn"] == "Ben"


def test_unknown_keys_are_ignored_blank_lines_skipped():
    result = replay_lines(["", json.dumps(dict(SETUP, table="kitchen")), "   ",
                           json.dumps({"type": "play", "card": "3", "note": "x"})])
    assert result.error is None and result.game.state.total == 3


@pytest.mark.parametrize("objs, reason", [
    ([SETUP, {"type": "jump"}], "line 2: unknown event type 'jump'"),
    ([{"type": "play", "card": "3"}], "line 1: the first event must be a setup"),
    ([SETUP, SETUP], "line 2: a game has one setup"),
    ([SETUP, {"type": "press"}], "line 2: press needs 'player'"),
    ([SETUP, {"type": "press", "player": "Ana", "t": "soon"}], "line 2: press 't' must be"),
    ([SETUP, {"type": "tiebreak", "player": "Ana", "total": -1}], "line 2: tiebreak 'total'"),
    ([SETUP, {"type": "close"}], "line 2: no SORRY! window is open"),
    ([{"type": "setup", "players": ["Ana"]}], "line 1: a game needs 2 to 4 players"),
])
def test_errors_name_the_line_and_the_reason(objs, reason):
    assert error_of(*objs).startswith(reason)


def test_invalid_json_and_empty_transcript():
    assert str(replay_lines([json.dumps(SETUP), "{oops"]).error).startswith(
        "line 2: not valid JSON")
    assert "no setup" in str(replay_lines([]).error)


def run_cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "companion.cli", *args], input=stdin,
                          capture_output=True, text=True, timeout=60)


def test_replay_cli_json_state_shape(tmp_path: Path):
    path = tmp_path / "game.jsonl"
    path.write_text("\n".join(lines(SETUP, {"type": "play", "card": "10"},
                                    {"type": "play", "card": "switch"})) + "\n")
    done = run_cli("replay", str(path), "--json")
    assert done.returncode == 0, done.stderr
    state = json.loads(done.stdout)
    for key in ("players", "total", "direction", "turn", "round", "awaiting", "winner", "tied",
                "draw_pile"):
        assert key in state
    assert state["players"][0] == {"name": "Ana", "color": "red", "progress": 0, "home": 0,
                                   "hand": 5}
    assert state["total"] == 10 and state["direction"] == "reverse" and state["turn"] == "Ana"
    assert state["round"] == 1 and state["draw_pile"] == 93 - 15 - 2


def test_replay_cli_stops_at_the_bad_line_with_the_state_before(tmp_path: Path):
    path = tmp_path / "game.jsonl"
    path.write_text("\n".join(lines(SETUP, {"type": "play", "card": "4"},
                                    {"type": "play", "card": "slide:30"},
                                    {"type": "play", "card": "5"})) + "\n")
    done = run_cli("replay", str(path), "--json")
    assert done.returncode == 1
    assert done.stderr.startswith("line 3: there is no card 'slide:30'")
    assert "Traceback" not in done.stderr
    assert json.loads(done.stdout)["total"] == 4


def test_replay_cli_unreadable_file_exits_2(tmp_path: Path):
    done = run_cli("replay", str(tmp_path / "missing.jsonl"))
    assert done.returncode == 2 and "cannot read" in done.stderr
    done = run_cli("replay", str(tmp_path))
    assert done.returncode == 2 and "Traceback" not in done.stderr


def test_replay_cli_reads_stdin_and_prints_a_summary():
    done = run_cli("replay", "-", stdin="\n".join(lines(SETUP, {"type": "play", "card": "9"})))
    assert done.returncode == 0
    assert "total 9" in done.stdout and "next: Ben" in done.stdout


def test_replay_works_from_a_no_deps_install(tmp_path: Path):
    """`pip install --no-deps` into a bare venv: replay needs nothing but the core."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    root = Path(__file__).resolve().parents[2]
    pip = [sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python")]
    probe = subprocess.run([*pip, "--version"], capture_output=True, text=True)
    if probe.returncode != 0:  # pip older than 22.3 has no --python: use the venv's own
        subprocess.run([sys.executable, "-m", "venv", "--clear", str(venv)], check=True)
        pip = [str(venv / "bin" / "python"), "-m", "pip"]
    subprocess.run([*pip, "install", "-q", "--no-deps", str(root)],
                   check=True, capture_output=True, timeout=300)
    path = tmp_path / "game.jsonl"
    path.write_text("\n".join(lines(SETUP, {"type": "play", "card": "6"})))
    done = subprocess.run([str(venv / "bin" / "sorry-companion"), "replay", str(path), "--json"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["total"] == 6
    check = subprocess.run([str(venv / "bin" / "python"), "-c", "import kivy"],
                           capture_output=True)
    assert check.returncode != 0  # really a bare install: no Kivy there


def test_first_is_matched_ignoring_case():
    s = replay_lines(lines({"type": "setup", "players": ["Ana", "Ben"], "first": "ben"}))
    assert s.error is None and s.game.state.turn_name == "Ben"


@pytest.mark.parametrize("bad_line, reason", [
    ("[" * 100_000, "line 2: not a usable JSON line (nested too deeply)"),
    ('{"type": "press", "player": "Ana", "t": 1' + "0" * 400 + "}",
     "line 2: press 't' must be a number of seconds, not a huge number"),
    ('{"type": "tiebreak", "player": "Ana", "total": 1' + "0" * 5000 + "}",
     "line 2: not a usable JSON line"),
])
def test_hostile_lines_are_that_lines_error_not_a_crash(bad_line, reason):
    result = replay_lines([json.dumps(SETUP), bad_line])
    assert str(result.error).startswith(reason)
    assert result.game is not None and result.events == 1


def test_a_line_that_is_not_utf8_keeps_every_line_before_it(tmp_path: Path):
    path = tmp_path / "game.jsonl"
    path.write_bytes(b"\n".join([json.dumps(SETUP).encode(),
                                 b'{"type":"play","card":"4"}', b"\xff\xfe{", b""]))
    done = run_cli("replay", str(path), "--json")
    assert done.returncode == 1
    assert done.stderr.startswith("line 3: not UTF-8 text")
    assert json.loads(done.stdout)["total"] == 4


def test_output_to_a_full_disk_or_a_closed_pipe_is_a_sentence_not_a_traceback(tmp_path: Path):
    path = tmp_path / "game.jsonl"
    path.write_text("\n".join(lines(SETUP, {"type": "play", "card": "4"})))
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "companion.cli", "replay", str(path),
                               "--json"], stdout=full, stderr=subprocess.PIPE, text=True,
                              timeout=60)
    assert done.returncode == 1
    assert done.stderr == "sorry-companion: could not write the output: No space left on device\n"
    reader = subprocess.Popen([sys.executable, "-m", "companion.cli", "simulate", "--games",
                               "300", "--players", "2", "--seed", "1", "--out", str(tmp_path)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    reader.stdout.close()  # the reader goes away before the writer is done
    assert reader.wait(timeout=120) in (0, 1)
    assert b"Traceback" not in reader.stderr.read()
