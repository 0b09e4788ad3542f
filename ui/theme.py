"""Colours of the table: each player's colour, the mark that goes with it, and the few
shades the screens share.

Colour is never the only cue (issue 20): each seat also has a shape, drawn on its pawns
and put before its name on tiles, buttons, the turn bar and the chart. The four colours
keep the game's red, blue, yellow and green but were shifted (a warmer red, a deeper
forest green) until every pair stays apart under a simulated protan, deutan and tritan
deficiency: tests/ui/test_colour_vision.py states the least difference (CIEDE2000).
Highlights are white bands edged in black: never red or green, seen on every colour.
"""

from __future__ import annotations

Rgba = tuple[float, float, float, float]

PLAYER_RGBA: dict[str, Rgba] = {
    "red": (0.90, 0.30, 0.15, 1),
    "blue": (0.19, 0.45, 0.95, 1),
    "yellow": (0.96, 0.78, 0.10, 1),
    "green": (0.10, 0.42, 0.30, 1),
}
# Each seat's shape (U+25B2, U+25A0, U+25CF, U+25C6: the Symbols font has them), put before
# its name; the board draws the same shapes on the pawns (ui/marks.py).
SEAT_MARK = {"red": "▲", "blue": "■", "yellow": "●", "green": "◆"}
# Text drawn on a player's colour: dark on yellow, white on the others.
INK_ON: dict[str, Rgba] = {
    "red": (1, 1, 1, 1),
    "blue": (1, 1, 1, 1),
    "yellow": (0.1, 0.1, 0.1, 1),
    "green": (1, 1, 1, 1),
}
NEUTRAL: Rgba = (0.35, 0.37, 0.42, 1)
# The button that goes on with the game (start, play again, back to the game, move, draw).
GO_RGBA: Rgba = (0.16, 0.55, 0.28, 1)
# The move under the finger, on the board: cyan, no player's colour, never red or green.
PREVIEW_RGBA: Rgba = (0.0, 0.78, 0.95, 1)
# A player's colour as text on the dark background: lighter shades of the same four.
NAME_RGBA: dict[str, Rgba] = {
    "red": (0.95, 0.40, 0.30, 1),
    "blue": (0.55, 0.70, 1.0, 1),
    "yellow": (0.96, 0.78, 0.10, 1),
    "green": (0.20, 0.65, 0.50, 1),
}
# The board's highlights: a white band between black edges (a pawn that can move, the
# pawn picked, a move's path) and a white disc under a black-and-white dashed ring
# (where the picked pawn can go). Achromatic, so no seat colour hides them.
HIGHLIGHT_LIGHT: Rgba = (0.97, 0.97, 0.97, 1)
HIGHLIGHT_DARK: Rgba = (0.08, 0.08, 0.08, 1)
TARGET_FILL: Rgba = (1, 1, 1, 0.45)


def player_rgba(color: str) -> Rgba:
    return PLAYER_RGBA.get(color, NEUTRAL)


def ink_on(color: str) -> Rgba:
    return INK_ON.get(color, (1, 1, 1, 1))


def name_rgba(color: str) -> Rgba:
    """A player's name drawn in their colour on the table's dark background."""
    return NAME_RGBA.get(color, NEUTRAL)


def marked(color: str, text: str) -> str:
    """`text` after the seat's shape ("▲ Ana"); unchanged for no seat. Draw it in the
    Symbols font."""
    mark = SEAT_MARK.get(color)
    return f"{mark} {text}" if mark and text else text
