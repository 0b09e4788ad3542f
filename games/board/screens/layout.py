"""Where every location of the board is drawn, on the 16x16 grid of games.board.grid
(BOARD.md "Board and numbering"), and which one a finger picks; pure Python so the
hit-testing is tested without Kivy.
Coordinates are (x, y) in cells with y growing *downwards*; the widget flips them.
"""

from __future__ import annotations

from games.board.grid import GRID, ZONE_RADIUS, every_key, is_zone, key, key_spot, spot, turn, unkey

__all__ = ["GRID", "ZONE_RADIUS", "every_key", "is_zone", "key", "key_spot", "nearest", "spot",
           "turn", "unkey"]


def nearest(point: tuple[float, float], keys: list[str], reach: float) -> str | None:
    """The key among `keys` whose centre is nearest `point` (cells), if within `reach`
    cells (START and HOME: their whole circle counts). Lets a finger wider than a cell
    pick among the few highlighted places without hitting exactly."""
    best, best_d = None, reach
    px, py = point
    for k in keys:
        x, y = key_spot(k)
        d = ((x - px) ** 2 + (y - py) ** 2) ** 0.5
        if is_zone(unkey(k)[1]):
            d = max(0.0, d - ZONE_RADIUS + 0.5)
        if d <= best_d:
            best, best_d = k, d
    return best
