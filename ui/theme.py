"""Colours of the table: each player's colour, and the few shades the screens share."""

from __future__ import annotations

PLAYER_RGBA = {
    "red": (0.84, 0.19, 0.19, 1),
    "blue": (0.18, 0.42, 0.88, 1),
    "yellow": (0.96, 0.78, 0.10, 1),
    "green": (0.16, 0.62, 0.28, 1),
}
# Text drawn on a player's colour: dark on yellow, white on the others.
INK_ON = {
    "red": (1, 1, 1, 1),
    "blue": (1, 1, 1, 1),
    "yellow": (0.1, 0.1, 0.1, 1),
    "green": (1, 1, 1, 1),
}
NEUTRAL = (0.35, 0.37, 0.42, 1)
# The button that goes on with the game (start, play again, back to the game, move, draw).
GO_RGBA = (0.16, 0.55, 0.28, 1)
# The move under the finger, on the board: cyan, no player's colour, never red or green.
PREVIEW_RGBA = (0.0, 0.78, 0.95, 1)
# A player's colour as text on the dark background: the blue is too dark there.
NAME_RGBA = {**PLAYER_RGBA, "blue": (0.45, 0.65, 1, 1)}


def player_rgba(color: str) -> tuple[float, float, float, float]:
    return PLAYER_RGBA.get(color, NEUTRAL)


def ink_on(color: str) -> tuple[float, float, float, float]:
    return INK_ON.get(color, (1, 1, 1, 1))


def name_rgba(color: str) -> tuple[float, float, float, float]:
    """A player's name drawn in their colour on the table's dark background."""
    return NAME_RGBA.get(color, NEUTRAL)
