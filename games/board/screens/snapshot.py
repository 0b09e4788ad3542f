"""The board screen's view of the live game, made from its typed update
(companion.live.Live over the board's rules): the position for the board view, the
listed options, what the last event did (the engine's outcomes, told apart by their
types), and the undo and redo steps. Made once per update (BoardModel.refresh), so a
snapshot taken on the Kivy thread never races a GPIO thread's event.
"""

from __future__ import annotations

from typing import Any

from companion.errors import CompanionError
from companion.session import ResultKind, Step
from games.board.rules import (
    RULES,
    BoardEvent,
    BoardState,
    DrawAgain,
    Finished,
    Forfeited,
    Move,
    Moved,
    Placed,
    blocked,
    explain,
    geometry,
)
from games.board.screens.door import BoardSnapshot, BoardUpdate
from ui.i18n import LANGUAGES

SHOWN = (ResultKind.APPLIED, ResultKind.REDONE)  # results whose outcomes the screen tells


def snapshot_of(update: BoardUpdate | None) -> BoardSnapshot | None:
    """The screen's moment of `update` (None: no board game is open)."""
    if update is None:
        return None
    state = update.state
    return BoardSnapshot(
        state=RULES.state_json(state),  # the board view's position: once per update
        options=[option_dict(e) for e in update.options if isinstance(e, Move)],
        last=last_of(update), undo=step_of(update.undo), redo=step_of(update.redo),
        companion_draws=state.setup.draws == "companion", setup=state.setup,
    )


def option_dict(move: Move) -> dict[str, Any]:
    """A listed move's Option as the screen lists it (BOARD.md's option fields), with the
    Option itself (its words and why in either language, asked for lazily) and the move
    to submit as it is when the option is chosen."""
    option = move.option
    assert option is not None  # the rules list their moves with their options (Move.of)
    return {
        "kind": option.kind, "legs": [list(leg) for leg in option.legs],
        "landed": list(option.landed), "bumped": list(option.bumped),
        "pawns": {c: list(p) for c, p in option.pawns.items()},
        "event": move, "option": option,
    }


def last_of(update: BoardUpdate) -> dict[str, Any] | None:
    """What the latest event did, as the screen's one big sentence needs it."""
    result = update.result
    if result is None or result.kind not in SHOWN:
        return None
    state = update.state
    names = dict(zip(state.position.colors, state.names, strict=True))
    last: dict[str, Any] | None = None
    for o in result.outcomes:
        if isinstance(o, Forfeited):
            last = {"what": "forfeit", "name": names.get(o.color, ""), "card": o.card,
                    "draw_again": o.again,
                    "why": {lang: explain(o, lang) for lang in LANGUAGES}}
        elif isinstance(o, Finished) and o.place == 1:
            return {"what": "won", "name": names.get(o.color, "")}
        elif isinstance(o, DrawAgain) and last is None:
            last = {"what": "draw_again", "name": names.get(o.color, ""), "card": "2"}
        elif isinstance(o, Moved) and last is None:
            opt = o.option
            last = {"what": "moved", "name": names.get(o.color, ""), "kind": opt.kind,
                    "legs": [list(leg) for leg in opt.legs], "bumped": list(opt.bumped),
                    "option": opt}
        elif isinstance(o, Placed):
            last = {"what": "placed", "name": names.get(o.color, ""), "color": o.color,
                    "from": o.src, "to": o.dst}
    if last is not None:
        last["seq"] = len(update.steps)  # the same words twice are still two events
    return last


def step_of(step: Step[BoardState, BoardEvent] | None) -> dict[str, Any] | None:
    """An undo or redo step as its undo label needs it: the event's fields, whose turn it
    was and whether the camera saw it."""
    if step is None:
        return None
    event: BoardEvent = step.event
    out = dict(event.to_json())
    before = step.before
    out["name"] = "" if before.turn is None else before.names[before.turn] or ""
    out["by_camera"] = step.by == "camera"
    return out


def blocked_why(state: BoardState, location: str, lang: str) -> str | None:
    """Why the mover's pawn on `location` cannot use the card drawn (None: the engine
    names no reason for that pawn)."""
    mover = state.color
    if state.card is None or mover is None:
        return None
    for reason in blocked(state.position, state.card, mover):
        if geometry.LOCATIONS[reason.src] == location:
            return str(explain(reason, lang))
    return None


def refusal_words(exc: CompanionError, lang: str) -> str | None:
    """A refusal of the board rules in `lang` (None: not one the board words)."""
    try:
        return str(explain(exc, lang))
    except (TypeError, ValueError, KeyError):
        return None
