"""Small builders for the board-game tests: positions from keyword lists, options as tuples."""

from __future__ import annotations

from typing import Any

from games.board.rules import RULES
from games.board.rules.moves import Option, generate
from games.board.rules.position import Position
from games.board.rules.state import BoardState


def pos(edition: str = "classic", settings: dict[str, Any] | None = None,
        **pawns: list[str]) -> Position:
    """A position; each colour's list is padded with START to the edition's pawn count."""
    n = 4 if edition == "classic" else 3
    obj: dict[str, Any] = {"edition": edition,
                           "pawns": {c: ps + ["START"] * (n - len(ps)) for c, ps in pawns.items()}}
    if settings:
        obj["settings"] = settings
    return Position.parse(obj)


def opts(p: Position, card: str,
         color: str = "red") -> list[tuple[str, tuple[tuple[str, str], ...]]]:
    return [(o.kind, o.legs) for o in generate(p, card, color)]


def legs(p: Position, card: str, color: str = "red") -> list[tuple[tuple[str, str], ...]]:
    return [o.legs for o in generate(p, card, color)]


def only(p: Position, card: str, color: str = "red") -> Option:
    found = generate(p, card, color)
    assert len(found) == 1, [o.text for o in found]
    return found[0]


def game(edition: str = "classic", players: int = 2, settings: dict[str, Any] | None = None,
         **extra: Any) -> BoardState:
    names = ["Ana", "Ben", "Cy", "Dee"][:players]
    obj: dict[str, Any] = {"type": "setup", "game": "board", "edition": edition,
                           "players": names, **extra}
    if settings:
        obj["settings"] = settings
    return RULES.initial_state(RULES.parse_setup(obj))


def at(state: BoardState, **pawns: list[str]) -> BoardState:
    """The state with these colours' pawns placed (others unchanged), padded with START."""
    n = len(state.position.pawns[0])
    current = state.position.pawns_json()
    for c, ps in pawns.items():
        current[c] = ps + ["START"] * (n - len(ps))
    p = Position.parse({"edition": state.position.edition, "pawns": current,
                        "settings": state.position.settings.to_json()})
    return state.with_(position=p)


def push(state: BoardState, *objs: dict[str, Any]) -> BoardState:
    for obj in objs:
        state = RULES.apply(state, RULES.parse_event(obj)).state
    return state


def draw(card: str) -> dict[str, Any]:
    return {"type": "draw", "card": card}


def move(*legs: tuple[str, str]) -> dict[str, Any]:
    return {"type": "move", "legs": [list(leg) for leg in legs]}
