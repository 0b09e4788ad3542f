"""The games as plugins: each game is one folder (games/<name>/) whose manifest names
its modules layer by layer, and games/__init__.py lists the folders, one line each.

A manifest is pure data (dotted module paths, never imports), so a layer imports only
its own part of a game, and only when it first needs it: the core loads a game's rules,
the screens its screens, the hardware its face; `replay` of a card-game transcript
never loads the board game, and the core never loads a game's Kivy or gpiozero parts.

>>> manifest("revenge").rules
'games.revenge.rules'
>>> layer("revenge", "rules").RULES.name
'revenge'
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Literal

import games

__all__ = ["Layer", "Manifest", "default", "folder", "layer", "manifest", "names", "words"]

# A manifest's optional parts, each a module exporting what its layer asks for.
Layer = Literal["rules", "screens", "face", "camera_deck", "camera_commands", "camera_watch",
                "commands", "simulate", "config", "words", "bench", "prefs"]


@dataclass(frozen=True, slots=True)
class Manifest:
    """What a game's folder holds, by dotted module path (None: the game has no such part)."""

    name: str  # the setup's "game"
    rules: str  # pure (standard library and the core only): RULES, a companion.rules.Rules
    screens: str | None = None  # Kivy: SLICE, a ui.games.GameSlice
    face: str | None = None  # the table's buttons and LED board: FACE, a hardware.faces.Face
    camera_deck: str | None = None  # pure: DECK, a camera.cards.Deck
    # standard library at import: register(verbs), the game's own `camera` verbs (the
    # board camera's teach-board and watch-board); what they run may need the extra
    camera_commands: str | None = None
    # standard library at import: start(session, config, show), the game's own camera
    # watcher in the app (the board camera); None: nothing taught, nothing to watch
    camera_watch: str | None = None
    commands: str | None = None  # pure: register(subparsers), the game's own CLI commands
    simulate: str | None = None  # pure: SIMULATION, its part of the CLI's `simulate`
    # pure: SECTION, a companion.config.Section: its own [table] (named after the game),
    # or SECTIONS, {table name: Section} for a game with several; their commented
    # defaults are config.toml in its folder (companion.default_config)
    config: str | None = None
    # pure: step_words(event JSON, state before, lang) and card_words(card, lang), its
    # steps and cards in the table's words (the resume screen, the camera's sentences);
    # optionally TITLE and ROUNDS, `history --html`'s title and rounds heading (English)
    words: str | None = None
    # `make bench`'s parts of the game: MODULES, {stage: module} (bench/__main__.py's
    # STAGES), each module with rows() and child(mode, *args); standard library at import
    bench: str | None = None
    # pure: recall(own, choices), its remembered choices (the first screen's, ui.prefs):
    # its own section of choices.json (`own`, the key named after the game), checked, or
    # read from where an older file kept them (`choices`, the whole file); None: the
    # section is kept as its screens wrote it
    prefs: str | None = None


def names() -> tuple[str, ...]:
    """The games, in the registry's order (the first screen's order)."""
    return tuple(games.PLUGINS)


def default() -> str:
    """The game of a setup without "game" (every journal and transcript before the board
    game); its config tables were the app's own before there was another game."""
    return games.DEFAULT


def manifest(name: str) -> Manifest:
    """The manifest of the game called `name`; KeyError: no such game here."""
    found: Manifest = importlib.import_module(games.PLUGINS[name]).MANIFEST
    return found


def folder(name: str) -> Path:
    """The folder of the game called `name` (games/<name>/): its files beside its modules."""
    package = importlib.import_module(games.PLUGINS[name])
    return Path(str(package.__file__)).parent


def layer(name: str, part: Layer) -> ModuleType | None:
    """The module of `name`'s `part`, imported now (None: the game has no such part)."""
    path: str | None = getattr(manifest(name), part)
    return None if path is None else importlib.import_module(path)


def words(game: object) -> ModuleType | None:
    """The words module of the game called `game` (its steps and cards in the table's
    words); None: no such game here, or it has no words of its own."""
    if not isinstance(game, str) or game not in names():
        return None
    return layer(game, "words")
