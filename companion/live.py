"""One game's typed door onto the live game: what its screen model and hardware face use.

The Session serves every game, so it hands out updates and results of any game as
`Update[object, JsonEvent]`. A game's own parts know their game's types: `Live(session,
RULES)` reads the same updates as `Update[State, Event]` (only while that game is the
one open; None otherwise) and submits the game's typed events straight, with no JSON
on the way and nothing for mypy to take on trust beyond the one check below.

>>> from games.revenge.rules import RULES, Play, Setup
>>> from games.revenge.rules.cards import Card
>>> from companion.session import Session
>>> live = Live(Session(), RULES)
>>> live.new_game(Setup.create(["Ana", "Ben"])).state.total
0
>>> live.submit(Play(Card.parse("7"))).state.total
7
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Generic, Protocol, TypeVar, cast

from companion.errors import NoGame
from companion.game import By, CoreEvent, Result
from companion.rules import JsonEvent, Rules
from companion.update import Listener, Update

__all__ = ["Live", "typed_update"]

SetupT = TypeVar("SetupT", bound=JsonEvent)
StateT = TypeVar("StateT")
EventT = TypeVar("EventT", bound=JsonEvent)


def typed_update(update: Update[object, JsonEvent] | None,
                 rules: Rules[SetupT, StateT, EventT]) -> Update[StateT, EventT] | None:
    """`update` as the game of `rules` knows it, when it is that game's (else None): for a
    part handed any game's update (a hardware face, a listener of every game)."""
    if update is None or update.game != rules.name:
        return None
    return cast("Update[StateT, EventT]", update)


class Host(Protocol):
    """What a Live needs of its session (companion.session.Session is the one)."""

    @property
    def lock(self) -> contextlib.AbstractContextManager[object]: ...

    @property
    def update(self) -> Update[object, JsonEvent] | None: ...

    def new_game(self, setup: JsonEvent, *,
                 abandon: bool = False) -> Update[object, JsonEvent]: ...

    def submit(self, event: JsonEvent, by: By = "touch") -> Result[object, JsonEvent]: ...

    def subscribe(self, listener: Listener) -> Callable[[], None]: ...


class Live(Generic[SetupT, StateT, EventT]):
    """The session as one game sees it. Every update and result of a session is built by
    the open game's rules (Session._notify), so one whose `game` is these rules' name
    holds these rules' types: that check is the seam's only cast."""

    __slots__ = ("rules", "session")

    def __init__(self, session: Host, rules: Rules[SetupT, StateT, EventT]) -> None:
        self.session = session
        self.rules = rules

    def _ours(self, update: Update[object, JsonEvent] | None) -> Update[StateT, EventT] | None:
        return typed_update(update, self.rules)

    @property
    def update(self) -> Update[StateT, EventT] | None:
        """The latest update while this game is open (None: no game, or another one)."""
        return self._ours(self.session.update)

    @property
    def state(self) -> StateT | None:
        update = self.update
        return None if update is None else update.state

    def new_game(self, setup: SetupT, *, abandon: bool = False) -> Update[StateT, EventT]:
        """Start this game from its typed setup (Session.new_game)."""
        update = self._ours(self.session.new_game(setup, abandon=abandon))
        assert update is not None  # the session built it from these rules
        return update

    def submit(self, event: EventT | CoreEvent, by: By = "touch") -> Result[StateT, EventT]:
        """Submit one typed event of this game (or undo, redo), made `by` a tap, a button
        or the camera; NoGame when this game is not the one open, so an event never
        reaches another game's rules."""
        with self.session.lock:
            if self.update is None:
                raise NoGame(f"no {self.rules.name} game is open; start a new game first",
                             code="no_game")
            return cast("Result[StateT, EventT]", self.session.submit(event, by))

    def subscribe(self, listener: Callable[[Update[StateT, EventT]], None]
                  ) -> Callable[[], None]:
        """Call `listener` after every change of this game (not of another game)."""

        def ours(update: Update[object, JsonEvent]) -> None:
            typed = self._ours(update)
            if typed is not None:
                listener(typed)

        return self.session.subscribe(ours)
