"""The largest font size at which a text fits a box, computed from word widths measured
once, without rendering: a label re-renders only once per change, which keeps the
tap-to-total time inside one frame.

Widths scale linearly with the font size, so everything is measured at the largest
size and scaled. A word never breaks: a sentence wraps at spaces, then shrinks.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

SAFETY = 0.97  # rendered text can be a pixel or two wider than measured
STEP = 0.94

Measure = Callable[[str], tuple[float, float]]


def wrapped_lines(widths: list[list[float]], space: float, room: float) -> int | None:
    """Lines needed to wrap paragraphs of words (widths) into `room`; None if a word
    alone is wider than `room`."""
    lines = 0
    for words in widths:
        lines += 1
        used = 0.0
        for w in words:
            if w > room:
                return None
            if used and used + space + w > room:
                lines += 1
                used = w
            else:
                used = used + space + w if used else w
    return lines


def _words(paragraphs: list[str], measure: Measure) -> tuple[list[list[float]], float]:
    """Each paragraph's word widths and the width of a space, at the measured size."""
    widths = [[measure(word)[0] for word in p.split(" ") if word] for p in paragraphs]
    space = measure(" ")[0] or measure("a a")[0] - 2 * measure("a")[0]
    return widths, space


def fit_size(
    text: str,
    width: float,
    height: float,
    max_size: float,
    min_size: float,
    measure: Measure,
    *,
    wrap: bool,
) -> float:
    """The font size (between min_size and max_size) at which `text` fits width x height.

    `measure(s)` gives the (width, height) of `s` rendered at `max_size`.
    """
    width, height = width * SAFETY, height * SAFETY
    paragraphs = text.split("\n")
    line_h = measure("Ag")[1]
    if not wrap:
        w = max(measure(p)[0] for p in paragraphs)
        scale = min(1.0, width / max(w, 1.0), height / max(line_h * len(paragraphs), 1.0))
        return max(min_size, max_size * scale)
    widths, space = _words(paragraphs, measure)
    scale = 1.0
    while max_size * scale > min_size:
        # Wrapping at this scale is wrapping the full-size widths into room / scale.
        lines = wrapped_lines(widths, space, width / scale)
        if lines is not None and lines * line_h * scale <= height:
            return max_size * scale
        scale *= STEP
    return min_size


def fits(
    text: str, width: float, height: float, size: float, max_size: float, measure: Measure,
    *, wrap: bool,
) -> bool:
    """Whether `text` at font `size` fits width x height (measure as in fit_size)."""
    width, height = width * SAFETY, height * SAFETY
    scale = size / max_size
    paragraphs = text.split("\n")
    line_h = measure("Ag")[1] * scale
    if not wrap:
        w = max(measure(p)[0] for p in paragraphs) * scale
        return w <= width and line_h * len(paragraphs) <= height
    widths, space = _words(paragraphs, measure)
    lines = wrapped_lines(widths, space, width / scale)
    return lines is not None and lines * line_h <= height


@lru_cache(maxsize=4096)
def measured(font_name: str, bold: bool, size: float, text: str) -> tuple[float, float]:
    """Rendered extents of `text`, cached (names and card labels repeat all game)."""
    width, height = _measurer(font_name, bold, size).get_extents(text)
    return float(width), float(height)


def room_needed(font_name: str, bold: bool, size: float, text: str, padding: float,
                top: float | None = None) -> tuple[float, float]:
    """The box a one-line `text` needs to be drawn whole at `size` by a FitLabel with
    `fit_padding` `padding` and largest size `top`: measured at `top` and scaled, as
    fits() does, with its safety margin and a hinting pixel."""
    top = top or size
    width, height = measured(font_name, bold, top, text)
    scale = size / top
    return width * scale / SAFETY + 2 * padding + 2, height * scale / SAFETY


@lru_cache(maxsize=64)
def _measurer(font_name: str, bold: bool, size: float) -> Any:
    from kivy.core.text import Label as CoreLabel

    label = CoreLabel(font_name=font_name, bold=bold, font_size=size)
    label.resolve_font_name()
    return label
