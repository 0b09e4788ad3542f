"""Small builders shared by the core tests: a game from names, cards by code."""

from __future__ import annotations

from companion.game import Game, Redo, Result, Undo
from games.revenge.rules import Card, Play
from games.revenge.rules.events import Close, EndPlay2, Press, Setup, Tiebreak


def new_game(*players: str, **options) -> Game:
    return Game(Setup.create(list(players or ("Ana", "Ben", "Cy")), **options))


def play(game: Game, *codes: str) -> Result:
    """Play cards in turn order; returns the last result."""
    result = None
    for code in codes:
        target = None
        if code.startswith("sorry>"):
            code, target = "sorry", code.split(">", 1)[1]
        result = game.push(Play(Card.parse(code), target=target))
    assert result is not None
    return result


def press(game: Game, player: str, t: float | None = None) -> Result:
    return game.push(Press(player, t))


def close(game: Game) -> Result:
    return game.push(Close())


def end_play2(game: Game) -> Result:
    return game.push(EndPlay2())


def tiebreak(game: Game, player: str, total: int) -> Result:
    return game.push(Tiebreak(player, total))


def undo(game: Game) -> Result:
    return game.push(Undo())


def redo(game: Game) -> Result:
    return game.push(Redo())


def progress(game: Game) -> dict[str, int]:
    s = game.state
    return {name: s.progress[i] for i, name in enumerate(s.setup.players)}
