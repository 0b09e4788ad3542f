"""Plain English for events and steps: undo labels ("Undo: Ben played 7") and CLI output.

The UI translates the same facts itself; this is the core's own wording.
"""

from __future__ import annotations

from companion.cards import CardKind
from companion.events import Close, EndPlay2, Event, Play, Press, Redo, Setup, Tiebreak, Undo
from companion.state import GameState


def describe(event: Event, before: GameState) -> str:
    """What the event was, said from the state it was applied to."""
    if isinstance(event, Play):
        text = f"{before.name(before.turn)} played {event.card.label}"
        if event.card.kind is CardKind.SORRY and event.target:
            text += f" on {event.target}"
        return text
    if isinstance(event, Press):
        return f"{event.player} pressed SORRY!"
    if isinstance(event, Close):
        return "the SORRY! window closed"
    if isinstance(event, EndPlay2):
        return f"{before.name(before.turn)} ended the Play 2"
    if isinstance(event, Tiebreak):
        return f"{event.player}'s tiebreaker total {event.total}"
    if isinstance(event, Setup):
        return "a new game of " + ", ".join(event.players)
    if isinstance(event, Undo):
        return "undo"
    if isinstance(event, Redo):
        return "redo"
    return type(event).__name__
