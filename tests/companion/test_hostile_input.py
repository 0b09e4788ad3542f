"""Issue 9, findings 6, 8 and 10: hostile input gets one sentence, never a traceback.

Bounded reads (FIFO, /dev/zero, closed stdin), huge config integers, deep nesting, NUL
in data_dir, lone surrogates and control characters in names, and messages that quote
at most 80 characters of what they were given.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from companion.config import load_config
from companion.errors import BadSetup, ConfigError, JournalError
from companion.journal import Journal
from companion.safe_text import MAX_QUOTED, quote
from companion.transcript import replay_lines
from games.revenge.rules import Setup

REPO = Path(__file__).resolve().parents[2]
SETUP = {"type": "setup", "players": ["Ana", "Ben"]}


def cli(*args: str, cwd: Path | None = None, **kw) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    env.pop("SORRY_COMPANION_CONFIG", None)
    return subprocess.run([sys.executable, "-m", "companion.cli", *args], capture_output=True,
                          text=True, env=env, cwd=cwd, timeout=60, **kw)


def one_sentence(stderr: str) -> str:
    assert "Traceback" not in stderr
    [line] = stderr.splitlines()
    return line


# --- config (finding 6) ---

@pytest.mark.parametrize("text, says", [
    ("[game]\npawns = 1" + "0" * 400 + "\n", "[game] pawns = a whole number of more than 70"),
    ("[windows]\nsteal_seconds = 1" + "0" * 400 + "\n", "[windows] steal_seconds = a whole"),
    ("[game]\npawns = 1" + "0" * 5000 + "\n", "is not valid TOML"),
    ("x = " + "[" * 5000 + "]" * 5000 + "\n", "nested too deeply"),
    ('data_dir = "/tmp/a\\u0000b"\n', "data_dir"),
])
def test_config_values_that_gave_tracebacks_are_one_sentence(tmp_path: Path, text, says):
    (tmp_path / "bad.toml").write_text(text)
    with pytest.raises(ConfigError) as err:
        load_config(tmp_path / "bad.toml")
    assert says in str(err.value)
    assert len(str(err.value)) < 400
    done = cli("--config", "bad.toml", "history", cwd=tmp_path)
    assert done.returncode == 2
    assert one_sentence(done.stderr).startswith("sorry-companion: bad.toml: ")


def test_a_config_that_is_a_fifo_or_a_device_is_refused_at_once(tmp_path: Path):
    fifo = tmp_path / "config.toml"
    os.mkfifo(fifo)
    for path in (fifo, Path("/dev/zero")):
        done = cli("--config", str(path), "history", cwd=tmp_path)
        assert done.returncode == 2
        assert "not a regular file" in one_sentence(done.stderr)


def test_a_huge_config_file_is_refused(tmp_path: Path):
    big = tmp_path / "big.toml"
    big.write_text("# " + "x" * (2 << 20) + "\n")
    with pytest.raises(ConfigError, match="larger than 1 MiB"):
        load_config(big)


# --- replay (findings 6 and 8) ---

def test_replay_of_dev_zero_a_fifo_and_a_closed_stdin(tmp_path: Path):
    done = cli("replay", "/dev/zero")
    assert done.returncode == 2 and "not a regular file" in one_sentence(done.stderr)
    fifo = tmp_path / "t.jsonl"
    os.mkfifo(fifo)
    done = cli("replay", str(fifo))
    assert done.returncode == 2 and "not a regular file" in one_sentence(done.stderr)
    done = cli("replay", "-", stdin=subprocess.DEVNULL)
    assert done.returncode == 1  # an empty transcript: no setup
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    closed = subprocess.run(
        f"{sys.executable} -m companion.cli replay - <&-", shell=True, capture_output=True,
        text=True, env=env, timeout=60)
    assert closed.returncode == 2
    assert "standard input is closed" in one_sentence(closed.stderr)


def test_replay_of_stdin_is_bounded():
    feeder = subprocess.Popen(["cat", "/dev/zero"], stdout=subprocess.PIPE)
    try:
        done = cli("replay", "-", stdin=feeder.stdout)
    finally:
        feeder.kill()
        feeder.wait()
    assert done.returncode == 2 and "larger than" in one_sentence(done.stderr)


@pytest.mark.parametrize("name", ["\ud800", "A\x1b[2Jna", "Be\nn", "Cy\u202e", "x" * 41])
def test_bad_names_are_refused_at_setup_in_transcripts_and_in_the_journal(tmp_path, name):
    with pytest.raises(BadSetup):
        Setup.create([name, "Zed"])
    line = json.dumps({"type": "setup", "players": [name, "Zed"]})
    result = replay_lines([line])
    assert result.error is not None and result.error.line == 1
    assert "\x1b" not in str(result.error) and "\n" not in str(result.error)
    with Journal.open(tmp_path) as journal:
        with pytest.raises(JournalError):
            journal.start_game({"type": "setup", "players": [name, "Zed"]})
        gid = journal.start_game(SETUP)
        with pytest.raises(JournalError):
            journal.append(gid, {"type": "press", "player": name})
        assert len(journal.load(gid).events) == 1


def test_replay_cli_with_a_surrogate_name_is_one_sentence(tmp_path: Path):
    path = tmp_path / "t.jsonl"
    path.write_text('{"type":"setup","players":["\\ud800","Ben"]}\n')
    done = cli("replay", str(path))
    assert done.returncode == 1
    assert one_sentence(done.stderr).startswith("line 1: ")


# --- quoting (finding 10) ---

def test_quote_clips_and_escapes():
    assert quote("ok") == "'ok'"
    long = quote("é" * 10_000_000)
    assert long.count("é") == MAX_QUOTED and "10000000 characters" in long
    assert quote("\x1b[31mred\x07") == "'\\x1b[31mred\\x07'"
    assert "\n" not in quote("a\nb") and "\\u" in quote("\ud800")


@pytest.mark.parametrize("obj", [
    {"type": "play", "card": "Q" * 5000},
    {"type": "x" * 5000},
    {"type": "setup", "players": ["Ana", "Ben"], "first": "\x1b]0;pwned\x07" + "z" * 5000},
    {"type": "setup", "players": ["Ana", "Ben"], "colors": ["red", "r" * 5000]},
    {"type": "setup", "players": ["Ana", "Ben"], "variant": "v" * 5000},
    {"type": "tiebreak", "player": "Ana", "total": "t" * 5000},
])
def test_messages_quote_at_most_80_characters_of_the_bad_input(obj):
    result = replay_lines([json.dumps(SETUP), json.dumps(obj)] if obj["type"] != "setup"
                          else [json.dumps(obj)])
    message = str(result.error)
    assert len(message) < 400, message
    assert "\x1b" not in message and "\x07" not in message


def test_replay_cli_never_prints_a_terminal_escape(tmp_path: Path):
    path = tmp_path / "t.jsonl"
    path.write_text(json.dumps(SETUP) + "\n"
                    + json.dumps({"type": "press", "player": "\x1b[2J" + "B" * 9000}) + "\n")
    done = cli("replay", str(path))
    assert done.returncode == 1
    line = one_sentence(done.stderr)
    assert "\x1b" not in line and len(line) < 300


def test_config_messages_quote_at_most_80_characters(tmp_path: Path):
    (tmp_path / "c.toml").write_text('language = "' + "\\u001b" + "x" * 9000 + '"\n')
    with pytest.raises(ConfigError) as err:
        load_config(tmp_path / "c.toml")
    assert len(str(err.value)) < 400 and "\x1b" not in str(err.value)


def test_fifo_reader_never_blocks(tmp_path: Path):
    """read_bounded opens without blocking: a FIFO nobody writes to is refused at once."""
    from companion.limits import InputRefused, read_bounded

    fifo = tmp_path / "f"
    os.mkfifo(fifo)
    outcome: list[object] = []
    reader = threading.Thread(target=lambda: outcome.append(_try(read_bounded, fifo, 10)))
    reader.start()
    reader.join(timeout=30)
    assert not reader.is_alive() and isinstance(outcome[0], InputRefused)


def _try(fn, *args):
    try:
        return fn(*args)
    except Exception as exc:  # the test looks at which
        return exc
