"""The configuration's [board] table: the board game's new-game defaults (BOARD.md's
Settings), checked by the board rules themselves, one sentence per mistake."""

from __future__ import annotations

import dataclasses

import pytest

from companion.config import Config, load_config
from companion.default_config import default_config_text
from companion.errors import ConfigError
from games.board.config import BoardConfig, board_config
from games.board.rules import RULES


def test_the_default_file_shows_every_board_setting(tmp_path):
    text = default_config_text()
    for f in dataclasses.fields(BoardConfig):
        assert f"{f.name} =" in text
    path = tmp_path / "default.toml"
    path.write_text(text, encoding="utf-8")
    assert board_config(load_config(path)) == board_config(Config()) == BoardConfig()
    assert isinstance(Config().section("board"), BoardConfig)


def test_board_settings_make_a_setup(tmp_path):
    path = tmp_path / "c.toml"
    path.write_text('[board]\nedition = "2016"\nstart_move = "circle"\n'
                    'slide_colors = { T1 = "blue" }\n', encoding="utf-8")
    board = board_config(load_config(path))
    setup = RULES.parse_setup({"type": "setup", "game": "board", "players": ["A", "B"],
                               "edition": board.edition, "settings": board.settings()})
    assert setup.settings.start_move == "circle" and setup.settings.slide_color(1) == "blue"


@pytest.mark.parametrize("text, words", [
    ('[board]\nedition = "2016"\nadult = true\n', "classic-edition rule"),
    ('[board]\nslide_colors = { T2 = "blue" }\n', "slide_colors must map triangles"),
    ('[board]\ndeck = "1940"\n', "[board] deck"),
])
def test_a_wrong_board_setting_is_one_sentence(tmp_path, text, words):
    path = tmp_path / "c.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as err:
        load_config(path)
    assert words in str(err.value) and str(path) in str(err.value)
