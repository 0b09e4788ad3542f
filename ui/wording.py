"""Sentences every screen shares in the UI's language: a text as a full sentence, several
messages on one line, a refused tap's sentence and a hardware part's status. Each game's
own sentences (its cards, steps and outcomes) are in its folder (games/<game>/screens).
"""

from __future__ import annotations

import contextlib

from companion import plugins
from companion.errors import CompanionError
from companion.games import DEFAULT
from ui.i18n import has, tr

SENTENCE_ENDS = (".", "!", "?", "…")


def sentence(text: str) -> str:
    """`text` as a full sentence: a full stop last, unless it ends with its own (! or ?).
    Several messages side by side then read as sentences, never as one glued line
    ("Ana blocked the steal. Ana keeps the round."). The first letter is left alone: it
    may be a player's name, spelt as the players chose."""
    text = text.strip()
    if not text:
        return ""
    return text if text.endswith(SENTENCE_ENDS) else text + "."


def sentences(texts: list[str]) -> str:
    """Several messages, each as a full sentence, on one line."""
    return " ".join(s for s in (sentence(t) for t in texts) if s)


def _card_words(code: str, lang: str) -> str:
    """A card named in a refusal, in `lang`: the default game's card words (the games with
    refusals that name a card code; the code itself for a game without words)."""
    words = plugins.words(DEFAULT)
    return code if words is None else str(words.card_words(code, lang))


def refusal(exc: CompanionError, lang: str) -> str:
    """The sentence a refused tap shows: the core's own words in English, and in another
    language the same sentence built from the refusal's code and facts."""
    text = str(exc)
    key = f"refusal_{exc.code}"
    if lang != "en" and exc.code and has(key, lang):
        params = dict(exc.params)
        code = params.get("card")
        if isinstance(code, str):  # a card code: its name in `lang` (else said as it came)
            with contextlib.suppress(KeyError, ValueError, CompanionError):
                params["card"] = _card_words(code, lang)
        text = tr(key, lang, **params)
    return sentence(text[:1].upper() + text[1:])


STATUS_PARTS = ("buttons", "ledboard", "hardware")
# The word for each kind of hardware.StatusKind: a locale key "hw_<part>_<word>".
_STATUS_WORDS = {
    "off": "off",
    "ready": "ready",
    "touch only": "touch",  # no GPIO buttons work: play by touch (the README's words)
    "absent": "none",
    "connected": "connected",
    "reconnecting": "reconnecting",
    "gave up": "broken",
}


def status_text(part: str, kind: str, detail: str, lang: str) -> str:
    """One part's hardware status in a few words of `lang`: "Buttons: off", "LED board:
    not found", "Boutons : introuvables". The detail (pins, USB ids, environment, how to
    fix) is never on the status line: the Hardware page shows it (ui.screens.pages)."""
    del detail  # for the Hardware page only
    if part not in STATUS_PARTS:
        part = "hardware"
    word = _STATUS_WORDS.get(kind, "broken")
    return tr(f"hw_{part}", lang) + tr("colon", lang) + tr(f"hw_{part}_{word}", lang)
