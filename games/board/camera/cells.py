"""The board's locations on its rectified picture: the board seen from straight above,
CELL pixels a cell of games.board.grid (needs the extra).

A track or safety square is read on its inner part (a margin kept off its printed lines,
which a corner found a pixel off would otherwise bring in); START and HOME on their
circle. Locations are board keys (games.board.grid.key): "T12", "blue:S3", "red:START".

>>> box("T0")[:2], SIZE
((3, 3), 320)
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np

from games.board.grid import GRID, ZONE_RADIUS, every_key, is_zone, key_spot, unkey

CELL = 20  # pixels a cell of the rectified board
SIZE = GRID * CELL
MARGIN = 0.15  # of a cell, kept off each side of a square
ZONE_READ = ZONE_RADIUS - 0.12  # cells: the part of a START or HOME circle read


def box(board_key: str) -> tuple[int, int, int, int]:
    """x0, y0, x1, y1 (pixels, end excluded) of the part of a location that is read."""
    x, y = key_spot(board_key)
    reach = ZONE_READ if is_zone(unkey(board_key)[1]) else 0.5 - MARGIN
    return (round((x - reach) * CELL), round((y - reach) * CELL),
            round((x + reach) * CELL), round((y + reach) * CELL))


@cache
def mask(board_key: str) -> Any:
    """Within `box`, the pixels read: all of a square's, a zone's circle."""
    x0, y0, x1, y1 = box(board_key)
    if not is_zone(unkey(board_key)[1]):
        return np.ones((y1 - y0, x1 - x0), bool)
    yy, xx = np.mgrid[y0:y1, x0:x1].astype(np.float32) + 0.5
    x, y = key_spot(board_key)
    return (xx - x * CELL) ** 2 + (yy - y * CELL) ** 2 <= (ZONE_READ * CELL) ** 2


def squares(colors: tuple[str, ...]) -> list[str]:
    """Every location holding one pawn at most: the track, and the seated colours'
    safety zones."""
    return [k for k in every_key(colors) if not is_zone(unkey(k)[1])]


def zones(colors: tuple[str, ...]) -> list[str]:
    """The seated colours' START and HOME."""
    return [k for k in every_key(colors) if is_zone(unkey(k)[1])]


def corners_cells() -> Any:
    """The board's outer corners in rectified pixels, clockwise from T0's."""
    return np.array([[0, 0], [SIZE, 0], [SIZE, SIZE], [0, SIZE]], np.float32)
