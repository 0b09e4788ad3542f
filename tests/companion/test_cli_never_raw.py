"""Issue 21, findings 11 and 12: the real command line, run as a subprocess, never shows a
traceback (closed streams, `~nosuchuser` paths) and never lets a control or bidi
character from outside reach the terminal raw (JSON output included)."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import unicodedata
import zlib
from pathlib import Path

import pytest

from companion import journal_chain
from companion.journal import Journal

REPO = Path(__file__).resolve().parents[2]
POSITION = '{"edition": "classic", "pawns": {"red": ["START", "T4", "S2", "HOME"]}}'
NASTY = "\x1b[2J\x07\u009b31m\u202eAna"  # ESC, BEL, C1 CSI, right-to-left override


def cli(*args: str, shell_redirect: str = "", cwd: Path | None = None,
        stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """The console script through sh, so `<&-` and `>&-` close a stream for real."""
    env = {**os.environ, "PYTHONPATH": str(REPO), "HOME": str(cwd or REPO)}
    env.pop("SORRY_COMPANION_CONFIG", None)
    command = f'"{sys.executable}" -m companion.cli "$@" {shell_redirect}'
    return subprocess.run(["sh", "-c", command, "sh", *args], capture_output=True, text=True,
                          env=env, cwd=cwd, timeout=120, input=stdin)


def raw_controls(text: str) -> list[str]:
    """Characters a terminal would act on: controls (but newline and tab), C1, bidi."""
    return [f"U+{ord(c):04X}" for c in text if c not in "\n\t" and
            unicodedata.category(c) in ("Cc", "Cf", "Cs", "Zl", "Zp")]


def clean(done: subprocess.CompletedProcess[str]) -> subprocess.CompletedProcess[str]:
    for stream in (done.stdout, done.stderr):
        assert "Traceback" not in stream, stream[-2000:]
        assert not raw_controls(stream), (raw_controls(stream), stream[:500])
    assert all(len(line) < 600 for line in done.stderr.splitlines()), done.stderr[:800]
    return done


@pytest.mark.parametrize("args", [
    ("board", "options", "-", "--card", "1", "--color", "red"),
    ("replay", "-"),
])
def test_a_closed_stdin_is_one_sentence(args: tuple[str, ...]) -> None:
    done = clean(cli(*args, shell_redirect="<&-"))
    assert done.returncode == 2
    assert "standard input is closed" in done.stderr


@pytest.mark.parametrize("args", [("history",), ("stats",), ("replay", "game.jsonl"),
                                  ("simulate", "--games", "1")])
def test_a_closed_stdout_is_one_sentence(tmp_path: Path, args: tuple[str, ...]) -> None:
    (tmp_path / "game.jsonl").write_text('{"type": "setup", "players": ["Ana", "Ben"]}\n')
    with Journal.open(tmp_path / "data") as journal:
        journal.start_game({"type": "setup", "players": ["Ana", "Ben"]})
    done = clean(cli("--data", str(tmp_path / "data"), *args, shell_redirect=">&-",
                     cwd=tmp_path))
    assert done.returncode == 1
    assert done.stderr.strip() == "sorry-companion: could not write the output: standard " \
        "output is closed"


def test_an_unknown_users_home_in_data_or_data_dir_is_one_sentence(tmp_path: Path) -> None:
    done = clean(cli("--data", "~nosuchuser21/x", "history", cwd=tmp_path))
    assert done.returncode == 2
    assert "'~nosuchuser21', the home folder of a user this machine does not know" \
        in done.stderr
    (tmp_path / "c.toml").write_text('data_dir = "~nosuchuser21/games"\n')
    done = clean(cli("--config", "c.toml", "history", cwd=tmp_path))
    assert done.returncode == 2
    assert done.stderr.startswith("sorry-companion: c.toml: data_dir '~nosuchuser21/games'")


def test_outside_input_is_echoed_escaped_and_at_most_80_characters(tmp_path: Path) -> None:
    (tmp_path / "pos.json").write_text(POSITION)
    long_nasty = NASTY + "x" * 10_000
    for args in (("board", "options", "pos.json", "--card", "1", "--color", long_nasty),
                 ("board", "options", long_nasty, "--card", "1", "--color", "red"),
                 ("replay", long_nasty), ("export", long_nasty),
                 ("simulate", "--games", long_nasty), ("simulate", "--game", long_nasty)):
        done = clean(cli(*args, cwd=tmp_path))
        assert done.returncode in (1, 2), args
        assert "x" * 81 not in done.stderr, args[:2]


@pytest.mark.parametrize("game", ["board", "revenge"])
def test_a_setups_colors_given_as_a_string_is_quoted(tmp_path: Path, game: str) -> None:
    setup = {"type": "setup", "game": game, "players": ["Ana", "Ben"], "colors": NASTY}
    (tmp_path / "t.jsonl").write_text(json.dumps(setup) + "\n")
    done = clean(cli("replay", "t.jsonl", cwd=tmp_path))
    assert done.returncode == 1
    assert "\\x1b[2J\\x07" in done.stderr


def strings(value: object) -> list[str]:
    if isinstance(value, dict):
        return [s for v in value.values() for s in strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in strings(v)]
    return [value] if isinstance(value, str) else []


def crafted_journal(data: Path) -> None:
    """A journal whose stored names carry terminal escapes, as a hostile file could."""
    with Journal.open(data) as journal:
        journal.start_game({"type": "setup", "players": ["Ana", "Ben"]})
    conn = sqlite3.connect(data / "journal.sqlite3")
    text = json.dumps({"type": "setup", "players": [NASTY, "Ben"]}, ensure_ascii=False)
    raw = text.encode()  # its checksum and its chain (journal_chain) made to match
    conn.execute("UPDATE events SET json = ?, crc = ?, chain = ? WHERE seq = 0",
                 (text, zlib.crc32(raw), journal_chain.link(journal_chain.start(1), raw)))
    conn.execute("UPDATE games SET players = ?", (json.dumps([NASTY, "Ben"],
                                                              ensure_ascii=False),))
    conn.commit()
    conn.close()


@pytest.mark.parametrize("args", [("history", "--json"), ("history",), ("export",),
                                  ("stats", "--json")])
def test_json_and_tables_from_a_crafted_journal_carry_no_raw_escape(
        tmp_path: Path, args: tuple[str, ...]) -> None:
    crafted_journal(tmp_path / "data")
    done = clean(cli("--data", str(tmp_path / "data"), *args, cwd=tmp_path))
    assert done.returncode == 0, done.stderr
    if args in (("history", "--json"), ("export",)):
        first = done.stdout.splitlines()[0]
        assert NASTY in strings(json.loads(first))  # the same data, only written safely
        assert "\\u202e" in first and "\\u009b" in first


def test_simulate_board_reads_the_config(tmp_path: Path) -> None:
    (tmp_path / "b.toml").write_text('[board]\nedition = "2016"\n')
    done = clean(cli("--config", "b.toml", "simulate", "--game", "board", "--games", "1",
                     cwd=tmp_path))
    assert done.returncode == 0
    assert "2016 edition" in done.stdout
    done = clean(cli("--config", "b.toml", "simulate", "--game", "board", "--edition",
                     "classic", "--games", "1", cwd=tmp_path))
    assert "classic edition" in done.stdout
