"""One folder per game (docs/DECISIONS.md): the shared code names no game, a game's pure
parts import neither Kivy, gpiozero, pyserial nor OpenCV, and a new game is its folder
plus one line in games/__init__.py's registry."""

from __future__ import annotations

import ast
import importlib
import io
import json
import re
import sys
import textwrap
import tokenize
from pathlib import Path

import pytest

import games
from companion import plugins

ROOT = Path(__file__).resolve().parent.parent
SHARED = ("companion", "ui", "hardware", "camera", "bench")
SUFFIXES = {".py", ".kv", ".toml", ".po", ".cfg"}
SEPARATORS = r"[._/:\-]"  # what joins a game's name into a code word: board_door, games.board
# Files outside the game folders that still name a game, each with why: none since the
# benchmarks, the card game's config tables and its remembered choices moved into their
# folders (issue 32); a file may not join it without a reason written here.
STILL_NAMING: dict[str, str] = {}
# Strings that say "board" for the LED board, not the board game: each file's words the
# count knows are not a game's name, with why (each must still be in its file: the test
# below fails on a stale one, so a game's name cannot hide here).
LED_BOARD_WORDS = {
    ("hardware/ledboard_option.py", "--board"):
        "run's and doctor's first name for --ledboard (the LED board's port), still accepted",
}


def _parts(word: str) -> set[str]:
    return {p.lower() for p in re.split(SEPARATORS + "|_", word) if p}


def _string_words(inner: str) -> set[str]:
    """A string's code words: all of it when it has no space, else only the words glued
    by separators ("the LED board" is prose; "games.board.rules" is code)."""
    if " " not in inner.strip():
        return _parts(inner)
    glued = re.findall(rf"[A-Za-z0-9_]+(?:{SEPARATORS}[A-Za-z0-9_]+)+", inner)
    return set().union(*map(_parts, glued)) if glued else set()


QUOTES = re.compile(r"""^[rRbBfFuU]*('\'\'|\"\"\"|'|")|('\'\'|\"\"\"|'|")$""")


def _python_words(text: str, homonyms: frozenset[str] = frozenset()) -> set[str]:
    """Names and strings, not comments or docstrings (prose may say "the board game"),
    nor the strings in `homonyms` (the LED board's)."""
    found: set[str] = set()
    before = tokenize.NEWLINE
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        if tok.type == tokenize.NAME:
            found |= _parts(tok.string)
        elif tok.type == tokenize.STRING and before not in (
                tokenize.NEWLINE, tokenize.NL, tokenize.INDENT, tokenize.DEDENT
                ) and (inner := QUOTES.sub("", tok.string)) not in homonyms:
            found |= _string_words(inner)
        if tok.type not in (tokenize.COMMENT, tokenize.NL):
            before = tok.type
    return found


QUOTED = re.compile(r"""'([^'\n]*)'|"([^"\n]*)\"""")


def _other_words(text: str, suffix: str) -> set[str]:
    """.kv, .toml, .cfg and .po lines: their code (keys, names, quoted words), not their
    comments; in a .po file its keys (msgid) only."""
    found: set[str] = set()
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped or (stripped.startswith("#") and not stripped.startswith("#:")):
            continue
        if suffix == ".po" and not stripped.startswith(("msgid", "msgctxt")):
            continue
        code = line.split(" #")[0]
        if suffix == ".cfg" and "=" in code:  # key = value: a value with spaces is prose
            key, value = code.split("=", 1)
            found |= _parts(key.strip()) | _string_words(value.strip())
            continue
        for a, b in QUOTED.findall(code):
            found |= _string_words(a or b)
        for word in re.findall(r"[A-Za-z_][A-Za-z0-9_.]*", QUOTED.sub(" ", code)):
            found |= _parts(word)
    return found


def naming(root: Path, names: tuple[str, ...]) -> dict[str, set[str]]:
    """Each shared file (outside games/) that names a game in its code: which ones."""
    files = [p for part in SHARED for p in (root / part).rglob("*") if p.suffix in SUFFIXES]
    out = {}
    for path in sorted([*files, root / "setup.cfg"]):
        if "__pycache__" in path.parts or not path.is_file():
            continue
        text = path.read_text("utf-8")
        name = path.relative_to(root).as_posix()
        homonyms = frozenset(w for f, w in LED_BOARD_WORDS if f == name)
        words = (_python_words(text, homonyms) if path.suffix == ".py"
                 else _other_words(text, path.suffix))
        if found := {n for n in names if n in words}:
            out[name] = found
    return out


def test_the_count_sees_a_game_named_in_code_and_not_in_prose(tmp_path: Path):
    (tmp_path / "companion").mkdir()
    for name, text in {
        "a.py": "from games.board.rules import RULES\n",
        "b.py": 'SLICE = {"revenge": 1}\n',
        "c.py": "def f():\n    board_door = 1\n",
        "d.py": '"""The board game, and the LED board."""\n# the revenge game\nx = "LED board"\n',
        "e.kv": "#:import bt games.board.screens.texts.bt\n",
        "f.kv": "# the board game\nLabel:\n    text: 'the LED board'\n",
    }.items():
        (tmp_path / "companion" / name).write_text(text, "utf-8")
    (tmp_path / "setup.cfg").write_text("[metadata]\ndescription = for the Sorry! Revenge game\n")
    assert naming(tmp_path, ("revenge", "board")) == {
        "companion/a.py": {"board"}, "companion/b.py": {"revenge"},
        "companion/c.py": {"board"}, "companion/e.kv": {"board"}}


def test_the_led_boards_words_are_in_their_files_and_only_they_are_passed_over():
    for (name, word), why in LED_BOARD_WORDS.items():
        text = (ROOT / name).read_text("utf-8")
        assert why and _python_words(text) - _python_words(text, frozenset({word})), name
    assert _python_words('X = "--board"\nY = "board_door"\n', frozenset({"--board"})) >= {
        "board", "door"}  # only the exact string is passed over


def test_the_shared_code_names_no_game_but_those_listed_with_why():
    found = naming(ROOT, (*plugins.names(), *games.FIXTURES))
    assert sorted(found) == sorted(STILL_NAMING), (
        "shared files naming a game (goal: none; the list only shrinks): "
        + ", ".join(f"{f} ({', '.join(sorted(n))})" for f, n in sorted(found.items())))


PURE_OK = {"companion", "games", *sys.stdlib_module_names}


ALL_GAMES = {**games.PLUGINS, **games.FIXTURES}  # every game's folder, the fixtures' too


def _pure_parts() -> list[Path]:
    """The registry, every manifest, and each game's rules, camera deck, commands,
    simulate, config, words and prefs modules: what the core and a bare `pip install
    --no-deps` load."""
    paths = [ROOT / "games" / "__init__.py"]
    for package in ALL_GAMES.values():
        m = importlib.import_module(package).MANIFEST
        paths.append(ROOT / Path(*package.split(".")) / "__init__.py")
        for module in (m.rules, m.camera_deck, m.commands, m.simulate, m.config, m.words,
                       m.prefs):
            if module is None:
                continue
            base = ROOT / Path(*module.split("."))
            paths += sorted(base.rglob("*.py")) if base.is_dir() else [base.with_suffix(".py")]
    return paths


@pytest.mark.parametrize("path", _pure_parts(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_a_games_pure_parts_import_the_standard_library_the_core_and_its_rules(path: Path):
    screens_or_face = {f"{package}.{part}" for package in ALL_GAMES.values()
                       for part in ("screens", "face")}
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            modules = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            modules = [node.module]
        else:
            continue
        for module in modules:
            assert module.split(".")[0] in PURE_OK, f"{path.name} imports {module}"
            assert not any(module == s or module.startswith(s + ".") for s in screens_or_face)


GAME = {  # a whole small game, as its folder would hold it
    "__init__.py": """
        from companion.plugins import Manifest
        MANIFEST = Manifest(name="tally", rules="tally_game.rules",
                            camera_deck="tally_game.deck", commands="tally_game.commands",
                            config="tally_game.config", words="tally_game.words")
    """,
    "rules.py": """
        from dataclasses import dataclass
        from companion.games import player_names
        from companion.rules import GameSummary, Transition

        @dataclass(frozen=True)
        class Setup:
            players: tuple
            game = "tally"
            def to_json(self):
                return {"type": "setup", "game": "tally", "players": list(self.players)}

        @dataclass(frozen=True)
        class Tick:
            def to_json(self):
                return {"type": "tick"}

        class TallyRules:
            name = "tally"
            counters = ()
            def parse_setup(self, obj):
                return Setup(player_names(obj.get("players")))
            def parse_event(self, obj):
                return Tick()
            def initial_state(self, setup):
                return (setup, 0)
            def apply(self, state, event):
                return Transition((state[0], state[1] + 1), ())
            def options(self, state):
                return ()
            def state_json(self, state):
                return {"ticks": state[1]}
            def summary(self, state):
                return GameSummary(state[0].players, None, False)
            def stats(self, steps):
                return {}

        RULES = TallyRules()
    """,
    "deck.py": """
        class Deck:
            cards = ("tick",)
            def event_for(self, card):
                return {"type": "tick"}
        DECK = Deck()
    """,
    "config.py": """
        from dataclasses import dataclass
        from companion.config import Section, whole

        @dataclass(frozen=True)
        class TallyConfig:
            upto: int = 10

        SECTION = Section(TallyConfig, {"upto": whole(2, 99, " of ticks")})
    """,
    "words.py": """
        def step_words(event, before, lang):
            return f"tick number {before[1] + 1}"

        def card_words(card, lang):
            return card.upper()
    """,
    "commands.py": """
        def register(sub):
            sub.add_parser("tally", help="the tally game's own command").set_defaults(
                run=lambda args: print("tally!") or 0)
    """,
}


def test_a_new_game_is_its_folder_and_one_registry_line(tmp_path: Path, monkeypatch, capsys):
    folder = tmp_path / "tally_game"
    folder.mkdir()
    for name, text in GAME.items():
        (folder / name).write_text(textwrap.dedent(text), "utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setitem(games.PLUGINS, "tally", "tally_game")  # the one line

    from camera.cards import card_names, event_for
    from companion.cli import main
    from companion.transcript import replay_lines
    from hardware import faces

    assert "tally" in plugins.names() and faces.get("tally") is None  # no face: dark lamps
    assert card_names("tally") == ("tick",) and event_for("tally", "tick") == {"type": "tick"}
    lines = [json.dumps({"type": "setup", "game": "tally", "players": ["Ana", "Ben"]}),
             '{"type": "tick"}', '{"type": "tick"}']
    replay = replay_lines(lines)
    assert replay.error is None and replay.game is not None
    assert replay.game.rules.state_json(replay.game.state) == {"ticks": 2}
    assert main(["tally"]) == 0 and capsys.readouterr().out == "tally!\n"


def test_a_new_game_brings_its_own_config_table_and_words(tmp_path: Path, monkeypatch):
    folder = tmp_path / "tally_game"
    folder.mkdir()
    for name, text in GAME.items():
        (folder / name).write_text(textwrap.dedent(text), "utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setitem(games.PLUGINS, "tally", "tally_game")

    from companion.config import ConfigError, load_config
    from companion.game import Game
    from companion.resume_words import last_saved_words
    from ui.camera_link import seen_card_name

    config_file = tmp_path / "config.toml"
    assert load_config("/dev/null").section("tally").upto == 10  # the game's default
    config_file.write_text("[tally]\nupto = 3\n")
    assert load_config(config_file).section("tally").upto == 3
    assert load_config(config_file).section("revenge") is None  # the card game has [game]
    config_file.write_text("[tally]\nupto = 1\n")
    with pytest.raises(ConfigError, match=r"\[tally\] upto = 1 is not allowed: use a whole "
                                          r"number of ticks from 2 to 99"):
        load_config(config_file)
    config_file.write_text("[tallies]\nupto = 3\n")
    with pytest.raises(ConfigError, match=r"the tables are .*\[camera\].*, \[tally\]$"):
        load_config(config_file)

    game = Game.from_json([{"type": "setup", "game": "tally", "players": ["Ana", "Ben"]},
                           {"type": "tick"}, {"type": "tick"}])
    assert last_saved_words(game) == "tick number 2"  # its own words, not the core's
    assert seen_card_name("tick", "en", "tally") == "TICK"
