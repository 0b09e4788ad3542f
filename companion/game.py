"""A game as a stack of steps: a game's rules plus exact undo and redo, for every game.

Every step keeps the state before it, so undo is exact (it can reopen a steal or block
window) and redo re-applies the very same transition. An event the rules accept without
changing the game (an ignored press) is kept in the record but is no step: undo never
has to take back nothing. Undo, redo and the setup are the core's; everything else is
the rules' (`companion.rules.Rules`), found by the setup's `"game"` (default "revenge").

>>> g = Game.from_json([{"type": "setup", "players": ["Ana", "Ben"]}])
>>> _ = g.push(g.rules.parse_event({"type": "play", "card": "7"}))
>>> g.rules.state_json(g.state)["total"], g.rules.state_json(g.push(Undo()).state)["total"]
(7, 0)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Generic, Literal, NamedTuple, TypeAlias, TypeGuard, TypeVar, cast, overload

from companion import games
from companion.errors import BadEvent, CompanionError, NothingToUndo
from companion.members import members
from companion.rules import FastRules, Json, JsonEvent, Rules, SomeRules, json_object

__all__ = [
    "By", "CoreEvent", "Game", "Redo", "Result", "ResultKind", "SomeGame", "Step",
    "StoredReplay", "Undo", "read_event", "read_setup", "rules_of",
]

SetupT = TypeVar("SetupT", bound=JsonEvent)  # the game's setup (companion.rules)
StateT = TypeVar("StateT")  # the game's state
EventT = TypeVar("EventT", bound=JsonEvent)  # the game's events
# Steps, results and updates only hand their state and events out: read-only, covariant
StateT_co = TypeVar("StateT_co", covariant=True)
EventT_co = TypeVar("EventT_co", bound=JsonEvent, covariant=True)


@dataclass(frozen=True, slots=True)
class Undo:
    """Take back the last step (any game)."""

    def to_json(self) -> Json:
        return {"type": "undo"}


@dataclass(frozen=True, slots=True)
class Redo:
    """Apply the last undone step again (any game)."""

    def to_json(self) -> Json:
        return {"type": "redo"}


CoreEvent: TypeAlias = Undo | Redo  # the events every game has, the core's own

# Where an event came from, carried with it into its step: a tap on the screen, a button on
# the table, the camera, the window timer. Not part of the event's JSON (a journal or a
# transcript replays the same whoever made it); a replayed step says "touch".
By: TypeAlias = Literal["touch", "button", "camera", "timer"]


_new = tuple.__new__  # Step and Result without their generated (Python) __new__: hot path
# A transition's fields (companion.rules.Transition) as the game loop unpacks them
Parts: TypeAlias = tuple[StateT, tuple[object, ...], bool, bool]


class ResultKind(StrEnum):
    APPLIED = "applied"
    IGNORED = "ignored"
    AMENDED = "amended"  # the last step refined in place (see Transition.amends)
    UNDONE = "undone"
    REDONE = "redone"


_ResultKind = members(ResultKind)  # read per event (see companion.members)


class Step(NamedTuple, Generic[StateT_co, EventT_co]):
    """One applied event with the states on both sides of it."""

    event: EventT_co
    before: StateT_co
    after: StateT_co
    outcomes: tuple[object, ...]  # the rules' (Transition.outcomes)
    by: By = "touch"  # where the event came from (an undo label: "seen by the camera")


class Result(NamedTuple, Generic[StateT_co, EventT_co]):
    """What `Game.evaluate` found: the state after, and the step it adds or takes back."""

    kind: ResultKind
    event: EventT_co | CoreEvent
    state: StateT_co
    outcomes: tuple[object, ...]
    step: Step[StateT_co, EventT_co] | None = None  # the new step, or the step undone/redone


# A slice of steps (History's): typed bounds, where a bare `slice` holds three Any.
Slice: TypeAlias = "slice[int | None, int | None, int | None]"


def _steps_like(other: object) -> TypeGuard[Sequence[object]]:
    """What a History compares equal to: another History, a tuple or a list of steps."""
    return isinstance(other, (History, tuple, list))


class History(Sequence[Step[StateT, EventT]]):
    """The effective steps, oldest first, as an immutable linked list: keeping the history
    in every Update costs O(1) per event, not a copy of the whole game. Reading it newest
    first (`reversed`) walks only as far as asked; indexing builds the tuple once."""

    __slots__ = ("_below", "_items", "_len", "_top")
    _top: Step[StateT, EventT] | None
    _below: History[StateT, EventT] | None
    _len: int
    _items: tuple[Step[StateT, EventT], ...] | None

    def __init__(self, top: Step[StateT, EventT] | None = None,
                 below: History[StateT, EventT] | None = None) -> None:
        self._top, self._below = top, below
        self._len = 0 if top is None else 1 + (0 if below is None else below._len)
        self._items = None

    def push(self, step: Step[StateT, EventT]) -> History[StateT, EventT]:
        return _history_on(step, self)

    def pop(self) -> History[StateT, EventT]:
        return self._below if self._below is not None else History()

    def __len__(self) -> int:
        return self._len

    def __reversed__(self) -> Iterator[Step[StateT, EventT]]:
        node: History[StateT, EventT] | None = self
        while node is not None and node._top is not None:
            yield node._top
            node = node._below

    def _tuple(self) -> tuple[Step[StateT, EventT], ...]:
        if self._items is None:
            items = list(reversed(self))
            items.reverse()
            self._items = tuple(items)
        return self._items

    def __iter__(self) -> Iterator[Step[StateT, EventT]]:
        return iter(self._tuple())

    @overload
    def __getitem__(self, index: int) -> Step[StateT, EventT]: ...

    @overload
    def __getitem__(self, index: Slice) -> tuple[Step[StateT, EventT], ...]: ...

    def __getitem__(
        self, index: int | Slice
    ) -> Step[StateT, EventT] | tuple[Step[StateT, EventT], ...]:
        return self._tuple()[index]

    def __eq__(self, other: object) -> bool:
        if _steps_like(other):
            return len(self) == len(other) and self._tuple() == tuple(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"History({len(self)} steps)"


_object_new = object.__new__


def _history_on(top: Step[StateT, EventT], below: History[StateT, EventT]
                ) -> History[StateT, EventT]:
    """`History(top, below)` without its `__init__`, for a `below` that is a History: one
    is made per event a listener is told of, and a class call to a Python `__init__` costs
    half as much again as the four slots set here."""
    node: History[StateT, EventT] = _object_new(History)
    node._top, node._below, node._len, node._items = top, below, below._len + 1, None
    return node


class StoredReplay(NamedTuple):
    """How far a stored game replayed: `applied` objects (the setup counts), and the
    refusal that stopped it (None: all of them)."""

    game: SomeGame | None
    applied: int
    error: CompanionError | None


def rules_of(setup: object) -> SomeRules:
    """The rules a setup object belongs to (its `game`, else the default game)."""
    name: object = getattr(setup, "game", games.DEFAULT)
    return games.get(name)


def read_setup(obj: object) -> JsonEvent:
    """A setup object from its JSON object: the `"game"` key picks the rules (default
    "revenge", so every journal and transcript from before the board game still reads)."""
    if not json_object(obj):
        raise BadEvent('each line must be a JSON object such as {"type": "play", "card": "7"}')
    if obj.get("type") != "setup":
        raise BadEvent("a game must start with its setup", code="no_setup")
    setup: JsonEvent = games.get(obj.get("game", games.DEFAULT)).parse_setup(obj)
    return setup


def read_event(rules: Rules[SetupT, StateT, EventT], obj: object) -> EventT | CoreEvent:
    """Any event after the setup: undo and redo are the core's, the rest the game's."""
    if json_object(obj):
        kind = obj.get("type")
        if kind == "undo":
            return Undo()
        if kind == "redo":
            return Redo()
        if kind == "setup":
            raise BadEvent("a game has one setup, at its start; start a new game instead",
                           code="second_setup")
    return rules.parse_event(obj)  # type: ignore[arg-type]


class Game(Generic[SetupT, StateT, EventT]):
    """One game from its setup: `push` events, read `state`, walk `steps`. Typed by its
    rules (`Game(setup, RULES)`); a setup alone finds its rules by name (SomeGame)."""

    @overload
    def __init__(self, setup: SetupT, rules: Rules[SetupT, StateT, EventT]) -> None: ...

    @overload
    def __init__(self: SomeGame, setup: JsonEvent) -> None: ...

    def __init__(self, setup: SetupT | JsonEvent,
                 rules: Rules[SetupT, StateT, EventT] | None = None) -> None:
        self.setup: SetupT = setup  # type: ignore[assignment]  # rules_of's own setup
        # A setup alone (SomeGame, the second form): its rules found by its name, whose types
        # are SomeGame's; the one place Python cannot see that they are (no existential types)
        self.rules: Rules[SetupT, StateT, EventT] = (
            cast("Rules[SetupT, StateT, EventT]", rules_of(setup)) if rules is None else rules)
        self._initial: StateT = self.rules.initial_state(self.setup)
        # The state after the effective steps (the initial one without any): kept on every
        # change, where a property read cost a Python call each time (a tap reads it twice)
        self.state: StateT = self._initial
        self._done: list[Step[StateT, EventT]] = []
        self._undone: list[Step[StateT, EventT]] = []
        # _done[:_synced] as a shareable History (see `history`)
        self._history: History[StateT, EventT] = History()
        self._synced = 0
        # The rules' transition as a plain tuple when they offer one (`apply_parts`): a
        # NamedTuple built per event only to be unpacked here cost the card game a tenth of
        # a number card's event; else `apply`, a Transition being that very tuple too.
        self._apply: Callable[[StateT, EventT], Parts[StateT]] = (
            cast("FastRules[StateT, EventT]", self.rules).apply_parts
            if hasattr(self.rules, "apply_parts") else self.rules.apply)
        # the rest go straight to the rules; a frozenset: `in` hashes the type once, where a
        # tuple's compared it with each in Python's rich comparison
        self._core_events = frozenset((Undo, Redo, type(setup)))

    @property
    def steps(self) -> tuple[Step[StateT, EventT], ...]:
        """The effective history: every step not undone, oldest first."""
        return tuple(self._done)

    @property
    def initial(self) -> StateT:
        """The state before the first step (a snapshot's game: before its oldest kept step)."""
        return self._initial

    @initial.setter
    def initial(self, state: StateT) -> None:
        self._initial = state
        if not self._done:  # no step yet: the game is at it
            self.state = state

    @property
    def history(self) -> History[StateT, EventT]:
        """`steps` without the copy: immutable, and O(1) per event (it is brought up to
        date from the steps changed since it was last taken, so replay pays nothing)."""
        done, history = self._done, self._history
        depth = len(done)
        if history._len == depth and self._synced == depth:  # taken per event: _len, not
            return history  # len(), whose __len__ is a Python call
        while history._len > self._synced:
            history = history.pop()
        for step in done[history._len:]:
            history = _history_on(step, history)
        self._history, self._synced = history, depth
        return history

    def view(self) -> tuple[StateT, History[StateT, EventT], Step[StateT, EventT] | None,
                            Step[StateT, EventT] | None]:
        """`state`, `history`, `undo_step` and `redo_step` in one call: what every Update
        holds, read once per event (the history brought up to date by the one step pushed
        since, the common case, in place: `history` is a property call and a loop)."""
        done, undone, history = self._done, self._undone, self._history
        depth = len(done)
        if history._len != depth or self._synced != depth:
            if history._len == self._synced == depth - 1:
                history = self._history = _history_on(done[-1], history)
                self._synced = depth
            else:
                history = self.history
        return (self.state, history, done[-1] if done else None,
                undone[-1] if undone else None)

    @property
    def depth(self) -> int:
        """len(steps), without copying them (steps is a copy: O(game) per call)."""
        return len(self._done)

    @property
    def undo_step(self) -> Step[StateT, EventT] | None:
        return self._done[-1] if self._done else None

    @property
    def redo_step(self) -> Step[StateT, EventT] | None:
        return self._undone[-1] if self._undone else None

    def evaluate(self, event: EventT | CoreEvent, by: By = "touch") -> Result[StateT, EventT]:
        """What `event` would do, without doing it; raises the rules' refusals. `by`: where
        the event came from, kept in its step."""
        if type(event) in self._core_events:
            return self._evaluate_core(event)
        before = self.state  # the common case, the rules' event: no call before the rules
        state, outcomes, changed, amends = self._apply(before, event)  # type: ignore[arg-type]
        if not changed:
            return _new(Result, (_ResultKind.IGNORED, event, before, outcomes, None))
        done = self._done
        if amends and done:
            top = done[-1]
            step = _new(Step, (top.event, top.before, state, top.outcomes, top.by))
            return _new(Result, (_ResultKind.AMENDED, event, state, outcomes, step))
        step = _new(Step, (event, before, state, outcomes, by))
        return _new(Result, (_ResultKind.APPLIED, event, state, outcomes, step))

    def _evaluate_core(self, event: object) -> Result[StateT, EventT]:
        """What an undo, a redo or a second setup would do (the core's own events)."""
        if isinstance(event, Undo):
            if not self._done:
                raise NothingToUndo("there is nothing to undo", code="nothing_to_undo")
            step = self._done[-1]
            return Result(_ResultKind.UNDONE, event, step.before, (), step)
        if isinstance(event, Redo):
            if not self._undone:
                raise NothingToUndo("there is nothing to redo", code="nothing_to_redo")
            step = self._undone[-1]
            return Result(_ResultKind.REDONE, event, step.after, step.outcomes, step)
        raise BadEvent("a game has one setup, at its start; start a new game instead",
                       code="second_setup")

    def accept(self, result: Result[StateT, EventT]) -> None:
        """Make an evaluated result real; it must be the latest evaluation of this game."""
        kind = result.kind
        if kind is _ResultKind.APPLIED:  # the common case first
            step = result.step
            assert step is not None and step.before is self.state
            self._done.append(step)
            if self._undone:
                self._undone.clear()
        elif kind is _ResultKind.UNDONE:
            self._undone.append(self._done.pop())
            self._synced = min(self._synced, len(self._done))
        elif kind is _ResultKind.REDONE:
            self._done.append(self._undone.pop())
        elif kind is _ResultKind.AMENDED:
            assert result.step is not None and result.step.before is self._done[-1].before
            self._done[-1] = result.step
            self._synced = min(self._synced, len(self._done) - 1)
        else:  # IGNORED: kept in the record, nothing changes
            return
        self.state = result.state

    def push(self, event: EventT | CoreEvent, by: By = "touch") -> Result[StateT, EventT]:
        if type(event) not in self._core_events:  # evaluate + accept, fused: the hot path
            before = self.state
            state, outcomes, changed, amends = self._apply(before, event)  # type: ignore[arg-type]
            if changed and not amends:
                step = _new(Step, (event, before, state, outcomes, by))
                self._done.append(step)
                self.state = state
                if self._undone:
                    self._undone.clear()
                return _new(Result, (_ResultKind.APPLIED, event, state, outcomes, step))
            if not changed:  # kept in the record, no step: nothing to accept
                return _new(Result, (_ResultKind.IGNORED, event, before, outcomes, None))
        result = self.evaluate(event, by)
        self.accept(result)
        return result

    def push_json(self, obj: object) -> Result[StateT, EventT]:
        """Parse one stored or transcript object (undo and redo included) and push it."""
        event: EventT | CoreEvent = read_event(self.rules, obj)
        return self.push(event)

    def tail(self, depth: int) -> tuple[tuple[Step[StateT, EventT], ...],
                                        tuple[Step[StateT, EventT], ...]]:
        """The newest `depth` undo steps and redo steps (oldest first): what a snapshot or
        a writer's checkpoint keeps, so that keeping them never costs O(game length)."""
        return tuple(self._done[-depth:]), tuple(self._undone[-depth:])

    @classmethod
    def restore(cls, setup: JsonEvent, state: object,
                done: Iterable[Step[object, JsonEvent]],
                undone: Iterable[Step[object, JsonEvent]]) -> SomeGame:
        """A game at `state` whose undo reaches back only through `done` (a snapshot's
        tail): undo past the oldest kept step says "there is nothing to undo"."""
        game: SomeGame = Game(setup)
        game._done, game._undone = list(done), list(undone)
        game.initial = game._done[0].before if game._done else state
        if game._done:
            game.state = game._done[-1].after
        return game

    @classmethod
    def replay_stored(cls, objs: Iterable[Json]) -> StoredReplay:
        """Replay stored event objects (setup first) as far as they go.

        A stored game should always replay; this tolerates one that does not (written by an
        older version's rules, or edited by hand) and says where and why it stopped, so that
        the caller can keep the good part and set the rest aside.
        """
        it = iter(objs)
        try:
            game: SomeGame = Game(read_setup(next(it, None)))
        except CompanionError as exc:
            return StoredReplay(None, 0, exc)
        return game.replay_more(it, applied=1)

    def replay_more(self: SomeGame, objs: Iterable[Json], applied: int) -> StoredReplay:
        """Push stored event objects after the `applied` ones already in this game, as far
        as they go (a full replay, or the events after a snapshot)."""
        for obj in objs:
            try:
                self.push_json(obj)
            except CompanionError as exc:
                return StoredReplay(self, applied, exc)
            applied += 1
        return StoredReplay(self, applied, None)

    @classmethod
    def from_json(cls, objs: Iterable[Json]) -> SomeGame:
        """Replay a whole list of event objects whose first is the setup; raises at the
        first that does not replay."""
        game, _, error = cls.replay_stored(objs)
        if error is not None:
            raise error
        assert game is not None
        return game

    @classmethod
    def from_events(cls, events: Iterable[JsonEvent]) -> SomeGame:
        """Replay a whole event list whose first event is the setup."""
        it = iter(events)
        first = next(it, None)
        name: object = getattr(first, "game", None)
        if first is None or not isinstance(name, str):
            raise BadEvent("a game must start with its setup", code="no_setup")
        game: SomeGame = Game(first)
        for event in it:
            game.push(event)
        return game


# Some game, its rules found by name (Game(setup), a stored game): held as the core knows
# every game, as SomeRules (its states objects, its events JsonEvents).
SomeGame: TypeAlias = Game[JsonEvent, object, JsonEvent]
