"""Game.history: the steps every Update carries, kept in O(1) per event and always equal
to Game.steps (push, undo, redo, an amended call), newest first without a copy."""

from __future__ import annotations

import random

from companion.game import Game, History, Redo, Undo
from games.revenge.bench.core import long_game
from games.revenge.rules import Card, Play, Press


def test_history_is_always_the_steps() -> None:
    objs = long_game(600)
    game = Game.from_json(objs[:1])
    rng = random.Random(8)
    kept: list[History] = []
    for obj in objs[1:]:
        game.push_json(obj)
        if rng.random() < 0.1 and game.undo_step is not None:
            game.push(Undo())
            assert game.history == game.steps
            game.push(Redo())  # the game goes on as written
        history = game.history
        assert history == game.steps and len(history) == game.depth
        assert list(reversed(history))[:3] == list(reversed(game.steps))[:3]
        kept.append((history, game.steps))
    # a history taken earlier never changes afterwards (immutable, shared)
    for history, steps in kept:
        assert history == steps


def test_an_amended_call_replaces_the_top_step() -> None:
    game = Game.from_json([{"type": "setup", "players": ["Ana", "Ben", "Cy"]}])
    for code in ("10", "10", "1"):
        game.push(Play(Card.parse(code)))
    game.push(Press("Ben", 5.0))
    game.push(Press("Ben", 4.9))  # Ben's own earlier edge: amends the call
    assert game.history == game.steps and len(game.history) == 4
    assert game.history[-1].after.window.caller_t == 4.9
