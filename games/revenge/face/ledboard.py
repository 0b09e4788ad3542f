"""What the LED board should show for a game state: the host's half of `=STATE`.

Pure and quick, so the session's listener can call it under the session's lock.
"""

from __future__ import annotations

from companion.session import Result, ResultKind
from games.revenge.rules import Awaiting, Event, GameState, Happening, outcomes_of
from hardware.firmware.pawnled import LedBoardState

# Strongest first: one event can do several things (a steal that also wins the game).
ALERT_OF = (
    (Happening.WON, "win"),
    (Happening.STEAL_BLOCKED, "block"),
    (Happening.FLIP_BLOCKED, "block"),
    (Happening.STOLEN, "steal"),
    (Happening.STEAL_CALLED, "steal"),
    (Happening.CALLER_REPLACED, "steal"),
    (Happening.FLIP_PLAYED, "steal"),
    (Happening.BUST, "bust"),
    (Happening.REACHED_21, "21"),
)


def alert_for(state: GameState, result: Result[GameState, Event] | None) -> str:
    """The `alert` field: from what the last event did, else from what the table awaits.

    Undo shows the state it returns to, so only applied and redone events count.
    """
    if state.winner is not None:
        return "win"
    if result is not None and result.kind in (ResultKind.APPLIED, ResultKind.REDONE):
        happened = {o.what for o in outcomes_of(result)}
        for what, alert in ALERT_OF:
            if what in happened:
                return alert
    if state.awaiting is Awaiting.STEAL:
        return "21"
    if state.awaiting is Awaiting.BLOCK:
        return "steal"
    return "none"


def ledboard_state(state: GameState, result: Result[GameState, Event] | None = None, *,
                brightness: int = 64) -> LedBoardState:
    seats = range(len(state.setup.players))
    return LedBoardState(
        players=len(state.setup.players),
        turn=state.turn if state.running else None,
        home=[state.home(s) for s in seats],
        alert=alert_for(state, result),
        bri=brightness,
        colors=[c.value[0] for c in state.setup.colors],
    )
