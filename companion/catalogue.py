"""Every word of the games, one gettext catalogue per language (issue 20), read by the
standard library's `gettext.GNUTranslations` from .mo files compiled at build time.

`companion/locales/<lang>.po` holds the core's words and each game plugin's own
`locales/<lang>.po` its game's. A msgid is a key ("hand", "b_forfeit"), its msgstr the
text with {placeholders}. An entry with plural forms names, as its msgid_plural, the
placeholder that counts ("hand" / "n"), so every caller just passes its facts and the
language picks the form through its own Plural-Forms rule (each .po's header): French
says "0 carte" and "1 carte", English "0 cards" and "1 card". Numbers in the texts are
written in the language's way: "1,234.5" / "1 234,5".

The .po files are the sources a translator edits (Poedit, Weblate); compile_locales.py
(Babel, at build time: the Makefile, `make dist` and the wheel run it) writes each
`<lang>.mo` beside its .po, with each msgid_plural kept as a `msgctxt "msgid_plural"`
entry, which gettext's reader would otherwise drop. The .mo files are not committed.

A registered game's `locales/` folder (games/<name>/locales, found beside its manifest
without importing it) is read after the core's, in the registry's order; any other
folder is added once with

    catalogue.add_locales(Path(__file__).with_name("locales"))

Its keys are then found after the core's (and the folders before it), each language's
folders chained with `add_fallback`, each .mo counting with its own plural rule; a
language a game lacks falls back to English like any missing key.

>>> text("hand", "fr", n=1), text("hand", "en", n=0)
('1 en main', '0 in hand')
>>> number(1234567, "fr") == "1\\u00a0234\\u00a0567", number(2.5, "fr"), number(1234, "en")
(True, '2,5', '1,234')
"""

from __future__ import annotations

import gettext
import importlib.util
import sys
from functools import cache
from pathlib import Path
from typing import Any

import games
from companion.config import LANGUAGES

__all__ = ["DEFAULT_LANGUAGE", "LANGUAGES", "add_locales", "folders", "has", "keys", "number",
           "text"]

DEFAULT_LANGUAGE = "en"
LOCALES = Path(__file__).with_name("locales")  # the core's folder
PLURAL_NAME = "msgid_plural"  # the context compile_locales.py files the counting names under
# Between thousands and before decimals. French groups with a no-break space, so a
# number never breaks across two lines on a narrow screen.
_GROUP = {"en": ",", "fr": "\u00a0"}
_DECIMAL = {"en": ".", "fr": ","}
_ABSENT = "\0"  # what the end of a chain says: no folder has the key (no text is a NUL)
_folders: list[Path] = [LOCALES]  # the core's, then those add_locales added


class _Absent(gettext.NullTranslations):
    """The last fallback of every chain: tells "no folder has it" apart from a text."""

    def gettext(self, message: str) -> str:
        return _ABSENT

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return _ABSENT

    def pgettext(self, context: str, message: str) -> str:
        return _ABSENT


def add_locales(folder: Path) -> None:
    """Look keys up in `folder` too (a game plugin's `locales/`, holding `<lang>.po` and,
    once built, `<lang>.mo`), after the folders already added; twice is once."""
    folder = Path(folder).resolve()
    if folder not in _folders:
        _folders.append(folder)


def folders() -> tuple[Path, ...]:
    """The locale folders: the core's first, then each registered game's (the registry's
    order), then those added."""
    return _folders_of(tuple(games.PLUGINS.values()), tuple(_folders))


@cache
def _folders_of(packages: tuple[str, ...], added: tuple[Path, ...]) -> tuple[Path, ...]:
    found = [added[0], *(f for f in map(_game_locales, packages) if f is not None), *added[1:]]
    return tuple(dict.fromkeys(found))


@cache
def _game_locales(package: str) -> Path | None:
    """The `locales/` folder beside a game's manifest, if it has one (the manifest's
    package is found, not imported: the catalogue loads no game)."""
    loaded = sys.modules.get(package)  # a game built in memory (a test's) has no spec
    origin: object = getattr(loaded, "__file__", None)
    if loaded is None:
        try:
            spec = importlib.util.find_spec(package)
        except (ImportError, ValueError):  # its parent package is missing
            return None
        origin = None if spec is None else spec.origin
    if not isinstance(origin, str):
        return None
    folder = Path(origin).resolve().with_name("locales")
    return folder if folder.is_dir() else None


def _read(folder: Path, lang: str) -> gettext.GNUTranslations | None:
    """`folder`'s catalogue in `lang`, or None when the folder has no such language."""
    mo = folder / f"{lang}.mo"
    if mo.is_file():
        with mo.open("rb") as source:
            return gettext.GNUTranslations(source)
    if (folder / f"{lang}.po").is_file():
        raise FileNotFoundError(
            f"{mo} is missing: the .po files are compiled at build time; run `make` in the "
            "checkout (or `python compile_locales.py`), or reinstall the app")
    return None


def _chain(lang: str) -> tuple[gettext.NullTranslations, tuple[gettext.GNUTranslations, ...]]:
    """`lang`'s folders chained (the core's first, then _Absent), and each one alone."""
    return _chain_of(lang, folders())


@cache
def _chain_of(lang: str, where: tuple[Path, ...]
              ) -> tuple[gettext.NullTranslations, tuple[gettext.GNUTranslations, ...]]:
    found = tuple(t for t in (_read(f, lang) for f in where) if t is not None)
    head: gettext.NullTranslations = _Absent()
    for one in reversed(found):
        one.add_fallback(head)
        head = one
    return head, found


def keys(lang: str) -> frozenset[str]:
    """Every key `lang` has, in every folder."""
    # gettext has no public list of its messages: its _catalog maps a key (a plural
    # entry: (key, form)) to its text, "" to the header, "context\x04key" to the rest.
    found: set[str] = set()
    for one in _chain(lang)[1]:
        table: dict[str | tuple[str, int], str] = vars(one)["_catalog"]
        found |= {k if isinstance(k, str) else k[0] for k in table}
    return frozenset(k for k in found if k and "\x04" not in k)


def has(key: str, lang: str) -> bool:
    """Whether `lang` itself says `key` (without falling back to English)."""
    return lang in LANGUAGES and _chain(lang)[0].gettext(key) != _ABSENT


def number(value: float, lang: str = DEFAULT_LANGUAGE) -> str:
    """`value` as the language writes numbers: "1,234" / "1 234", "2.5" / "2,5"."""
    lang = lang if lang in _GROUP else DEFAULT_LANGUAGE
    written = f"{value:,}"
    return written.translate({ord(","): _GROUP[lang], ord("."): _DECIMAL[lang]})


Entry = tuple[str, str, str]  # the language that says a key, its counting name or "", its text


@cache
def _entries(where: tuple[Path, ...]) -> dict[tuple[str, str], Entry]:
    """The keys looked up so far in these folders' catalogues, by (key, language): a
    board tap asks a dozen texts, each once three walks down a chain of catalogues."""
    return {}


def _entry(key: str, lang: str, where: tuple[Path, ...]) -> Entry:
    """Who says `key` in `lang` (English when `lang` lacks it), and how: its counting
    placeholder (its text then depends on the count), or its one text."""
    if _chain_of(lang, where)[0].gettext(key) == _ABSENT:
        lang = DEFAULT_LANGUAGE
    chain = _chain_of(lang, where)[0]
    count = chain.pgettext(PLURAL_NAME, key)
    if count != _ABSENT:
        return lang, count, ""
    template = chain.gettext(key)
    if template == _ABSENT:
        raise KeyError(key)
    return lang, "", template


def text(key: str, lang: str = DEFAULT_LANGUAGE, **values: Any) -> str:
    """The text for `key` in `lang` (English when `lang` lacks it), its plural form
    picked by its counting placeholder, {placeholders} filled from `values` with numbers
    in the language's way. A key no language has raises KeyError."""
    lang = lang if lang in LANGUAGES else DEFAULT_LANGUAGE
    where = folders()
    known = _entries(where)
    found = known.get((key, lang))
    if found is None:
        found = known[(key, lang)] = _entry(key, lang, where)
    lang, count, template = found
    if count:
        template = _chain_of(lang, where)[0].ngettext(key, count, int(values[count]))
        if template == _ABSENT:
            raise KeyError(key)
    if not values:
        return template
    shown = {name: number(v, lang) if isinstance(v, int | float) and not isinstance(v, bool)
             else v for name, v in values.items()}
    return template.format(**shown)
