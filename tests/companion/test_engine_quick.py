"""The engine's quick path for the commonest card (a number or Slide under 21, nothing
open) gives exactly what the full path gives, on every such card of simulated games."""

from __future__ import annotations

import random

from companion.game import Game
from games.revenge.rules import engine
from games.revenge.rules.events import Play
from games.revenge.rules.simulate import random_options, simulate


def test_quick_path_equals_the_full_path() -> None:
    quick = 0
    for n in range(60):
        rng = random.Random(f"quick/{n}")
        setup, *events = simulate(rng, **random_options(rng)).events
        game = Game(setup)
        for event in events:
            state = game.state
            if isinstance(event, Play):
                fast = engine.apply(state, event)
                full = engine._play_in_full(state, event)
                assert fast == full
                quick += any(fast.outcomes is shared for shared in engine._LAID_DRAWN[state.turn])
            game.push(event)
    assert quick > 500  # the quick path was taken, not only the full one
