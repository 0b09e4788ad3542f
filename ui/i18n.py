"""English and French texts, read from locales/<lang>.json (no Kivy needed).

Every visible sentence goes through `tr`, so switching the language at run time is
re-reading one property; a key missing from a language falls back to English rather
than showing nothing.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from companion.config import LANGUAGES as LANGUAGES  # the screens' languages

DEFAULT_LANGUAGE = "en"
LANGUAGE_NAMES = {"en": "English", "fr": "Français"}
_LOCALES = Path(__file__).with_name("locales")


@cache
def table(lang: str) -> dict[str, str]:
    """All texts of one language (cached: the files never change while running)."""
    with open(_LOCALES / f"{lang}.json", encoding="utf-8") as f:
        texts: dict[str, str] = json.load(f)
        return texts


def tr(key: str, lang: str = DEFAULT_LANGUAGE, **values: Any) -> str:
    """The text for `key` in `lang`, with {placeholders} filled from `values`."""
    texts = table(lang if lang in LANGUAGES else DEFAULT_LANGUAGE)
    text = texts.get(key)
    if text is None:
        text = table(DEFAULT_LANGUAGE)[key]
    return text.format(**values) if values else text
