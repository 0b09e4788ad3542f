"""The seam between the core and a game is typed: the number of `Any` in it only goes down.

The core serves every game, so it knows their states and events as `object` and
`JsonEvent`; a game's own parts read them typed through companion.live.Live. `Any` is
left only where a game found by name is erased (AnyRules, AnyGame: the registry's).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from companion.errors import NoGame
from companion.live import Live, typed_update
from companion.session import Session
from games.board.rules import RULES as BOARD
from games.board.rules import Draw
from games.revenge.rules import RULES as REVENGE
from games.revenge.rules import Play, Setup
from games.revenge.rules.cards import Card

ROOT = Path(__file__).resolve().parents[2]
SEAM = ("companion/rules.py", "companion/game.py", "companion/update.py", "companion/live.py",
        "companion/session.py", "companion/windows.py", "companion/session_background.py",
        "companion/games.py", "companion/plugins.py")
ERASED = ("Any", "AnyRules", "AnyGame")  # Any, and the aliases that stand for it
# main before the typed seam: 77 (Update, Step, Result, Session's state and events all Any)
MOST_ANY = 27


def any_count(source: str) -> int:
    """Each name or attribute `Any` (or an alias of it) in the module's code."""
    return sum(1 for node in ast.walk(ast.parse(source))
               if (isinstance(node, ast.Name) and node.id in ERASED)
               or (isinstance(node, ast.Attribute) and node.attr in ERASED))


def test_any_count_finds_an_any_in_a_signature() -> None:
    assert any_count("def f(x: Any) -> AnyRules: ...") == 2
    assert any_count("def f(x: object) -> int: ...") == 0


def test_the_seam_has_no_more_any_than_it_had() -> None:
    found = {m: any_count((ROOT / m).read_text(encoding="utf-8")) for m in SEAM}
    assert sum(found.values()) <= MOST_ANY, (
        f"{sum(found.values())} Any across the core/game seam, at most {MOST_ANY}: {found}; "
        "type the new code with the game's types (companion.live) or object, or lower "
        "MOST_ANY when you take some out")


def test_a_game_sees_its_own_updates_typed_and_no_other_games() -> None:
    session = Session()
    cards, board = Live(session, REVENGE), Live(session, BOARD)
    heard = []
    board.subscribe(heard.append)
    cards.new_game(Setup.create(["Ana", "Ben"]))
    assert cards.submit(Play(Card.parse("7"))).state.total == 7
    assert board.update is None and board.state is None and heard == []
    assert typed_update(session.update, BOARD) is None
    with pytest.raises(NoGame, match="no board game is open"):
        board.submit(Draw("7"))
    assert cards.state is not None and cards.state.total == 7  # the event reached no game
    update = board.new_game(BOARD.parse_setup(
        {"type": "setup", "game": "board", "players": ["Ana", "Ben"]}))
    assert heard == [update] and cards.update is None
