"""The games the companion hosts, found by name: the setup's `"game"` key.

Each game is a package here whose `RULES` object implements `companion.rules.Rules`.
A game is imported only when it is first asked for, so `replay` of a card-game
transcript never loads the board game.
"""

from __future__ import annotations

import importlib

from companion.errors import BadSetup
from companion.rules import Rules
from companion.safe_text import MAX_NAME, name_problem

# MAX_NAME and name_problem: every game's players are checked the same way, and the screen
# (ui/) needs the same limit for its keyboard and its known names.
__all__ = ["DEFAULT", "MAX_NAME", "get", "name_problem", "names"]

DEFAULT = "revenge"  # a setup without "game" (every journal and transcript before the board game)
_PACKAGES = {"revenge": "companion.games.revenge", "board": "companion.games.board"}


def names() -> tuple[str, ...]:
    return tuple(_PACKAGES)


def get(name: str = DEFAULT) -> Rules:
    """The rules of the game called `name`; BadSetup for a name that is no game here."""
    package = _PACKAGES.get(name) if isinstance(name, str) else None
    if package is None:
        choices = ", ".join(f'"{n}"' for n in _PACKAGES)
        raise BadSetup(f"there is no game {str(name)[:40]!r} here; the games are {choices}",
                       code="unknown_game", game=str(name)[:40])
    rules: Rules | None = getattr(importlib.import_module(package), "RULES", None)
    if rules is None:  # a game whose rules are not built yet
        raise BadSetup(f"the game {name!r} cannot be played with this version yet",
                       code="game_not_ready", game=name)
    return rules
