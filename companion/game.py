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

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, NamedTuple

from companion import games
from companion.errors import BadEvent, CompanionError, NothingToUndo
from companion.rules import Rules

__all__ = [
    "Game", "Redo", "Result", "ResultKind", "Step", "StoredReplay", "Undo", "read_event",
    "read_setup", "rules_of",
]


@dataclass(frozen=True, slots=True)
class Undo:
    """Take back the last step (any game)."""

    def to_json(self) -> dict[str, Any]:
        return {"type": "undo"}


@dataclass(frozen=True, slots=True)
class Redo:
    """Apply the last undone step again (any game)."""

    def to_json(self) -> dict[str, Any]:
        return {"type": "redo"}


class ResultKind(StrEnum):
    APPLIED = "applied"
    IGNORED = "ignored"
    AMENDED = "amended"  # the last step refined in place (see Transition.amends)
    UNDONE = "undone"
    REDONE = "redone"


class Step(NamedTuple):
    """One applied event with the states on both sides of it."""

    event: Any
    before: Any
    after: Any
    outcomes: tuple[Any, ...]


class Result(NamedTuple):
    """What `Game.evaluate` found: the state after, and the step it adds or takes back."""

    kind: ResultKind
    event: Any
    state: Any
    outcomes: tuple[Any, ...]
    step: Step | None = None  # the new step, or the step undone/redone


class StoredReplay(NamedTuple):
    """How far a stored game replayed: `applied` objects (the setup counts), and the
    refusal that stopped it (None: all of them)."""

    game: Game | None
    applied: int
    error: CompanionError | None


def rules_of(setup: Any) -> Rules:
    """The rules a setup object belongs to (its `game`, else the default game)."""
    return games.get(getattr(setup, "game", games.DEFAULT))


def read_setup(obj: object) -> Any:
    """A setup object from its JSON object: the `"game"` key picks the rules (default
    "revenge", so every journal and transcript from before the board game still reads)."""
    if not isinstance(obj, dict):
        raise BadEvent('each line must be a JSON object such as {"type": "play", "card": "7"}')
    if obj.get("type") != "setup":
        raise BadEvent("a game must start with its setup", code="no_setup")
    return games.get(obj.get("game", games.DEFAULT)).parse_setup(obj)


def read_event(rules: Rules, obj: object) -> Any:
    """Any event after the setup: undo and redo are the core's, the rest the game's."""
    if isinstance(obj, dict):
        kind = obj.get("type")
        if kind == "undo":
            return Undo()
        if kind == "redo":
            return Redo()
        if kind == "setup":
            raise BadEvent("a game has one setup, at its start; start a new game instead",
                           code="second_setup")
    return rules.parse_event(obj)  # type: ignore[arg-type]


class Game:
    """One game from its setup: `push` events, read `state`, walk `steps`."""

    def __init__(self, setup: Any, rules: Rules | None = None) -> None:
        self.setup = setup
        self.rules = rules_of(setup) if rules is None else rules
        self.initial = self.rules.initial_state(setup)
        self._done: list[Step] = []
        self._undone: list[Step] = []

    @property
    def state(self) -> Any:
        return self._done[-1].after if self._done else self.initial

    @property
    def steps(self) -> tuple[Step, ...]:
        """The effective history: every step not undone, oldest first."""
        return tuple(self._done)

    @property
    def undo_step(self) -> Step | None:
        return self._done[-1] if self._done else None

    @property
    def redo_step(self) -> Step | None:
        return self._undone[-1] if self._undone else None

    def evaluate(self, event: Any) -> Result:
        """What `event` would do, without doing it; raises the rules' refusals."""
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
        if isinstance(event, type(self.setup)):
            raise BadEvent("a game has one setup, at its start; start a new game instead",
                           code="second_setup")
        before = self.state
        tr = self.rules.apply(before, event)
        if not tr.changed:
            return Result(ResultKind.IGNORED, event, before, tr.outcomes)
        if tr.amends and self._done:
            top = self._done[-1]
            step = Step(top.event, top.before, tr.state, top.outcomes)
            return Result(ResultKind.AMENDED, event, tr.state, tr.outcomes, step)
        step = Step(event, before, tr.state, tr.outcomes)
        return Result(ResultKind.APPLIED, event, tr.state, tr.outcomes, step)

    def accept(self, result: Result) -> None:
        """Make an evaluated result real; it must be the latest evaluation of this game."""
        if result.kind is ResultKind.UNDONE:
            self._undone.append(self._done.pop())
        elif result.kind is ResultKind.REDONE:
            self._done.append(self._undone.pop())
        elif result.kind is ResultKind.AMENDED:
            assert result.step is not None and result.step.before is self._done[-1].before
            self._done[-1] = result.step
        elif result.kind is ResultKind.APPLIED:
            assert result.step is not None and result.step.before is self.state
            self._done.append(result.step)
            self._undone.clear()

    def push(self, event: Any) -> Result:
        result = self.evaluate(event)
        self.accept(result)
        return result

    def push_json(self, obj: object) -> Result:
        """Parse one stored or transcript object (undo and redo included) and push it."""
        return self.push(read_event(self.rules, obj))

    def act(self, kind: str, **fields: Any) -> Result:
        """Push the event `kind` with `fields` (None ones left out), parsed by the rules."""
        return self.push_json({"type": kind, **{k: v for k, v in fields.items()
                                                if v is not None}})

    def play(self, card: str, player: str | None = None, target: str | None = None) -> Result:
        """Shorthand for the card game's commonest event: `game.play("7")`."""
        return self.act("play", card=card, player=player, target=target)

    @classmethod
    def replay_stored(cls, objs: Iterable[dict[str, Any]]) -> StoredReplay:
        """Replay stored event objects (setup first) as far as they go.

        A stored game should always replay; this tolerates one that does not (written by an
        older version's rules, or edited by hand) and says where and why it stopped, so that
        the caller can keep the good part and set the rest aside.
        """
        it = iter(objs)
        try:
            game = cls(read_setup(next(it, None)))
        except CompanionError as exc:
            return StoredReplay(None, 0, exc)
        applied = 1
        for obj in it:
            try:
                game.push_json(obj)
            except CompanionError as exc:
                return StoredReplay(game, applied, exc)
            applied += 1
        return StoredReplay(game, applied, None)

    @classmethod
    def from_json(cls, objs: Iterable[dict[str, Any]]) -> Game:
        """Replay a whole list of event objects whose first is the setup; raises at the
        first that does not replay."""
        game, _, error = cls.replay_stored(objs)
        if error is not None:
            raise error
        assert game is not None
        return game

    @classmethod
    def from_events(cls, events: Iterable[Any]) -> Game:
        """Replay a whole event list whose first event is the setup."""
        it = iter(events)
        first = next(it, None)
        if not isinstance(getattr(first, "game", None), str):
            raise BadEvent("a game must start with its setup", code="no_setup")
        game = cls(first)
        for event in it:
            game.push(event)
        return game
