"""The configuration: defaults, where the file is found, and one sentence per mistake."""

from __future__ import annotations

import dataclasses
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from companion import config as config_module
from companion.config import (
    Config,
    GpioConfig,
    LedBoardConfig,
    config_from_args,
    load_config,
)
from companion.errors import ConfigError
from games.revenge.config import (
    DeckProfile,
    GameConfig,
    WindowsConfig,
    deck_profile,
    game_config,
    windows_config,
)
from games.revenge.rules.deck import DEFAULT_DECK

REPO = Path(__file__).resolve().parents[2]
DEFAULT_FILE = REPO / "companion" / "default_config.toml"


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A private home: no user or system file unless a test writes one."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    for var in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "SORRY_COMPANION_CONFIG"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setattr(config_module, "SYSTEM_CONFIG", tmp_path / "etc" / "config.toml")
    return home


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_pure_defaults_when_there_is_no_file(home: Path) -> None:
    c = load_config()
    assert c.source is None
    assert c.data_dir == home / ".local" / "share" / "sorry-companion"
    assert c.language == "en"
    assert windows_config(c) == WindowsConfig(5.0, 5.0) == c.section("windows")
    assert game_config(c) == GameConfig(4, "standard") == c.section("game")
    assert (c.voice.enabled, c.voice.command) == (True, "espeak-ng")
    assert c.gpio == GpioConfig(True, (17, 27, 22, 23), (), True, 50.0, None, None)
    assert c.ledboard == LedBoardConfig(True, "", ("2E8A:0005",), 115200, 64)
    assert c.display.fullscreen is False


def test_the_default_deck_is_the_even_spread_of_93() -> None:
    deck = deck_profile(Config())
    assert isinstance(deck, DeckProfile) and deck == Config().section("deck")
    assert sum(deck.values()) == 93
    assert sum(deck[str(n)] for n in range(11)) == 59
    assert [deck[str(n)] for n in range(11)] == [6] * 4 + [5] * 7
    assert sum(deck[k] for k in ("slide:10", "slide:15", "slide:21", "switch", "take2",
                                 "play2")) == 26
    assert (deck["sorry"], deck["steal"], deck["dont_be_sorry"]) == (3, 3, 2)
    assert deck == dict(DEFAULT_DECK)


def test_data_dir_follows_xdg_data_home(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert load_config().data_dir == tmp_path / "xdg" / "sorry-companion"


def test_the_default_file_equals_the_defaults() -> None:
    loaded = load_config(DEFAULT_FILE)
    assert loaded.source == DEFAULT_FILE
    assert dataclasses.replace(loaded, source=None) == Config()
    text = DEFAULT_FILE.read_text(encoding="utf-8")
    for section in ("voice", "gpio", "ledboard", "display", "backup", "camera"):
        for name in (f.name for f in dataclasses.fields(getattr(Config(), section))):
            assert f"{name} =" in text, f"default_config.toml does not show [{section}] {name}"
    assert "data_dir =" in text


def test_the_composed_default_file_shows_and_equals_every_games_defaults(tmp_path) -> None:
    from companion.default_config import APP_DEFAULTS, default_config_text, game_defaults

    composed = write(tmp_path / "default.toml", default_config_text())
    loaded = load_config(composed)
    assert dataclasses.replace(loaded, source=None, games={}) == Config()
    text = composed.read_text(encoding="utf-8")
    assert text.startswith(APP_DEFAULTS.read_text(encoding="utf-8"))
    assert game_defaults(), "no game brings its defaults (games/<name>/config.toml)"
    for table, section in config_module.game_sections().items():
        assert loaded.section(table) == section.values(), table
        assert f"\n[{table}]\n" in text, f"the composed defaults do not show [{table}]"
        keys = ([f.name for f in dataclasses.fields(section.values)]
                if dataclasses.is_dataclass(section.values) else list(section.values()))
        body = text.split(f"\n[{table}]\n", 1)[1].split("\n[", 1)[0]
        for name in keys:
            assert re.search(rf'^"?{re.escape(name)}"? = ', body, re.M), (
                f"the composed defaults do not show [{table}] {name}")
    assert {"deck", "windows", "game"} <= set(config_module.game_sections())


def test_where_the_file_is_found(tmp_path: Path, home: Path, monkeypatch) -> None:
    system = write(config_module.SYSTEM_CONFIG, 'language = "fr"\n')
    assert load_config().source == system
    user = write(home / ".config" / "sorry-companion" / "config.toml", "[game]\npawns = 2\n")
    assert load_config().source == user and game_config(load_config()).pawns == 2
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    xdg = write(tmp_path / "xdg" / "sorry-companion" / "config.toml", "[game]\npawns = 3\n")
    assert load_config().source == xdg
    env = write(tmp_path / "env.toml", "[game]\npawns = 1\n")
    monkeypatch.setenv("SORRY_COMPANION_CONFIG", str(env))
    assert game_config(load_config()).pawns == 1
    given = write(tmp_path / "given.toml", '[game]\nvariant = "long"\n')
    assert game_config(load_config(given)).variant == "long"


def test_a_named_file_must_exist(tmp_path: Path, monkeypatch) -> None:
    with pytest.raises(ConfigError, match=r"nope\.toml: no such file"):
        load_config(tmp_path / "nope.toml")
    monkeypatch.setenv("SORRY_COMPANION_CONFIG", str(tmp_path / "gone.toml"))
    with pytest.raises(ConfigError, match=r"gone\.toml: no such file"):
        load_config()


def test_a_full_file_is_read_and_normalised(tmp_path: Path) -> None:
    path = write(tmp_path / "cfg" / "c.toml", """
data_dir = "games"
language = "fr"
[windows]
steal_seconds = 3
block_seconds = 7.5
[game]
pawns = 2
variant = "long"
[deck]
"0" = 7
"1" = 5
[voice]
enabled = false
command = "  espeak  "
[gpio]
pins = [5, 6]
lamps = [20, 21]
pull_up = false
lockout_ms = 20
undo_pin = 12
close_pin = 13
[ledboard]
port = "/dev/ttyACM0"
ids = ["2e8a:0005", "2341:0043"]
baud = 9600
brightness = 0
[display]
fullscreen = true
size = "720x1280"
""")
    c = load_config(path)
    assert c.data_dir == tmp_path / "cfg" / "games"
    assert c.language == "fr"
    windows, deck = windows_config(c), deck_profile(c)
    assert windows == WindowsConfig(3.0, 7.5) and isinstance(windows.steal_seconds, float)
    assert game_config(c) == GameConfig(2, "long")
    assert (deck["0"], deck["1"], deck["10"]) == (7, 5, 5) and sum(deck.values()) == 93
    assert c.voice.command == "espeak" and c.voice.enabled is False
    assert c.gpio == GpioConfig(True, (5, 6), (20, 21), False, 20.0, 12, 13)
    assert c.ledboard.ids == ("2E8A:0005", "2341:0043")
    assert c.ledboard.baud == 9600 and c.ledboard.brightness == 0
    assert c.display.fullscreen is True and c.display.size == "720x1280"


def test_data_option_beats_the_config_key(tmp_path: Path) -> None:
    path = write(tmp_path / "c.toml", f'data_dir = "{tmp_path / "from-config"}"\n')
    c = load_config(path)
    assert c.with_data_dir(None).data_dir == tmp_path / "from-config"
    assert c.with_data_dir(tmp_path / "opt").data_dir == tmp_path / "opt"
    args = type("Args", (), {"config": str(path), "data": str(tmp_path / "opt")})()
    assert config_from_args(args).data_dir == tmp_path / "opt"
    assert c.with_data_dir(None) is c


BAD = [
    ("[windows]\nsteal_seconds = -1\n",
     "[windows] steal_seconds = -1 is not allowed: use a number of seconds from 1 to 60"),
    ("[windows]\nblock_seconds = \"5\"\n",
     '[windows] block_seconds = "5" is not allowed: use a number of seconds from 1 to 60'),
    ("[windows]\nsteal_seconds = nan\n",
     "[windows] steal_seconds = nan is not allowed: use a number of seconds from 1 to 60"),
    ("[windows]\nsteal = 5\n",
     '[windows] unknown key "steal": the keys of [windows] are steal_seconds, block_seconds'),
    ("[game]\npawns = 5\n",
     "[game] pawns = 5 is not allowed: use a whole number of pawn cards from 1 to 4"),
    ("[game]\nvariant = \"short\"\n",
     '[game] variant = "short" is not allowed: use "standard" or "long"'),
    ('language = "de"\n', 'language = "de" is not allowed: use "en" or "fr"'),
    ("data_dir = 5\n", 'data_dir = 5 is not allowed: use the path of a folder in quotes, '
                       'such as "~/.local/share/sorry-companion"'),
    ('[deck]\n"7" = -1\n',
     '[deck] "7" = -1 is not allowed: use a whole number of cards from 0 to 93'),
    ('[deck]\n"7" = 6\n', "[deck] the card counts add up to 94, not 93: change them so the "
                          "deck has 93 cards (a card left out keeps its default count)"),
    ('[deck]\n"slide:12" = 1\n', '[deck] unknown card "slide:12": the cards are "0", "1"'),
    ("[voice]\nenabled = \"yes\"\n",
     '[voice] enabled = "yes" is not allowed: use true or false (without quotes)'),
    ("[voice]\ncommand = \"\"\n", '[voice] command = "" is not allowed: use the name of a '
                                  'speech program in quotes, such as "espeak-ng"'),
    ("[gpio]\npins = [17, 28]\n", "[gpio] pins = [17, 28] is not allowed: use a list of 1 to "
                                  "4 BCM pin numbers from 0 to 27, one per seat"),
    ("[gpio]\npins = [17, 27, 17]\n",
     "[gpio] pin 17 is used twice (in pins): give every button and lamp its own pin"),
    ("[gpio]\nundo_pin = 22\n",
     "[gpio] pin 22 is used twice (in pins and undo_pin): give every button and lamp its "
     "own pin"),
    ("[gpio]\nlamps = [5, 6, 13, 27]\n", "[gpio] pin 27 is used twice (in pins and lamps)"),
    ("[gpio]\nlamps = [5]\n", "[gpio] lamps = [5] is not allowed: give one lamp per button "
                              "(4 in pins), or [] for no lamps"),
    ("[gpio]\nclose_pin = -3\n", "[gpio] close_pin = -3 is not allowed: use a BCM pin number "
                                 "from 0 to 27 (leave the key out for none)"),
    ("[gpio]\nlockout_ms = 5000\n", "[gpio] lockout_ms = 5000 is not allowed: use a number of "
                                    "milliseconds from 0 to 1000"),
    ("[ledboard]\nbaud = 1200\n", "[ledboard] baud = 1200 is not allowed: 1200 baud is the "
                                  "bootloader touch"),
    ("[ledboard]\nbaud = 12345\n", "[ledboard] baud = 12345 is not allowed: use one of 9600, "),
    ('[ledboard]\nids = ["2E8A-0005"]\n', '[ledboard] ids = ["2E8A-0005"] is not allowed: use '
                                          'a list of USB ids written "VVVV:PPPP" in hex'),
    ("[ledboard]\nbrightness = 300\n", "[ledboard] brightness = 300 is not allowed: use a whole "
                                       "number from 0 to 255"),
    ("[ledboard]\nport = 5\n", '[ledboard] port = 5 is not allowed: use a text in quotes'),
    ("[display]\nfullscreen = 1\n", "[display] fullscreen = 1 is not allowed: use true or "
                                    "false (without quotes)"),
    ('[display]\nsize = "640x480"\n', '[display] size = "640x480" is not allowed: use '
                                        '"800x480" or "1024x600" or "1280x720" or "480x800"'),
    ("[display]\nrotation = 45\n", "[display] rotation = 45 is not allowed: use 0, 90, 180 or "
                                    "270 (degrees, without quotes)"),
    ('[display]\nrotation = "180"\n', '[display] rotation = "180" is not allowed: use 0, 90,'),
    ("[display]\ndim_after = -1\n", "[display] dim_after = -1 is not allowed: use a number of "
                                     "minutes from 0 to 1440"),
    ("[display]\ndim_after = 10\nsleep_after = 5\n",
     "[display] sleep_after = 5 is not after dim_after = 10: the screen dims first, then "
     "sleeps; give sleep_after more minutes than dim_after (or 0 for never)"),
    ('[voice]\noutput = "bluetooth"\n', '[voice] output = "bluetooth" is not allowed: use '
                                         '"auto" or "hdmi" or "jack" or "usb"'),
    ("[voice]\nvolume = 101\n", "[voice] volume = 101 is not allowed: use a whole number from "
                                 "0 to 100"),
    ('[backup]\nusb_folders = "media"\n', '[backup] usb_folders = "media" is not allowed: use a '
                                           'list of absolute folders in quotes'),
    ("windows = 3\n", "windows = 3 is not allowed: [windows] must be a table of settings"),
    ("deck = 3\n", "deck = 3 is not allowed: [deck] must be a table of card counts"),
    ("[sound]\nvolume = 3\n", 'unknown key "sound": the top-level keys are data_dir and '
                              "language, and the tables are [deck], [windows], [game], "
                              "[voice], [gpio], [ledboard], [display], [backup], [camera], "
                              "[board]"),
    ("[windows\nsteal_seconds = 5\n", "is not valid TOML (Expected ']' at the end of a table "
                                      "declaration (at line 1, column 9)); fix that line"),
]


@pytest.mark.parametrize(("text", "message"), BAD, ids=[m[:40] for _, m in BAD])
def test_each_mistake_is_one_sentence_naming_file_key_value_and_what_is_allowed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str, message: str) -> None:
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "config.toml", text)
    with pytest.raises(ConfigError) as err:
        load_config("config.toml")
    said = str(err.value)
    assert said.startswith(f"config.toml: {message}")
    assert "\n" not in said


def test_a_file_that_is_not_utf8_or_is_a_folder(tmp_path: Path) -> None:
    (tmp_path / "latin.toml").write_bytes(b'language = "fran\xe7ais"\n')
    with pytest.raises(ConfigError, match="is not UTF-8 text; save it as UTF-8"):
        load_config(tmp_path / "latin.toml")
    with pytest.raises(ConfigError, match="is a folder, not a file"):
        load_config(tmp_path)


CLI_BAD = [
    "[windows]\nsteal_seconds = -1\n", "[game]\npawns = 0\n", '[deck]\n"7" = 4\n',
    "[voice]\nenabled = 2\n", "[gpio]\npins = [40]\n", "[ledboard]\nbaud = 1200\n",
    "[display]\nfullscreen = \"no\"\n", 'language = "xx"\n', "[[broken\n",
]


@pytest.mark.parametrize("text", CLI_BAD)
def test_the_cli_exits_2_with_the_sentence_and_no_traceback(tmp_path: Path, home: Path,
                                                           text: str) -> None:
    write(tmp_path / "bad.toml", text)
    env = {**os.environ, "HOME": str(home), "PYTHONPATH": str(REPO)}
    env.pop("SORRY_COMPANION_CONFIG", None)
    done = subprocess.run(
        [sys.executable, "-m", "companion.cli", "--config", "bad.toml", "history"],
        capture_output=True, text=True, cwd=tmp_path, env=env, timeout=60)
    assert done.returncode == 2
    assert done.stdout == ""
    [line] = done.stderr.splitlines()
    assert line.startswith("sorry-companion: bad.toml: ")
    assert "Traceback" not in done.stderr
    with pytest.raises(ConfigError) as err:
        load_config(tmp_path / "bad.toml")
    assert line.endswith(str(err.value).split(": ", 1)[1])


def test_a_raspberry_pi_is_known_by_its_device_tree(tmp_path):
    from companion.config import on_raspberry_pi

    model = tmp_path / "model"
    assert not on_raspberry_pi(model)  # no device tree: a desktop
    model.write_bytes(b"Raspberry Pi 5 Model B Rev 1.0\0")
    assert on_raspberry_pi(model)
    model.write_bytes(b"Pine64 RockPro64\0")
    assert not on_raspberry_pi(model)
