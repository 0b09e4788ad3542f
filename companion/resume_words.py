"""The last saved event of a game in table words, for the resume screen and the CLI.

After a power cut the app resumes at the last event that reached the journal; taps that
were still being saved are gone (at table pace at most one). Saying where the game
stands in the table's own words, "Resumed after 'Ana played 7'", lets the players check
it and tap again what came after. The words come from the language's catalogue
(each game's words module: companion.plugins.Manifest.words), the same as the undo
button's; the screen puts them in its own sentence.

>>> from companion.game import Game
>>> game = Game.from_json([{"type": "setup", "players": ["Ana", "Ben"]},
...                        {"type": "play", "card": "take2"}])
>>> last_saved_words(game), last_saved_words(game, "fr")
('Ana played Take 2', 'Ana a joué Pigez-en 2')
"""

from __future__ import annotations

from typing import Any

from companion import plugins
from companion.catalogue import DEFAULT_LANGUAGE, text
from companion.safe_text import clip

__all__ = ["last_saved_words", "step_words"]


def last_saved_words(game: Any, lang: str = DEFAULT_LANGUAGE) -> str | None:
    """The newest event in effect (after any undo), in words; None at the setup."""
    step = getattr(game, "undo_step", None)
    return None if step is None else step_words(step.event, step.before, lang, game.rules.name)


def step_words(event: Any, before: Any, lang: str = DEFAULT_LANGUAGE,
               game: str | None = None) -> str:
    """One event in words, in its game's own (its folder's words module): "Ana played 7",
    "Ana : de … à …"; a game without words says whose turn it was and the event's type."""
    obj = event.to_json() if hasattr(event, "to_json") else dict(event)
    own = plugins.words(game)
    if own is not None:
        return clip(str(own.step_words(obj, before, lang)), 80)
    return clip(f"{_mover(before, lang)}: {obj.get('type')}", 80)


def _mover(before: Any, lang: str) -> str:
    """Whose turn it was before the event (a game without words of its own)."""
    turn = getattr(before, "turn", None)
    if not isinstance(turn, int):
        return text("rw_table", lang)
    name = getattr(before, "name", None)
    if callable(name):
        return str(name(turn))
    names = getattr(before, "names", ())
    return str(names[turn]) if 0 <= turn < len(names) else text("rw_table", lang)
