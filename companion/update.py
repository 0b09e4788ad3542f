"""What a Session tells its listeners after each change: one immutable `Update`.

Its own module so that the session's helpers (companion.windows, companion.session_background)
and the parts that listen (ui/, hardware/) can name it without importing the session.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Generic, NamedTuple, TypeVar

from companion.game import Result, Step
from companion.rules import GameSummary, JsonEvent

__all__ = ["Listener", "Update"]

# the game's state and events (companion.rules); an update only hands them out
StateT_co = TypeVar("StateT_co", covariant=True)
EventT_co = TypeVar("EventT_co", bound=JsonEvent, covariant=True)


class Update(NamedTuple, Generic[StateT_co, EventT_co]):
    """One change of the live game, as listeners and `Session.update` see it. Immutable:
    the states, steps and events are frozen, so it can cross threads as it is. A
    NamedTuple, not a frozen dataclass: one is built per event, four times cheaper.

    game: the rules' name ("revenge"); result: what the event did (None for a game just
    started or resumed); steps: the effective history (oldest first; the card table shows
    the round's cards from it); undo/redo: the step each would take back or apply again;
    options: `Rules.options(state)`, worked out once per state: every event the rules
    accept now, each ready to submit as it is (a board move carries its Option);
    summary: the players (seating order), the winner and whether the game is over, for any
    game (`Rules.summary`, once per event): what a part serving every game reads;
    damage: what resuming had to set aside, if anything; unsaved: a failed write took the
    game back to the last saved event: why, in one sentence.

    Typed by its game: a game's own parts read `Update[State, Event]` through
    companion.live.Live; a part serving every game reads `Update[object, JsonEvent]`.
    """

    game_id: int | None
    game: str
    state: StateT_co
    result: Result[StateT_co, EventT_co] | None
    steps: Sequence[Step[StateT_co, EventT_co]]  # a game.History: immutable, O(1) per update
    undo: Step[StateT_co, EventT_co] | None
    redo: Step[StateT_co, EventT_co] | None
    options: tuple[EventT_co, ...]
    summary: GameSummary
    damage: str | None = None
    unsaved: str | None = None


# What every listener of the session hears: any game's update, its types unknown to it.
Listener = Callable[[Update[object, JsonEvent]], None]
