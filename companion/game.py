"""A game as a stack of steps: the engine's transitions plus exact undo and redo.

Every step keeps the state before it, so undo is exact (it can reopen a steal or block
window) and redo re-applies the very same transition. A press the rules ignore is
accepted (it is part of the record) but is no step: undo never has to take back nothing.

>>> g = Game(Setup.create(["Ana", "Ben"]))
>>> _ = g.push(Play(Card.parse("7")))
>>> g.state.total, g.push(Undo()).state.total
(7, 0)
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from enum import StrEnum
from typing import Any, NamedTuple

from companion.cards import Card
from companion.engine import Happening, Outcome, apply
from companion.errors import BadEvent, CompanionError, NothingToUndo
from companion.events import Event, Play, Press, Redo, Setup, Undo, parse_event
from companion.state import GameState, initial_state

__all__ = ["Card", "Game", "Result", "ResultKind", "Step", "StoredReplay"]

_new = tuple.__new__  # Step and Result without their generated (Python) __new__: hot path


class ResultKind(StrEnum):
    APPLIED = "applied"
    IGNORED = "ignored"
    AMENDED = "amended"  # the last step refined in place (see Transition.amends)
    UNDONE = "undone"
    REDONE = "redone"


class Step(NamedTuple):
    """One applied event with the states on both sides of it."""

    event: Event
    before: GameState
    after: GameState
    outcomes: tuple[Outcome, ...]


class Result(NamedTuple):
    """What `Game.evaluate` found: the state after, and the step it adds or takes back."""

    kind: ResultKind
    event: Event
    state: GameState
    outcomes: tuple[Outcome, ...]
    step: Step | None = None  # the new step, or the step undone/redone


class StoredReplay(NamedTuple):
    """How far a stored game replayed: `applied` objects (the setup counts), and the
    refusal that stopped it (None: all of them)."""

    game: Game | None
    applied: int
    error: CompanionError | None


class Game:
    """One game from its setup: `push` events, read `state`, walk `steps`."""

    def __init__(self, setup: Setup) -> None:
        self.setup = setup
        self.initial = initial_state(setup)
        self._done: list[Step] = []
        self._undone: list[Step] = []

    @property
    def state(self) -> GameState:
        return self._done[-1].after if self._done else self.initial

    @property
    def steps(self) -> tuple[Step, ...]:
        """The effective history: every step not undone, oldest first."""
        return tuple(self._done)

    @property
    def depth(self) -> int:
        """len(steps), without copying them (steps is a copy: O(game) per call)."""
        return len(self._done)

    def newest_steps(self) -> Iterator[Step]:
        """The effective history newest first, lazily: a screen reads only the last few."""
        return reversed(self._done)

    @property
    def undo_step(self) -> Step | None:
        return self._done[-1] if self._done else None

    @property
    def redo_step(self) -> Step | None:
        return self._undone[-1] if self._undone else None

    def evaluate(self, event: Event) -> Result:
        """What `event` would do, without doing it; raises the engine's refusals."""
        cls = type(event)
        if cls is Play or cls is Press:  # the common case: straight to the engine
            return self._evaluate_game_event(event)
        if isinstance(event, Undo):
            if not self._done:
                raise NothingToUndo("there is nothing to undo", code="nothing_to_undo")
            step = self._done[-1]
            return Result(ResultKind.UNDONE, event, step.before, (), step)
        if isinstance(event, Redo):
            if not self._undone:
                raise NothingToUndo("there is nothing to redo", code="nothing_to_redo")
            step = self._undone[-1]
            return Result(ResultKind.REDONE, event, step.after, step.outcomes, step)
        if isinstance(event, Setup):
            raise BadEvent("a game has one setup, at its start; start a new game instead",
                           code="second_setup")
        return self._evaluate_game_event(event)

    def _evaluate_game_event(self, event: Event) -> Result:
        done = self._done
        before = done[-1].after if done else self.initial
        state, outcomes, amends = apply(before, event)
        if len(outcomes) == 1 and outcomes[0].what is Happening.IGNORED:  # Transition.changed
            return _new(Result, (ResultKind.IGNORED, event, before, outcomes, None))
        if amends and done:
            top = done[-1]
            step = _new(Step, (top.event, top.before, state, top.outcomes))
            return _new(Result, (ResultKind.AMENDED, event, state, outcomes, step))
        step = _new(Step, (event, before, state, outcomes))
        return _new(Result, (ResultKind.APPLIED, event, state, outcomes, step))

    def accept(self, result: Result) -> None:
        """Make an evaluated result real; it must be the latest evaluation of this game."""
        kind = result.kind
        if kind is ResultKind.APPLIED:  # the common case first
            done = self._done
            assert result.step is not None and result.step.before is (
                done[-1].after if done else self.initial)
            done.append(result.step)
            if self._undone:
                self._undone.clear()
        elif kind is ResultKind.UNDONE:
            self._undone.append(self._done.pop())
        elif result.kind is ResultKind.REDONE:
            self._done.append(self._undone.pop())
        elif result.kind is ResultKind.AMENDED:
            assert result.step is not None and result.step.before is self._done[-1].before
            self._done[-1] = result.step

    def push(self, event: Event) -> Result:
        result = self.evaluate(event)
        self.accept(result)
        return result

    def play(self, card: str, player: str | None = None, target: str | None = None) -> Result:
        """Shorthand for the common case: `game.play("7")`."""
        return self.push(Play(Card.parse(card), player, target))

    def tail(self, depth: int) -> tuple[tuple[Step, ...], tuple[Step, ...]]:
        """The newest `depth` undo steps and redo steps (oldest first): what a snapshot or
        a writer's checkpoint keeps, so that keeping them never costs O(game length)."""
        return tuple(self._done[-depth:]), tuple(self._undone[-depth:])

    @classmethod
    def restore(cls, setup: Setup, state: GameState, done: Iterable[Step],
                undone: Iterable[Step]) -> Game:
        """A game at `state` whose undo reaches back only through `done` (a snapshot's
        tail): undo past the oldest kept step says "there is nothing to undo"."""
        game = cls(setup)
        game._done, game._undone = list(done), list(undone)
        game.initial = game._done[0].before if game._done else state
        return game

    @classmethod
    def replay_stored(cls, objs: Iterable[dict[str, Any]]) -> StoredReplay:
        """Replay stored event objects (setup first) as far as they go.

        A stored game should always replay; this tolerates one that does not (written by an
        older version's rules, or edited by hand) and says where and why it stopped, so that
        the caller can keep the good part and set the rest aside.
        """
        it = iter(objs)
        try:
            first = parse_event(next(it, None))
        except CompanionError as exc:
            return StoredReplay(None, 0, exc)
        if not isinstance(first, Setup):
            missing = BadEvent("a game must start with its setup", code="no_setup")
            return StoredReplay(None, 0, missing)
        game, applied = cls(first), 1
        for obj in it:
            try:
                game.push(parse_event(obj))
            except CompanionError as exc:
                return StoredReplay(game, applied, exc)
            applied += 1
        return StoredReplay(game, applied, None)

    @classmethod
    def from_events(cls, events: Iterable[Event]) -> Game:
        """Replay a whole event list whose first event is the setup."""
        it = iter(events)
        first = next(it, None)
        if not isinstance(first, Setup):
            raise BadEvent("a game must start with its setup", code="no_setup")
        game = cls(first)
        for event in it:
            game.push(event)
        return game
