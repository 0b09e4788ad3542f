"""Every word of both games, one gettext catalogue per language (issue 20).

`companion/locales/<lang>.po` holds them all: the card game's and the board game's
screens, the board referee's explanations, the Hardware page's details. A msgid is a
key ("hand", "b_forfeit"), its msgstr the text with {placeholders}. An entry with plural
forms names, as its msgid_plural, the placeholder that counts ("hand" / "n"), so every
caller just passes its facts and the language picks the form through its own
Plural-Forms rule: French says "0 carte" and "1 carte", English "0 cards" and "1 card".

The .po files are the sources a translator edits (Poedit, Weblate); they are compiled
to .mo bytes in memory on first use and read by the standard library's
`gettext.GNUTranslations`, so no build step can leave a stale .mo behind. Numbers in
the texts are written in the language's way: "1,234.5" / "1 234,5".

>>> text("hand", "fr", n=1), text("hand", "en", n=0)
('1 en main', '0 in hand')
>>> number(1234567, "fr") == "1\\u00a0234\\u00a0567", number(2.5, "fr"), number(1234, "en")
(True, '2,5', '1,234')
"""

from __future__ import annotations

import array
import ast
import gettext
import io
import struct
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from companion.config import LANGUAGES

__all__ = ["DEFAULT_LANGUAGE", "LANGUAGES", "Entry", "has", "keys", "number", "read_po",
           "text"]

DEFAULT_LANGUAGE = "en"
LOCALES = Path(__file__).with_name("locales")
# Between thousands and before decimals. French groups with a no-break space, so a
# number never breaks across two lines on a narrow screen.
_GROUP = {"en": ",", "fr": "\u00a0"}
_DECIMAL = {"en": ".", "fr": ","}


@dataclass(frozen=True, slots=True)
class Entry:
    """One message of a .po file: its key, the counting placeholder if it has plural
    forms (else ""), and its texts (one, or one per plural form)."""

    key: str
    count: str
    texts: tuple[str, ...]


def _unquote(line: str, where: str) -> str:
    if not (len(line) >= 2 and line[0] == '"' and line[-1] == '"'):
        raise ValueError(f"{where}: expected a quoted string, got {line[:40]!r}")
    inner = line[1:-1]
    if "\\" not in inner and '"' not in inner:  # nothing escaped (most lines): as it is,
        return inner  # without a Python parse per line, which cost a frame at each start
    value = ast.literal_eval(line)
    if not isinstance(value, str):
        raise ValueError(f"{where}: expected a string, got {line[:40]!r}")
    return value


def read_po(path: Path) -> tuple[str, list[Entry]]:
    """The header and the entries of a .po file (the subset our catalogues use: msgid,
    msgid_plural, msgstr, msgstr[N], continued strings, # comments)."""
    header = ""
    entries: list[Entry] = []
    fields: dict[str, str] = {}
    last = ""

    def flush() -> None:
        nonlocal header
        if "msgid" not in fields:
            return
        plural = sorted(k for k in fields if k.startswith("msgstr["))
        texts = tuple(fields[k] for k in plural) if plural else (fields.get("msgstr", ""),)
        if fields["msgid"] == "":
            header = texts[0]
        else:
            entries.append(Entry(fields["msgid"], fields.get("msgid_plural", ""), texts))
        fields.clear()

    for number_, raw in enumerate(path.read_text("utf-8").splitlines(), 1):
        line = raw.strip()
        where = f"{path.name}:{number_}"
        if not line or line.startswith("#"):
            continue
        if line.startswith('"'):
            if not last:
                raise ValueError(f"{where}: a string continues nothing")
            fields[last] += _unquote(line, where)
            continue
        name, _, rest = line.partition(" ")
        if name == "msgid":
            flush()
        if name not in ("msgid", "msgid_plural", "msgstr") and not name.startswith("msgstr["):
            raise ValueError(f"{where}: unknown line {line[:40]!r}")
        fields[name] = _unquote(rest.strip(), where)
        last = name
    flush()
    return header, entries


def _mo(header: str, entries: list[Entry]) -> bytes:
    """The GNU .mo bytes of a catalogue (the layout of CPython's Tools/i18n/msgfmt.py)."""
    messages = {b"": header.encode()}
    for e in entries:
        key = e.key + ("\0" + e.count if e.count else "")
        messages[key.encode()] = "\0".join(e.texts).encode()
    ids = strs = b""
    spans = []
    for k in sorted(messages):
        spans.append((len(ids), len(k), len(strs), len(messages[k])))
        ids += k + b"\0"
        strs += messages[k] + b"\0"
    start = 7 * 4 + 16 * len(spans)
    koffsets: list[int] = []
    voffsets: list[int] = []
    for kpos, klen, vpos, vlen in spans:
        koffsets += [klen, kpos + start]
        voffsets += [vlen, vpos + start + len(ids)]
    head = struct.pack("Iiiiiii", 0x950412DE, 0, len(spans), 7 * 4, 7 * 4 + len(spans) * 8,
                       0, 0)
    return (head + array.array("i", koffsets).tobytes() + array.array("i", voffsets).tobytes()
            + ids + strs)


@dataclass(frozen=True, slots=True)
class _Catalogue:
    gnu: gettext.GNUTranslations
    counts: dict[str, str]  # key -> the placeholder that picks its plural form


@cache
def _catalogue(lang: str) -> _Catalogue:
    header, entries = read_po(LOCALES / f"{lang}.po")
    gnu = gettext.GNUTranslations(io.BytesIO(_mo(header, entries)))
    return _Catalogue(gnu, {e.key: e.count for e in entries})


def keys(lang: str) -> frozenset[str]:
    """Every key `lang` has."""
    return frozenset(_catalogue(lang).counts)


def has(key: str, lang: str) -> bool:
    """Whether `lang` itself says `key` (without falling back to English)."""
    return lang in LANGUAGES and key in _catalogue(lang).counts


def number(value: float, lang: str = DEFAULT_LANGUAGE) -> str:
    """`value` as the language writes numbers: "1,234" / "1 234", "2.5" / "2,5"."""
    lang = lang if lang in _GROUP else DEFAULT_LANGUAGE
    written = f"{value:,}"
    return written.translate({ord(","): _GROUP[lang], ord("."): _DECIMAL[lang]})


def text(key: str, lang: str = DEFAULT_LANGUAGE, **values: Any) -> str:
    """The text for `key` in `lang` (English when `lang` lacks it), its plural form
    picked by its counting placeholder, {placeholders} filled from `values` with numbers
    in the language's way. A key no language has raises KeyError."""
    lang = lang if lang in LANGUAGES else DEFAULT_LANGUAGE
    if not has(key, lang):
        lang = DEFAULT_LANGUAGE
    cat = _catalogue(lang)
    count = cat.counts[key]
    template = (cat.gnu.ngettext(key, count, int(values[count])) if count
                else cat.gnu.gettext(key))
    if not values:
        return template
    shown = {name: number(v, lang) if isinstance(v, int | float) and not isinstance(v, bool)
             else v for name, v in values.items()}
    return template.format(**shown)
