"""Each seat's shape drawn with Kivy graphics (the same shapes ui/theme.SEAT_MARK puts
before names): on the board's pawns and on the game-over chart's lines, where there is
no text to carry a glyph.

>>> [round(v, 1) for v in mark_points("red", 0, 0, 1)]
[0.0, 1.0, -0.9, -0.5, 0.9, -0.5]
>>> mark_points("blue", 0, 0, 1)
[-0.7, -0.7, 0.7, -0.7, 0.7, 0.7, -0.7, 0.7]
"""

from __future__ import annotations

import math

from kivy.graphics import Color, Ellipse, Quad, Triangle

from ui.theme import SEAT_MARK, Rgba

SQUARE = 0.7  # half a side, in radii: a square and a triangle of about the same area


def mark_points(color: str, x: float, y: float, r: float) -> list[float]:
    """The corners of `color`'s shape of radius `r` centred on (x, y): a triangle (red),
    a square (blue), a diamond (green); none for the circle (yellow)."""
    shape = SEAT_MARK.get(color, "")
    if shape == "▲":
        return [v for k in range(3) for v in (x + r * math.cos(math.pi / 2 + k * 2 * math.pi / 3),
                                              y + r * math.sin(math.pi / 2 + k * 2 * math.pi / 3))]
    if shape == "■":
        s = SQUARE * r
        return [x - s, y - s, x + s, y - s, x + s, y + s, x - s, y + s]
    if shape == "◆":
        return [x, y - r, x + r, y, x, y + r, x - r, y]
    return []


def draw_mark(color: str, x: float, y: float, r: float, rgba: Rgba) -> None:
    """Draw `color`'s shape in `rgba` into the canvas being built (inside `with canvas:`)."""
    if color not in SEAT_MARK:
        return
    Color(*rgba)
    points = mark_points(color, x, y, r)
    if len(points) == 6:
        Triangle(points=points)
    elif len(points) == 8:
        Quad(points=points)
    else:
        d = r * 0.75  # the dot: a circle as wide as the square
        Ellipse(pos=(x - d, y - d), size=(2 * d, 2 * d), segments=16)
