"""Issue 13: names the screen's font cannot draw (emoji, CJK) and names over 16 letters are
refused with one sentence: at setup (both games), in transcripts (`replay`) and in the
journal. The check reads the bundled Roboto's cmap table itself (companion/glyphs.py)."""

from __future__ import annotations

import json
import os
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from companion import glyphs
from companion.errors import BadSetup, JournalError
from companion.games import MAX_NAME, get
from companion.journal import Journal
from companion.transcript import replay_lines
from games.revenge.rules import Setup

REPO = Path(__file__).resolve().parents[2]
ACCENTED = "éèêëàâçîïôûùüœæñ"
UNDRAWABLE = ["Ana 😀", "李雷", "🎲", "Zoé\u200d"]


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    env.pop("SORRY_COMPANION_CONFIG", None)
    return subprocess.run([sys.executable, "-m", "companion.cli", *args], capture_output=True,
                          text=True, env=env, timeout=60)


def test_the_bundled_fonts_are_found_and_read():
    paths = glyphs.font_paths()
    assert [p.name for p in paths] == list(glyphs.FONT_FILES)
    points = glyphs.read_code_points(paths)
    assert len(points) > 500  # Roboto: Latin, Greek, Cyrillic
    assert {ord(c) for c in ACCENTED + ACCENTED.upper()} <= points
    assert points >= glyphs.FALLBACK  # the fallback never allows what the screen cannot draw
    assert 0x1F600 not in points and 0x674E not in points


def test_every_unicode_subtable_of_the_font_gives_the_same_code_points():
    """Format 4 (BMP) and format 12 (full Unicode) are parsed independently: they agree."""
    data = glyphs.font_paths()[0].read_bytes()
    (count,) = struct.unpack_from(">H", data, 4)
    at = next(struct.unpack_from(">4sIII", data, 12 + 16 * i)[2] for i in range(count)
              if data[12 + 16 * i:16 + 16 * i] == b"cmap")
    (subtables,) = struct.unpack_from(">H", data, at + 2)
    found = {}
    for i in range(subtables):
        _p, _e, offset = struct.unpack_from(">HHI", data, at + 4 + 8 * i)
        (fmt,) = struct.unpack_from(">H", data, at + offset)
        found[fmt] = glyphs._subtable(data, at + offset)
    assert set(found) == {4, 12}
    assert found[4] == found[12]


@pytest.mark.parametrize("data", [b"", b"\x00\x01\x00\x00\x00\x01", b"\x00" * 64])
def test_a_broken_font_is_a_font_error(data):
    with pytest.raises(glyphs.FontError):
        glyphs.cmap_code_points(data)


def test_the_check_imports_neither_kivy_nor_ui():
    code = ("import sys; from companion import glyphs; assert glyphs.missing('a\U0001f600');"
            "assert not [m for m in sys.modules if m.split('.')[0] in ('kivy', 'ui')]")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(REPO)}, timeout=60)
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("name", UNDRAWABLE)
def test_an_undrawable_name_is_refused_at_setup_with_one_sentence(name):
    with pytest.raises(BadSetup) as caught:
        Setup.create([name, "Ben"])
    text = str(caught.value)
    assert "cannot draw" in text and "\n" not in text and "U+" in text
    with pytest.raises(BadSetup):
        get("board").parse_setup({"type": "setup", "game": "board", "players": [name, "Ben"]})


def test_sixteen_letters_and_every_french_accent_are_accepted():
    setup = Setup.create(["Œdipe Françoise", "Ñandú Joël Ève", "J" * MAX_NAME])
    assert setup.players[2] == "J" * 16 and MAX_NAME == 16
    Setup.create([ACCENTED, "Ben"])
    Setup.create([ACCENTED.upper(), "Ben"])
    with pytest.raises(BadSetup) as caught:
        Setup.create(["J" * 17, "Ben"])
    assert "use at most 16" in str(caught.value)


def test_an_undrawable_name_in_a_transcript_stops_replay_at_its_line(tmp_path: Path):
    lines = [json.dumps({"type": "setup", "players": ["Ana", "Ben"]}),
             json.dumps({"type": "play", "card": "5"})]
    assert replay_lines(lines).error is None
    bad = [json.dumps({"type": "setup", "players": ["Ana", "Ben 😀"]}, ensure_ascii=False)]
    result = replay_lines(bad)
    assert result.error is not None and result.error.line == 1
    path = tmp_path / "emoji.jsonl"
    path.write_text("\n".join(bad) + "\n", encoding="utf-8")
    done = cli("replay", str(path))
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    [line] = done.stderr.splitlines()
    assert line.startswith("line 1: ") and "cannot draw (U+1F600)" in line


def test_the_journal_refuses_an_undrawable_name(tmp_path: Path):
    with Journal.open(tmp_path) as journal, pytest.raises(JournalError):
        journal.start_game({"type": "setup", "players": ["李雷", "Ben"]})
