"""The seam between the core and a game is typed: the number of `Any` in it only goes down.

The core serves every game, so it knows their states and events as `object` and
`JsonEvent`; a game's own parts read them typed through companion.live.Live. A game
found by name is held the same way (SomeRules, SomeGame: its states objects, its events
JsonEvents), and JSON's values are objects (Json), so no `Any` is left in the seam.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
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
# Any, and the aliases that stood for it (AnyRules, AnyGame: gone, counted if they return)
ERASED = ("Any", "AnyRules", "AnyGame")
# main before the typed seam: 77 (Update, Step, Result, Session's state and events all Any);
# 27 after it (AnyRules and AnyGame, a game found by name, and Json's values); 0 now: a game
# found by name is SomeRules / SomeGame, Rules and Game over (JsonEvent, object, JsonEvent),
# and Json is dict[str, object] (docs/DECISIONS.md, "Names and Any to zero")
MOST_ANY = 0
# mypy --strict --disallow-any-expr over SEAM: each expression whose type holds an Any (a
# use of an erased name, a getattr, a JSON object read). 415 before the typed seam, 22
# after it, 7 next, 0 now: the journal's stored events are dict[str, object], the
# snapshot-resumed game is told by isinstance, a game's countdown is called as a
# Callable[[object], object] (docs/DECISIONS.md, "One folder per game, finished").
MOST_ANY_EXPR = 0


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


def any_expressions(root: Path, modules: tuple[str, ...]) -> list[str]:
    """mypy's complaints under --disallow-any-expr that fall in `modules` themselves (not in
    what they import), one line each."""
    run = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--disallow-any-expr", "--no-error-summary",
         "--cache-dir", str(ROOT / ".mypy_cache" / "any_expr"), *modules],
        cwd=root, capture_output=True, text=True, check=False)
    assert run.returncode in (0, 1), run.stderr  # 1: errors found; 2: mypy itself failed
    names = "|".join(map(re.escape, modules))
    inside = re.compile(rf"^({names}):\d+: error: .*Any")
    return [line for line in run.stdout.splitlines() if inside.match(line)]


def test_any_expressions_are_found_in_the_module_not_in_its_imports(tmp_path: Path) -> None:
    (tmp_path / "seam.py").write_text("import json\n\nx = json.loads('1')\ny: int = 2\n")
    found = any_expressions(tmp_path, ("seam.py",))
    assert len(found) == 1 and found[0].startswith("seam.py:3:"), found


def test_the_seam_has_no_more_any_expressions_than_it_had() -> None:
    found = any_expressions(ROOT, SEAM)
    assert len(found) <= MOST_ANY_EXPR, (
        f"{len(found)} expressions holding Any across the core/game seam, at most "
        f"{MOST_ANY_EXPR}:\n" + "\n".join(found)
        + "\ntype the new code with the game's types or object, or lower MOST_ANY_EXPR "
        "when you take some out")


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
