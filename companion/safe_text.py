"""Quoting untrusted text in messages, and checking the names players are given.

Everything a message repeats from outside (a transcript line, a config value, a name,
SQLite's own diagnostics) goes through `quote`: at most 80 characters of it, control
characters and terminal escape codes written as visible escapes, one line. So a 10 MB
line or a name carrying `\\x1b[2J` can never flood or repaint the scorekeeper's terminal.

>>> quote("Ana")
"'Ana'"
>>> quote("\\x1b[2Jhi")
"'\\\\x1b[2Jhi'"
>>> len(quote("x" * 5000)) <= 80 + 30
True
"""

from __future__ import annotations

import functools
import json
import unicodedata
from typing import Any

from companion.glyphs import missing

MAX_QUOTED = 80  # characters of outside input a message repeats
MAX_NAME = 16  # letters of a player's name: what the screen shows in 14 px at 800x480


def escape(text: str) -> str:
    """`text` with every control, format or lone-surrogate character written as an escape."""
    out = []
    for ch in text:
        category = unicodedata.category(ch)
        if category in ("Cc", "Cs") or (category == "Cf" and ch != "\u200d"):
            out.append(ch.encode("unicode_escape", "backslashreplace").decode("ascii")
                       if category != "Cs" else f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    return "".join(out)


def _json_escape(ch: str) -> str:
    code = ord(ch)
    if code > 0xFFFF:  # JSON escapes it as a UTF-16 surrogate pair
        code -= 0x10000
        return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
    return f"\\u{code:04x}"


def json_text(value: Any, **options: Any) -> str:
    """`json.dumps` that keeps letters as they are (é, not \\u00e9) but writes every control,
    format, bidi or line-separator character as a \\u escape, so JSON printed from a crafted
    journal or transcript can never move the cursor or reverse the text of a terminal.

    >>> json_text({"name": "Ana\u202e\u009b2J", "city": "Zoé"})
    '{"name": "Ana\\\\u202e\\\\u009b2J", "city": "Zoé"}'
    """
    text = json.dumps(value, ensure_ascii=False, **options)
    if text.isascii():
        return text  # json.dumps escapes C0 controls itself; DEL is harmless
    return "".join(_json_escape(ch) if not ch.isascii() and unicodedata.category(ch) in
                   ("Cc", "Cf", "Cs", "Zl", "Zp") else ch for ch in text)


def clip(text: str, limit: int = MAX_QUOTED) -> str:
    """`text` escaped and cut to `limit` characters, saying how much was left out."""
    total = len(text)
    shown = escape(text[:limit])
    if len(shown) > limit:
        shown = shown[:limit]
    if total > limit:
        return f"{shown}… ({total} characters in all)"
    return shown


def quote(value: object, limit: int = MAX_QUOTED) -> str:
    """A value from outside, quoted for a message: a str in quotes, anything else as repr,
    escaped and clipped either way."""
    if isinstance(value, str):
        return "'" + clip(value, limit) + "'"
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 256:
        return "a whole number of more than 70 digits"
    try:
        text = repr(value)
    except (ValueError, RecursionError):
        text = f"a {type(value).__name__}"
    return clip(text, limit)


def quote_path(path: str, limit: int = MAX_QUOTED) -> str:
    """A file's path from outside, quoted as `quote` does, but a long one is cut at its
    start (shown by the ellipsis): its end, the file's own name, is what tells which file
    is meant.

    >>> quote_path("/home/pi/" + "x" * 80 + "/deck.npz")[-20:]
    "xxxxxxxxxx/deck.npz'"
    """
    if len(path) <= limit:
        return quote(path, limit)
    shown = escape(path[-limit:])
    return f"'…{shown[-limit:]}'"


def one_line(text: str, limit: int = 200) -> str:
    """A diagnostic from a library (SQLite's check output, an OSError) as one short line."""
    flat = " ".join(str(text).split())
    return clip(flat, limit)


def name_problem(name: str) -> str | None:
    """Why `name` cannot be a player's name, or None when it can.

    Names are shown on screen, spoken, printed in terminals and stored as UTF-8 JSON: they
    must be valid Unicode (no lone surrogates), without control or format characters, at
    most MAX_NAME characters, and every character must be one the screen's font draws
    (companion.glyphs): an emoji or a CJK name would otherwise show as boxes.

    >>> name_problem("Zoé") is None
    True
    >>> name_problem("Li \u674e")
    'has a character the screen cannot draw (U+674E); use letters, digits and spaces'
    """
    if len(name) > MAX_NAME:
        return f"is {len(name)} characters long; use at most {MAX_NAME}"
    return _short_name_problem(name)


@functools.lru_cache(maxsize=256)  # a game repeats its few names in every event
def _short_name_problem(name: str) -> str | None:
    """name_problem for a name of at most MAX_NAME characters (so the cache stays small)."""
    for ch in name:
        category = unicodedata.category(ch)
        if category == "Cs":
            return "is not valid Unicode text"
        if category == "Cc" or (category == "Cf" and ch != "\u200d"):
            return "contains a control character; use letters, digits and spaces"
    undrawable = missing(name)
    if undrawable:
        codes = ", ".join(f"U+{ord(ch):04X}" for ch in undrawable[:3])
        many = "characters" if len(undrawable) > 1 else "a character"
        return f"has {many} the screen cannot draw ({codes}); use letters, digits and spaces"
    return None
