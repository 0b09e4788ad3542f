"""Hypothesis drives random event sequences, valid and invalid, through a Game.

Whatever the sequence, the engine either applies an event or refuses it with its own
CompanionError (leaving the state untouched), and the invariants of the issue hold.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from companion.errors import CompanionError
from companion.game import Game, Redo, ResultKind, Undo
from games.revenge.rules.cards import ALL_CARDS, Card
from games.revenge.rules.events import Close, EndPlay2, Event, Play, Press, Setup, Tiebreak
from games.revenge.rules.state import DECK_SIZE

NAMES = ["Ana", "Ben", "Cy", "Dee", "Zed"]  # Zed never plays: an unknown name
EXAMPLES = int(os.environ.get("STATEFUL_EXAMPLES", "100"))  # `make fuzz`: 1,500


class EngineMachine(RuleBasedStateMachine):
    game: Game

    @initialize(
        players=st.integers(2, 4),
        pawns=st.integers(1, 4),
        variant=st.sampled_from(["standard", "long"]),
        first=st.integers(0, 3),
    )
    def setup(self, players: int, pawns: int, variant: str, first: int) -> None:
        names = NAMES[:players]
        self.game = Game(Setup.create(names, first=names[first % players], pawns=pawns,
                                      variant=variant))
        self.log: list[Event] = []
        self.refused = 0

    def push(self, event: Event) -> None:
        before = self.game.state
        try:
            result = self.game.push(event)
        except CompanionError as exc:
            assert str(exc), "every refusal says why"
            assert self.game.state is before, "a refusal changes nothing"
            self.refused += 1
            return
        self.log.append(event)
        if result.kind is ResultKind.IGNORED:
            assert self.game.state is before

    @rule(card=st.sampled_from(ALL_CARDS), aim=st.sampled_from([None, *NAMES]),
          player=st.sampled_from([None, None, None, *NAMES]))
    def play(self, card, aim, player) -> None:
        self.push(Play(card, player, aim))

    @rule(card=st.sampled_from([c for c in ALL_CARDS if c.is_number and c.value < 6]))
    def play_small_number(self, card) -> None:
        self.push(Play(card))  # long rounds, many draws: the reshuffle gets exercised

    @rule(card=st.sampled_from([c for c in ALL_CARDS if c.code in ("slide:21", "sorry")]),
          aim=st.sampled_from([None, *NAMES[:4]]))
    def play_sorry_maker(self, card, aim) -> None:
        self.push(Play(card, None, aim))  # windows open often

    @rule()
    def play_play2(self) -> None:
        self.push(Play(Card.parse("play2")))

    @rule(player=st.sampled_from(NAMES), t=st.one_of(st.none(), st.floats(0, 10)))
    def press(self, player, t) -> None:
        self.push(Press(player, t))

    @rule()
    def close(self) -> None:
        self.push(Close())

    @rule()
    def end_play2(self) -> None:
        self.push(EndPlay2())

    @rule(player=st.sampled_from(NAMES), total=st.integers(0, 30))
    def tiebreak(self, player, total) -> None:
        self.push(Tiebreak(player, total))

    @rule()
    def undo(self) -> None:
        self.push(Undo())

    @rule()
    def redo(self) -> None:
        self.push(Redo())

    @rule()
    def undo_then_redo_is_identity(self) -> None:
        if self.game.undo_step is None:
            return
        before = self.game.state
        self.game.push(Undo())
        self.game.push(Redo())
        assert self.game.state is before
        self.log += [Undo(), Redo()]

    @invariant()
    def invariants_hold(self) -> None:
        s = self.game.state
        for seen in (s.awaiting and s.awaiting.value, s.winner is not None and "won",
                     s.reshuffles and "reshuffled"):
            if seen:
                event(f"reached: {seen}")
        assert all(0 <= p <= s.goal for p in s.progress)
        assert 0 <= s.total <= 21
        assert s.card_count() == DECK_SIZE
        assert s.draw_pile >= 0 and s.discards >= 0 and s.pile >= 0
        assert all(h >= 0 for h in s.hands)
        if s.running:
            assert 0 <= s.turn < len(s.progress) and s.turn_name is not None
        else:
            assert s.turn_name is None
        if s.winner is not None:
            assert s.window is None and s.owed == 0 and s.tiebreak is None
            assert s.progress[s.winner] == s.goal or s.tiebreak is None
        if s.window is not None:
            assert s.owed == 0
        assert 0 <= s.owed <= 2

    def teardown(self) -> None:
        if not hasattr(self, "game"):
            return
        # determinism: the accepted events alone give the same state again
        again = Game.from_events([self.game.setup, *self.log])
        assert again.state == self.game.state


EngineMachine.TestCase.settings = settings(
    max_examples=EXAMPLES,
    stateful_step_count=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
TestEngineMachine = EngineMachine.TestCase


class LongGames(EngineMachine):
    """Fewer, much longer sequences: whole games, reshuffles of the draw pile."""


LongGames.TestCase.settings = settings(
    max_examples=max(6, EXAMPLES // 15),
    stateful_step_count=600,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
TestLongGames = LongGames.TestCase
