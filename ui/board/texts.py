"""The board screen's sentences in English and French (ui/locales/board_<lang>.json).

Kept apart from the card game's locale files so the two screens' texts never collide;
`bt` falls back to English, like `ui.i18n.tr`. Option wording is made here from the
option's facts (kind, legs, bumped), never from a rule of its own.
"""

from __future__ import annotations

from typing import Any

from ui.i18n import DEFAULT_LANGUAGE, LANGUAGES, table

CARDS = ("1", "2", "3", "4", "5", "7", "8", "10", "11", "12", "sorry")


def bt(key: str, lang: str = DEFAULT_LANGUAGE, **values: Any) -> str:
    """The board text `key` in `lang`, from ui/locales/board_<lang>.json (read and cached
    by ui.i18n like the card game's files); English when `lang` lacks it."""
    lang = lang if lang in LANGUAGES else DEFAULT_LANGUAGE
    text = table(f"board_{lang}").get(key)
    if text is None:
        text = table(f"board_{DEFAULT_LANGUAGE}")[key]
    return text.format(**values) if values else text


def card_label(card: str | None, lang: str) -> str:
    if card is None:
        return ""
    return bt("card_sorry", lang) if card == "sorry" else str(card)


def color_name(color: str, lang: str) -> str:
    return bt(f"color_{color}", lang)


def loc_name(location: str, lang: str) -> str:
    """A location as players say it: "square 12", "safety 3", "START", "HOME"."""
    if location in ("START", "HOME"):
        return bt(f"loc_{location}", lang)
    if location.startswith("S"):
        return bt("loc_S", lang, k=location[1:])
    return bt("loc_T", lang, n=location[1:])


def describe(option: dict[str, Any], lang: str) -> str:
    """One option in words: "square 20 to square 28, bumps blue"."""
    kind = option.get("kind", "forward")
    legs = option.get("legs", [])
    landed = option.get("landed") or [t for _f, t in legs]
    if kind == "decline" or not legs:
        return bt("k_decline", lang)
    parts = []
    for (frm, to), land in zip(legs, landed, strict=False):
        if kind in ("switch", "sorry"):
            parts.append(bt(f"k_{kind}", lang, frm=loc_name(frm, lang), to=loc_name(land, lang)))
        else:
            word = "forward" if kind == "split" else kind
            parts.append(bt(f"k_{word}", lang, frm=loc_name(frm, lang), to=loc_name(land, lang)))
        if land != to:
            parts[-1] += ", " + bt("k_slides", lang, to=loc_name(to, lang))
    text = "; ".join(parts)
    bumped = option.get("bumped") or []
    if bumped:
        who = ", ".join(color_name(c, lang) for c in bumped)
        text += ", " + bt("k_bumps", lang, who=who)
    return text


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
