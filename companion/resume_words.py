"""The last saved event of a game in table words, for the resume screen and the CLI.

After a power cut the app resumes at the last event that reached the journal; taps that
were still being saved are gone (at table pace at most one). Saying where the game
stands in the table's own words, "Resumed after 'Ana played 7'", lets the players check
it and tap again what came after. The words come from the language's catalogue
(companion/locales), the same as the undo button's; the screen puts them in its own
sentence.

>>> from companion.game import Game
>>> game = Game.from_json([{"type": "setup", "players": ["Ana", "Ben"]},
...                        {"type": "play", "card": "take2"}])
>>> last_saved_words(game), last_saved_words(game, "fr")
('Ana played Take 2', 'Ana a joué Pigez-en 2')
"""

from __future__ import annotations

from typing import Any

from companion import plugins
from companion.catalogue import DEFAULT_LANGUAGE, has, text
from companion.safe_text import clip
from games.board.rules import legs_text, place

__all__ = ["card_words", "last_saved_words", "step_words"]


def last_saved_words(game: Any, lang: str = DEFAULT_LANGUAGE) -> str | None:
    """The newest event in effect (after any undo), in words; None at the setup."""
    step = getattr(game, "undo_step", None)
    return None if step is None else step_words(step.event, step.before, lang, game.rules.name)


def _mover(before: Any, lang: str) -> str:
    """Whose turn it was before the event."""
    turn = getattr(before, "turn", None)
    if not isinstance(turn, int):
        return text("rw_table", lang)
    name = getattr(before, "name", None)
    if callable(name):
        return str(name(turn))
    names = getattr(before, "names", ())
    return str(names[turn]) if 0 <= turn < len(names) else text("rw_table", lang)


def card_words(code: object, lang: str = DEFAULT_LANGUAGE) -> str:
    """A card of the card game as the edition in `lang` prints it (the catalogue's
    "revenge_card_<kind>", as the undo label): "7", "Glissade 15", "Pigez-en 2"."""
    code = str(code)
    if code.startswith("slide:"):
        return text("revenge_card_slide", lang, value=code[6:])
    return text(f"revenge_card_{code}", lang) if has(f"revenge_card_{code}", lang) else code


def step_words(event: Any, before: Any, lang: str = DEFAULT_LANGUAGE,
               game: str | None = None) -> str:
    """One event in words, whoever's game it is: "Ana played 7", "Ana : de … à …"; a game
    whose folder has its own words (companion.plugins.Manifest.words) says its own."""
    obj = event.to_json() if hasattr(event, "to_json") else dict(event)
    own = plugins.words(game)
    if own is not None:
        return clip(str(own.step_words(obj, before, lang)), 80)
    kind, who = obj.get("type"), _mover(before, lang)
    if kind == "play":
        target = obj.get("target")
        card = card_words(obj.get("card"), lang)
        words = (text("step_play_on", lang, name=who, card=card, target=target) if target
                 else text("step_play", lang, name=who, card=card))
    elif kind == "draw":
        drawn = obj.get("card")
        words = text("b_step_draw", lang, name=who,
                     card=text("card_sorry", lang) if drawn == "sorry" else str(drawn))
    elif kind == "move":
        words = text("b_step_move", lang, name=who, move=legs_text(obj.get("legs") or [], lang))
    elif kind == "no_play":
        words = text("rw_no_play", lang, name=who, card=str(obj.get("discard")))
    elif kind == "place":
        color = str(obj.get("color"))
        named = text(f"b_color_{color}", lang) if has(f"b_color_{color}", lang) else color
        words = text("b_step_place", lang, color=named,
                     frm=place(str(obj.get("from")), lang, color),
                     to=place(str(obj.get("to")), lang, color))
    elif kind == "press":
        words = text("step_press", lang, name=obj.get("player"))
    elif kind == "close":
        words = text("step_close", lang)
    elif kind == "end_play2":
        words = text("step_end_play2", lang, name=who)
    elif kind == "tiebreak":
        words = text("step_tiebreak", lang, name=obj.get("player"), total=obj.get("total"))
    else:
        words = f"{who}: {kind}"
    return clip(words, 80)
