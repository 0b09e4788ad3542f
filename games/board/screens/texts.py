"""The board screen's sentences in English and French, from the one catalogue
(companion/locales/<lang>.po, the board's section, and the board's own
games/board/locales/<lang>.po, registered here).

`bt` is `ui.i18n.tr` under the board's own name. Options and squares are worded by the
engine (games.board.rules.explain and places), in the words of the table, so each
sentence is written once.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from companion import catalogue
from ui.i18n import tr as bt

catalogue.add_locales(Path(__file__).parent.parent / "locales")

__all__ = ["bt", "card_label", "color_name", "describe", "loc_name", "loc_on", "why"]


def card_label(card: str | None, lang: str) -> str:
    if card is None:
        return ""
    return bt("card_sorry", lang) if card == "sorry" else str(card)


def color_name(color: str, lang: str) -> str:
    return bt(f"b_color_{color}", lang)


def loc_name(location: str, lang: str, owner: str | None = None) -> str:
    """A location in the words of the table ("blue's start circle"): the engine's own
    wording (games.board.rules.places), never a code."""
    from games.board.rules import place

    return place(location, lang, owner)


def loc_on(location: str, lang: str, owner: str | None = None) -> str:
    """"on <place>" / "in START" in the words of the table (the engine's wording)."""
    from games.board.rules import on_place

    return on_place(location, lang, owner)


def describe(option: dict[str, Any], lang: str, color: str | None = None) -> str:
    """One option or move in the words of the table: the engine's label of the Option,
    or, for a move known by its legs only (an undo step), the same words from its legs."""
    engine_option = option.get("option")
    if engine_option is not None:
        return str(engine_option.label(lang))
    from games.board.rules import legs_text

    return legs_text(option.get("legs") or [], lang, color, option.get("bumped") or ())


def why(option: dict[str, Any], lang: str) -> str:
    """Why an option is listed: the engine's own sentence when it gave one (its `why`
    maps languages to sentences, or is one English sentence), else the rule of its kind."""
    engine_option = option.get("option")
    if engine_option is not None:
        return str(engine_option.why(lang))
    given = option.get("why")
    if isinstance(given, dict) and given.get(lang):
        return str(given[lang])
    if isinstance(given, str) and given and lang == "en":
        return given
    kind = option.get("kind", "forward")
    parts = [bt(f"why_{kind}", lang)]
    if option.get("bumped"):
        parts.append(bt("why_bump", lang))
    return " ".join(parts)
