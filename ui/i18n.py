"""English and French texts for the screens: the one catalogue of `companion.catalogue`
(companion/locales/<lang>.po, no Kivy needed).

Every visible sentence goes through `tr`, so switching the language at run time is
re-reading one property; a key missing from a language falls back to English rather
than showing nothing, and a count picks the language's plural form ("1 carte").
"""

from __future__ import annotations

from companion.catalogue import DEFAULT_LANGUAGE as DEFAULT_LANGUAGE
from companion.catalogue import has as has
from companion.catalogue import number as number
from companion.catalogue import text as tr
from companion.config import LANGUAGES as LANGUAGES  # the screens' languages

__all__ = ["DEFAULT_LANGUAGE", "LANGUAGES", "LANGUAGE_NAMES", "has", "number", "tr"]

LANGUAGE_NAMES = {"en": "English", "fr": "Français"}
