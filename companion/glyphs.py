"""Which characters the screen's font can draw, read from the font file itself.

The touchscreen draws every name with Kivy's bundled Roboto (regular and bold; ui/ never
sets another font for names). SDL_ttf has no fallback font: a character missing from
Roboto's `cmap` table is drawn as an empty box. So a name is refused, at setup, in
transcripts and in the journal, when one of its characters is missing from either file.

This module only reads the font files (found with `importlib.util.find_spec`, which does
not import Kivy) and parses their `cmap` tables with `struct`; it never imports ui/ or
Kivy. The set of code points is built once per process.

When the fonts cannot be found (the core installed without Kivy), the check falls back
to Latin letters (U+0020-U+017F and the French ligatures), all of which Roboto draws
(a test checks that), so a name accepted there is also drawn on any screen.

>>> drawable("Zoé")
True
>>> missing("Ana \\U0001f600")
'\\U0001f600'
"""

from __future__ import annotations

import functools
import importlib.util
import struct
from collections.abc import Iterable
from pathlib import Path

FONT_FILES = ("Roboto-Regular.ttf", "Roboto-Bold.ttf")  # Kivy's default font, both weights
# What every font the app could use draws: used only when the fonts are not installed.
FALLBACK = frozenset(range(0x20, 0x7F)) | frozenset(range(0xA0, 0x180))
FONT_LIMIT = 16 << 20  # a font larger than this is not Roboto


class FontError(ValueError):
    """The file is not a TrueType/OpenType font with a usable Unicode cmap."""


def font_paths() -> list[Path]:
    """The bundled fonts the screen draws names with, or [] when Kivy is not installed."""
    try:
        spec = importlib.util.find_spec("kivy")
    except (ImportError, ValueError):
        return []
    if spec is None or not spec.submodule_search_locations:
        return []
    fonts = Path(next(iter(spec.submodule_search_locations))) / "data" / "fonts"
    paths = [fonts / name for name in FONT_FILES]
    return paths if all(p.is_file() for p in paths) else []


def cmap_code_points(data: bytes) -> frozenset[int]:
    """Every code point the font maps to a real glyph (not glyph 0, the box)."""
    try:
        _version, num_tables = struct.unpack_from(">IH", data, 0)
        cmap_at = None
        for i in range(num_tables):
            tag, _sum, offset, _length = struct.unpack_from(">4sIII", data, 12 + 16 * i)
            if tag == b"cmap":
                cmap_at = offset
        if cmap_at is None:
            raise FontError("the font has no cmap table")
        _v, count = struct.unpack_from(">HH", data, cmap_at)
        subtables: dict[tuple[int, int], int] = {}
        for i in range(count):
            platform, encoding, offset = struct.unpack_from(">HHI", data, cmap_at + 4 + 8 * i)
            subtables[(platform, encoding)] = cmap_at + offset
        for key in ((3, 10), (0, 4), (3, 1), (0, 3)):  # full Unicode first, then the BMP
            if key in subtables:
                return _subtable(data, subtables[key])
    except struct.error as exc:
        raise FontError(f"the font's cmap table is cut short ({exc})") from exc
    raise FontError("the font has no Unicode cmap subtable")


def _subtable(data: bytes, at: int) -> frozenset[int]:
    (fmt,) = struct.unpack_from(">H", data, at)
    if fmt == 12:
        (groups,) = struct.unpack_from(">I", data, at + 12)
        points: set[int] = set()
        for i in range(groups):
            start, end, glyph = struct.unpack_from(">III", data, at + 16 + 12 * i)
            first = start if glyph else start + 1  # glyph 0 is the missing-glyph box
            points.update(range(first, min(end, 0x10FFFF) + 1))
        return frozenset(points)
    if fmt == 4:
        (seg_x2,) = struct.unpack_from(">H", data, at + 6)
        segs = seg_x2 // 2
        ends = struct.unpack_from(f">{segs}H", data, at + 14)
        starts = struct.unpack_from(f">{segs}H", data, at + 16 + seg_x2)
        deltas = struct.unpack_from(f">{segs}h", data, at + 16 + 2 * seg_x2)
        ranges_at = at + 16 + 3 * seg_x2
        range_offsets = struct.unpack_from(f">{segs}H", data, ranges_at)
        points = set()
        for i in range(segs):
            for code in range(starts[i], ends[i] + 1):
                if code == 0xFFFF:
                    continue
                if range_offsets[i] == 0:
                    glyph = (code + deltas[i]) & 0xFFFF
                else:
                    where = ranges_at + 2 * i + range_offsets[i] + 2 * (code - starts[i])
                    (glyph,) = struct.unpack_from(">H", data, where)
                    glyph = (glyph + deltas[i]) & 0xFFFF if glyph else 0
                if glyph:
                    points.add(code)
        return frozenset(points)
    raise FontError(f"the font's Unicode cmap is in format {fmt}, which is not read here")


def read_code_points(paths: Iterable[Path]) -> frozenset[int]:
    """The code points every one of these fonts draws."""
    common: frozenset[int] | None = None
    for path in paths:
        with open(path, "rb") as f:
            data = f.read(FONT_LIMIT + 1)
        if len(data) > FONT_LIMIT:
            raise FontError(f"{path} is larger than {FONT_LIMIT >> 20} MiB")
        points = cmap_code_points(data)
        common = points if common is None else common & points
    return common if common is not None else FALLBACK


@functools.cache
def code_points() -> frozenset[int]:
    """What the screen draws: read once from the bundled fonts (FALLBACK without them)."""
    paths = font_paths()
    if not paths:
        return FALLBACK
    try:
        return read_code_points(paths)
    except (OSError, FontError):
        return FALLBACK


def missing(text: str) -> str:
    """The characters of `text` the screen cannot draw, each once, in order ("" if none)."""
    known = code_points()
    out: list[str] = []
    for ch in text:
        if ord(ch) not in known and ch not in out:
            out.append(ch)
    return "".join(out)


def drawable(text: str) -> bool:
    """True when the screen's font draws every character of `text`."""
    return not missing(text)
