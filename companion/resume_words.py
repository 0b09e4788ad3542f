"""The last saved event of a game in table words, for the resume screen and the CLI.

After a power cut the app resumes at the last event that reached the journal; taps that
were still being saved are gone (at table pace at most one). Saying where the game
stands in the table's own words, "Resumed after 'Ana played 7'", lets the players check
it and tap again what came after. English here; the screen puts it in its own sentence.

>>> from companion.game import Game
>>> game = Game.from_json([{"type": "setup", "players": ["Ana", "Ben"]},
...                        {"type": "play", "card": "7"}])
>>> last_saved_words(game)
'Ana played 7'
"""

from __future__ import annotations

from typing import Any

from companion.safe_text import clip

__all__ = ["last_saved_words", "step_words"]


def last_saved_words(game: Any) -> str | None:
    """The newest event in effect (after any undo), in words; None at the setup."""
    step = getattr(game, "undo_step", None)
    return None if step is None else step_words(step.event, step.before)


def _mover(before: Any) -> str:
    """Whose turn it was before the event."""
    turn = getattr(before, "turn", None)
    if not isinstance(turn, int):
        return "the table"
    name = getattr(before, "name", None)
    if callable(name):
        return str(name(turn))
    names = getattr(before, "names", ())
    return str(names[turn]) if 0 <= turn < len(names) else "the table"


def _card(code: object) -> str:
    text = str(code)
    return f"Slide {text[6:]}" if text.startswith("slide:") else {
        "sorry": "SORRY!", "switch": "Switch", "take2": "Take 2", "play2": "Play 2"}.get(
        text, text)


def step_words(event: Any, before: Any) -> str:
    """One event in words, whoever's game it is: "Ana played 7", "Red's pawn moved …"."""
    obj = event.to_json() if hasattr(event, "to_json") else dict(event)
    kind, who = obj.get("type"), _mover(before)
    if kind == "play":
        target = obj.get("target")
        words = f"{who} played {_card(obj.get('card'))}" + (f" on {target}" if target else "")
    elif kind == "draw":
        words = f"{who} drew {_card(obj.get('card'))}"
    elif kind == "move":
        legs = obj.get("legs") or []
        words = f"{who} moved " + ", then ".join(f"{a} to {b}" for a, b in legs)
    elif kind == "no_play":
        words = f"{who} could not play and discarded {_card(obj.get('discard'))}"
    elif kind == "place":
        words = f"the {obj.get('color')} pawn was put from {obj.get('from')} to {obj.get('to')}"
    elif kind == "press":
        words = f"{obj.get('player')} pressed their button"
    elif kind == "close":
        words = "the SORRY! window closed"
    elif kind == "end_play2":
        words = f"{who} ended Play 2"
    elif kind == "tiebreak":
        words = f"{obj.get('player')} counted {obj.get('total')} in the tiebreaker"
    else:
        words = f"{who}: {kind}"
    return clip(words, 80)
