"""The interface every game's rules implement: the contract between a game and the core.

The core (game/undo stack, session, journal, transcripts, history, stats) is the same for
every game; everything a game decides lives behind `Rules`, one object per game, found by
its name in `companion.games` (the setup's `"game"` key, default `"revenge"`).

Like python-chess's boards, a game's rules are pure: `apply` never mutates a state, reads
no clock and does no I/O, and `options` lists what `apply` accepts now, so no caller
has to find legality by trial. Undo, redo and the setup are the core's, not a game's.

Optional, used by the core when a game's rules have them (the card game has all four):
- `countdown(state) -> Countdown | None`: a window the session's timer closes by the clock;
- `counters: tuple[str, ...]`: the names of `stats`' counters in the order shown (so a
  player with none still shows zeros);
- `rounds_played(steps) -> int`: the history's ROUNDS column;
- `describe(state) -> str`: `replay` without `--json` (else the JSON state, indented).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import (
    TYPE_CHECKING,
    Generic,
    NamedTuple,
    Protocol,
    TypeAlias,
    TypeGuard,
    TypeVar,
    runtime_checkable,
)

if TYPE_CHECKING:
    from companion.game import Step

__all__ = [
    "Countdown", "FastRules", "GameSummary", "Json", "JsonEvent", "Rules", "SomeRules",
    "Transition",
    "json_object",
]

# A JSON object as stored and printed (journal lines, transcripts, `replay --json`). JSON
# is untyped by nature: its values are objects, each looked at before it is used, and a
# game's parse_* is where they become typed (a game may declare its own parse_* and
# to_json with dict[str, Any]: that still meets this protocol).
Json: TypeAlias = dict[str, object]


def json_object(obj: object) -> TypeGuard[dict[str, object]]:
    """Whether `obj` is a JSON object; its values read as objects (each looked at before
    it is used), not as Any.

    >>> json_object({"type": "undo"}), json_object([1])
    (True, False)
    """
    return isinstance(obj, dict)


class JsonEvent(Protocol):
    """What the core needs of any event, whatever its game: its JSON, to store it."""

    def to_json(self) -> Json: ...


SetupT = TypeVar("SetupT", bound=JsonEvent)  # a game's setup (frozen, `game` names it)
StateT = TypeVar("StateT")  # a game's state (frozen)
EventT = TypeVar("EventT", bound=JsonEvent)  # a game's events, options included (frozen)
EventT_contra = TypeVar("EventT_contra", bound=JsonEvent, contravariant=True)  # FastRules'


class Transition(NamedTuple, Generic[StateT]):
    """What `apply` returns: the new state and what happened (for voice, lamps, stats).

    `changed` False: the event is kept in the record but is no undo step (an ignored
    press). `amends`: it only refines the previous step, so one undo takes both back.
    """

    state: StateT
    outcomes: tuple[object, ...]  # the game's own outcome objects
    changed: bool = True
    amends: bool = False


class GameSummary(NamedTuple):
    """What history and the result row need of a state, whatever the game."""

    players: tuple[str, ...]
    winner: str | None
    over: bool


@runtime_checkable
class Rules(Protocol[SetupT, StateT, EventT]):
    """One game's rules, typed by its setup, state and event types: a game declares
    `RULES: Rules[Setup, State, Event]`, so mypy checks its rules and their callers.
    Events are frozen objects with `to_json() -> dict`. The options are events too: what
    the table chooses is submitted as it is (there is no separate option type)."""

    name: str  # the setup's "game" value: "revenge", "board"

    def parse_setup(self, obj: Json) -> SetupT:
        """A validated setup event from its JSON object; BadSetup names what is wrong."""

    def parse_event(self, obj: Json) -> EventT:
        """Any other event of this game from its JSON object (never setup, undo or redo);
        BadEvent names what is wrong."""

    def initial_state(self, setup: SetupT) -> StateT:
        """The state before the first event."""

    def apply(self, state: StateT, event: EventT) -> Transition[StateT]:
        """The rules: the transition, or an IllegalEvent with one plain sentence."""

    def options(self, state: StateT) -> Sequence[EventT]:
        """Every event `apply` accepts now that changes the game, in a stable order, each
        ready to submit as it is (the session works them out once per state)."""

    def state_json(self, state: StateT) -> Json:
        """The state as `replay --json` prints it (TRANSCRIPT.md, BOARD.md)."""

    def summary(self, state: StateT) -> GameSummary:
        """Players, winner and whether the game is over."""

    def stats(self, steps: Sequence[Step[StateT, EventT]]) -> dict[str, dict[str, int]]:
        """Per-player counters of one game from its effective steps (`Game.steps`), for
        `stats`: name -> counter -> value. Counters are summed over games by the core."""


class FastRules(Protocol[StateT, EventT_contra]):
    """What a game's rules may offer beside `Rules.apply` (optional: `Game` looks for it):
    the transition's fields as a plain tuple, (state, outcomes, changed, amends), where
    `apply` builds a Transition that the game loop only unpacks."""

    def apply_parts(self, state: StateT, event: EventT_contra
                    ) -> tuple[StateT, tuple[object, ...], bool, bool]:
        """`apply(state, event)`'s fields, the same refusals raised."""


# Some game's rules, found by name (companion.games.get): its own types are known to it
# alone (Python has no existential types), so the core holds them as what it knows of
# every game, its states objects and its events JsonEvents: mypy checks that the core only
# hands a game back what that game gave it. Each game's parts reach the live game typed,
# through companion.live.Live.
SomeRules: TypeAlias = Rules[JsonEvent, object, JsonEvent]


class Countdown(NamedTuple):
    """A window the table closes by the clock (the card game's steal and block windows).

    A game whose rules have `countdown(state) -> Countdown | None` gets the core's window
    timer: `kind` picks the seconds (`Session.set_window_seconds`), `key` tells one window
    from the next (equal keys: the same window, its countdown goes on), `window` is the
    state's own object (what `Session.close_window(expected=...)` compares), and `close`
    is the event the timer submits when the time is up.
    """

    kind: str
    key: Hashable
    window: object
    close: JsonEvent
