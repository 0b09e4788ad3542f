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

from companion.config import DISPLAY_SIZES

MIN_TARGET_PX = 48  # every touch target, at every supported size
MIN_TEXT_PX = 14  # every text, at 800x480 (the smallest display)


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
