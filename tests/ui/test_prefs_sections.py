"""choices.json keeps each game's own choices in its section, read through the game's
manifest (ui/prefs.py names no game), and a file written before the sections still reads."""

from __future__ import annotations

import json
from pathlib import Path

from ui.prefs import CHOICES_FILE, Choices

BEFORE = {  # choices.json as the app wrote it before each game had its section
    "players": ["Ana", "Ben"], "colors": ["red", "blue"], "first": "Ben", "pawns": 3,
    "variant": "long", "known_names": ["Ana", "Ben", "Cy"],
    "board": {"edition": "2016", "companion_draws": False, "settings": {"deck": "1939"}},
    "game": "board",
}


def load(tmp_path: Path, data: object) -> Choices:
    (tmp_path / CHOICES_FILE).write_text(json.dumps(data), encoding="utf-8")
    return Choices.load(tmp_path)


def test_a_file_from_before_the_sections_reads_as_it_did(tmp_path: Path) -> None:
    c = load(tmp_path, BEFORE)
    assert (c.players, c.colors, c.first, c.game) == (["Ana", "Ben"], ["red", "blue"], "Ben",
                                                      "board")
    assert c.known_names == ["Ana", "Ben", "Cy"]
    assert c.own("revenge") == {"pawns": 3, "variant": "long"}
    assert c.own("board") == BEFORE["board"]


def test_each_game_is_saved_in_its_own_section_and_read_back(tmp_path: Path) -> None:
    c = load(tmp_path, BEFORE)
    c.remember(["Cy", "Dee"], ["green", "yellow"], "Cy", game="revenge",
               own={"pawns": 2, "variant": "standard"})
    c.save(tmp_path)
    saved = json.loads((tmp_path / CHOICES_FILE).read_text(encoding="utf-8"))
    assert "pawns" not in saved and "variant" not in saved  # no game's keys at the top
    assert saved["revenge"] == {"pawns": 2, "variant": "standard"}
    assert saved["board"] == BEFORE["board"]  # the other game's choices are kept
    again = Choices.load(tmp_path)
    assert again == c and again.known_names[:2] == ["Cy", "Dee"]


def test_a_games_own_section_wins_and_odd_values_fall_back(tmp_path: Path) -> None:
    c = load(tmp_path, {"pawns": 1, "revenge": {"pawns": 9, "variant": "short"}})
    assert c.own("revenge") == {"pawns": 4, "variant": "standard"}  # 9 is brought to 4
    for odd in ("x", None, [2], 1e400):  # 1e400 reads as infinity
        assert load(tmp_path, {"pawns": odd}).own("revenge")["pawns"] == 4, odd
    c = load(tmp_path, {"pawns": "x", "known_names": ["Zoé"], "board": [1]})
    assert c.known_names == ["Zoé"] and c.own("board") == {}  # one odd value hides nothing


def test_an_unreadable_file_is_no_choices(tmp_path: Path) -> None:
    (tmp_path / CHOICES_FILE).write_text("{not json", encoding="utf-8")
    c = Choices.load(tmp_path)
    assert c.players == [] and c.own("revenge") == {"pawns": 4, "variant": "standard"}
    assert c.own("board") == {}
