"""The engine's quick paths for the commonest cards (a number or Slide under 21, a Switch,
Take 2 or Play 2 on its turn, nothing open; a window closed) give exactly what the full
path gives, on every card and close of simulated games."""

from __future__ import annotations

import random

from companion.game import Game
from games.revenge.rules import engine
from games.revenge.rules.cards import CardKind
from games.revenge.rules.events import Close, Play
from games.revenge.rules.simulate import random_options, simulate

TURN_CARDS = (CardKind.SWITCH, CardKind.TAKE2, CardKind.PLAY2)


def test_quick_path_equals_the_full_path() -> None:
    quick = turns = closes = 0
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
                kind = event.card.kind
                turns += kind in TURN_CARDS and engine._quick_turn(state, event, kind) is not None
            elif isinstance(event, Close):  # built from the tuple unless someone wins
                draft = engine._Draft(state)
                draft.close_window()
                assert engine.apply_parts(state, event) == draft.freeze()
                closes += 1
            game.push(event)
    assert quick > 500  # the quick path was taken, not only the full one
    assert turns > 100  # the Switch, Take 2 and Play 2 quick path too
    assert closes > 100
