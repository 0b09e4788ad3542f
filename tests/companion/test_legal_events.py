"""`options` reads legality from the rules; here it is checked against trial and
error (apply every candidate event and see whether the engine accepts it and it changes
the game), on every state of many simulated games: the perft of this engine."""

from __future__ import annotations

import random

import pytest

from companion.errors import CompanionError
from companion.game import Game, ResultKind
from games.revenge.rules import (
    ALL_CARDS,
    RULES,
    Card,
    Close,
    EndPlay2,
    GameState,
    Play,
    Press,
    Setup,
    Tiebreak,
    flip_targets,
    legal_cards,
)
from games.revenge.rules.simulate import random_options, simulate

GAMES = 120


def by_trial(state: GameState) -> set[object]:
    """Every candidate event the engine accepts in `state` and that changes the game."""
    game = Game(state.setup)
    game.initial = state  # evaluate against this very state
    names = state.setup.players
    candidates: list[object] = [Close(), EndPlay2()]
    candidates += [Play(card, None, target) for card in ALL_CARDS
                   for target in (None, *names)]
    candidates += [Press(name) for name in names]
    candidates += [Tiebreak(name, 0) for name in names]
    legal = set()
    for event in candidates:
        try:
            result = game.evaluate(event)
        except CompanionError:
            continue
        if result.kind is not ResultKind.IGNORED:
            legal.add(event)
    return legal


def states(seed: int) -> list[GameState]:
    rng = random.Random(f"legal/{seed}")
    game = simulate(rng, **random_options(rng)).game
    return [game.initial, *(step.after for step in game.steps)]


@pytest.mark.parametrize("seed", range(GAMES))
def test_legal_events_are_exactly_what_the_engine_accepts(seed: int) -> None:
    for state in states(seed):
        listed = RULES.options(state)
        assert len(set(listed)) == len(listed)  # no event twice
        assert set(listed) == by_trial(state), RULES.state_json(state)


def test_the_card_helpers_read_the_legal_events() -> None:
    game = Game(Setup.create(["Ana", "Ben", "Cy"]))
    assert legal_cards(RULES.options(game.state)) == {c.code for c in ALL_CARDS}
    assert flip_targets(RULES.options(game.state)) == ()  # no pawn card HOME yet
    for code in ("10", "10", "1"):
        game.push(Play(Card.parse(code)))
    game.push(Press("Ben", 1.0))
    game.push(Close())  # Ben stole the round: he has a pawn card to flip back
    assert flip_targets(RULES.options(game.state)) == ("Ben",)
    game.push(Play(Card.parse("play2")))
    assert legal_cards(RULES.options(game.state)) == {str(n) for n in range(11)}
    assert EndPlay2() in RULES.options(game.state)
