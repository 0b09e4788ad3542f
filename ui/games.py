"""Each game's slice of the screen, found by the rules' name (as `companion.games`).

A slice is the `screens` package of a game's folder (companion.plugins) whose `SLICE` object gives
the app what it needs of that game: its name and options form on the first screen, its
screens (with their .kv files), the model they bind to, how to show an open game, its line
on the resume screen and its rows in the history's leaderboard. The app, the first screen
and the history look a game up here and never branch on one: the first screen offers
every game of the registry (games/__init__.py) as an equal choice.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Protocol

from companion import plugins
from companion.games import DEFAULT

if TYPE_CHECKING:
    from ui.gamemodel import GameModel

__all__ = ["GameSlice", "OptionsForm", "game_of", "get", "kv_beside", "names"]


class GameSlice(Protocol):
    """What the app asks of one game's screens."""

    # screen name: (its .kv file, module, class); made when first shown
    screens: Mapping[str, tuple[str, str, str]]
    # screens made while the scorekeeper is still choosing players (CompanionApp._prewarm)
    prewarm: tuple[str, ...]
    # the game's own options on the first screen: (its .kv file, module, class);
    # an OptionsForm
    options: tuple[str, str, str]
    # the screen of this game's rules, reached from the first screen
    rules_screen: str

    def title(self, lang: str) -> str:
        """The game's name on the first screen's choice of game."""
        ...

    def make_model(self, app: Any) -> GameModel:
        """The Kivy model this game's screens bind to (a GameModel: the message line,
        undo and redo, refusals in words; with `refresh()` and `close()`), following the
        app's session."""
        ...

    def start(self, app: Any, setup: Any) -> str | None:
        """Start a new game of this kind from its setup screen's `setup`; None, or the
        one sentence saying why it cannot start."""
        ...

    def show(self, app: Any) -> None:
        """Show the session's open game (of this slice's game) on its own screen."""
        ...

    def describe_stored(self, state: Any, lang: str) -> str:
        """The resume screen's line for an unfinished game of this kind."""
        ...

    def leaderboard(self, grid: Any, leaders: list[Any], lang: str) -> None:
        """This game's rows (six cells each) in the history's leaderboard grid."""
        ...


class OptionsForm(Protocol):
    """A game's options on the first screen (a widget, made once): the players, colours
    and who starts are the first screen's, typed once for every game."""

    def load(self, app: Any) -> None:
        """Show the options remembered from the last game (app.choices, app.settings)."""
        ...

    def start(self, app: Any, players: list[str], colors: list[str], first: str) -> str | None:
        """Start this game with these seats and the options shown; None, or the one
        sentence saying why it cannot start."""
        ...


def kv_beside(module_file: str, name: str) -> str:
    """The whole path of the .kv file `name` beside the module whose `__file__` is
    `module_file`: a game's screens keep their .kv files in the game's folder."""
    return os.path.join(os.path.dirname(os.path.abspath(module_file)), name)


def names() -> tuple[str, ...]:
    """The games with screens, in the registry's order."""
    return tuple(n for n in plugins.names() if plugins.manifest(n).screens is not None)


def get(game: str) -> GameSlice:
    """The slice of the game called `game` (the rules' name); KeyError: it has none."""
    module = plugins.layer(game, "screens")
    if module is None:
        raise KeyError(game)
    slice_: GameSlice = module.SLICE
    return slice_


def game_of(thing: Any) -> str:
    """The game of a setup (an object or its JSON) or of a state (its setup's)."""
    if isinstance(thing, Mapping):
        return str(thing.get("game", DEFAULT))
    setup = getattr(thing, "setup", thing)
    return str(getattr(setup, "game", DEFAULT))
