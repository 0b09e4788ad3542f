"""The games' rules, found by name: the setup's `"game"` key.

Each game's folder (games/<name>/, companion.plugins) names its rules module, whose
`RULES` object implements `companion.rules.Rules`. A game is imported only when it is
first asked for, so `replay` of a card-game transcript never loads the board game.
"""

from __future__ import annotations

import games
from companion import plugins
from companion.errors import BadSetup
from companion.rules import SomeRules
from companion.safe_text import MAX_NAME, name_problem, quote

# MAX_NAME and name_problem: every game's players are checked the same way, and the screen
# (ui/) needs the same limit for its keyboard and its known names.
__all__ = ["DEFAULT", "MAX_NAME", "game_of", "get", "name_problem", "names", "player_names"]

# a setup without "game": every journal and transcript before the board game
DEFAULT = games.DEFAULT


def game_of(setup: object) -> str:
    """The name of the game a setup's JSON object asks for (its "game"; without one, or
    not a name: the default game, as every journal and transcript before the board game)."""
    name = setup.get("game", DEFAULT) if isinstance(setup, dict) else DEFAULT
    return name if isinstance(name, str) else DEFAULT


def names() -> tuple[str, ...]:
    return plugins.names()


def get(name: object = DEFAULT) -> SomeRules:
    """The rules of the game called `name`; BadSetup for a name that is no game here (or
    no name: a setup's "game" is read from JSON or from any object)."""
    if not isinstance(name, str) or name not in names():
        choices = ", ".join(f'"{n}"' for n in names())
        raise BadSetup(f"there is no game {str(name)[:40]!r} here; the games are {choices}",
                       code="unknown_game", game=str(name)[:40])
    rules: SomeRules | None = getattr(plugins.layer(name, "rules"), "RULES", None)
    if rules is None:  # a game whose rules are not built yet
        raise BadSetup(f"the game {name!r} cannot be played with this version yet",
                       code="game_not_ready", game=name)
    return rules


def _texts(value: object) -> tuple[str, ...] | None:
    """`value` when it is a list (or tuple) of texts only; else None. JSON's list is
    untyped: its items are looked at here, once, as objects."""
    if not isinstance(value, list | tuple):
        return None
    items: list[object] = [*value]
    texts = tuple(item for item in items if isinstance(item, str))
    return texts if len(texts) == len(items) else None


def player_names(players: object, low: int = 2, high: int = 4) -> tuple[str, ...]:
    """A setup's player names, stripped and checked the same way for every game: a list
    of `low` to `high` names, none empty, each one the screen can show, no two alike but
    for case. Every refusal is one BadSetup sentence."""
    texts = _texts(players)
    if texts is None:
        raise BadSetup(f"players must be a list of {low} to {high} names",
                       code="players_not_list")
    names = tuple(p.strip() for p in texts)
    if not low <= len(names) <= high:
        raise BadSetup(f"a game needs {low} to {high} players, not {len(names)}",
                       code="player_count", count=len(names))
    if any(not n for n in names):
        raise BadSetup("every player needs a name; one of the names is empty",
                       code="empty_name")
    for name in names:
        problem = name_problem(name)
        if problem:
            raise BadSetup(f"the name {quote(name)} {problem}", code="bad_name",
                           name=quote(name))
    seen: set[str] = set()
    for name in names:
        if name.casefold() in seen:
            raise BadSetup(
                f"two players are both called {quote(name)}; give each player a different name",
                code="same_name", name=name,
            )
        seen.add(name.casefold())
    return names
