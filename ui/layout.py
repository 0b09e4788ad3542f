"""Which arrangement the screens use, chosen from the window's shape and chosen again
whenever the window changes size (a desktop window dragged, a display turned).

The displays a family owns: the 7-inch 800x480 Touch Display, 1024x600 and 1280x720
screens, all landscape, and the Touch Display 2 whose native mode is portrait
(720x1280), or any of them turned (480x800). The .kv files read `app.portrait`: one
rule per screen, whose boxes change direction and order, so the ids tests use never
move.

>>> arrangement(800, 480), arrangement(720, 1280), arrangement(600, 600)
('landscape', 'portrait', 'landscape')
>>> parse_size("720x1280"), parse_size("800 X 480")
((720, 1280), (800, 480))
"""

from __future__ import annotations

from companion.config import DISPLAY_SIZES, TEXT_SIZES

MIN_TARGET_PX = 48  # every touch target, at every supported size
MIN_TEXT_PX = 14  # every text, at 800x480 (the smallest display), in normal text
# The Large text setting (Settings, `[display] text`): every text's largest and smallest
# size, and the fixed sizes of the rows and buttons that hold text, times this. The
# finger does not grow: targets stay at least MIN_TARGET_PX either way.
TEXT_SCALES = dict(zip(TEXT_SIZES, (1.0, 1.25), strict=True))


def text_scale(text_size: str) -> float:
    """The factor of a text size's name (an unknown name: normal).

    >>> text_scale("large"), text_scale("normal"), text_scale("huge")
    (1.25, 1.0, 1.0)
    """
    return TEXT_SCALES.get(text_size, 1.0)


def min_text_px(text_size: str) -> float:
    """The least size of any text drawn in this text size (14 px, or 17.5 in large)."""
    return MIN_TEXT_PX * text_scale(text_size)


def arrangement(width: float, height: float) -> str:
    """'portrait' when the window is taller than wide, else 'landscape' (a square
    window keeps the landscape rules, which need the least height)."""
    return "portrait" if height > width else "landscape"


def parse_size(text: str) -> tuple[int, int]:
    """"WIDTHxHEIGHT" as two whole numbers; ValueError with one sentence otherwise."""
    parts = text.lower().replace(" ", "").split("x")
    if len(parts) != 2 or not all(p.isdigit() for p in parts):
        raise ValueError(f"{text!r} is not a size: write it as WIDTHxHEIGHT, such as 800x480.")
    return int(parts[0]), int(parts[1])


# The supported displays, as the config's `[display] size` lists them.
DISPLAYS: tuple[tuple[int, int], ...] = tuple(parse_size(size) for size in DISPLAY_SIZES)
DEFAULT_SIZE = DISPLAYS[0]
