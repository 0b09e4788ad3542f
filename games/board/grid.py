"""Where every location of the board lies on a 16x16 grid of cells (BOARD.md "Board and
numbering"): pure Python, shared by the board screen (which draws it) and the board
camera (which reads it), so both place a square at the same spot.

The track is the grid's outer ring: side s starts at a corner (k = 0) and runs clockwise,
red's side 0 along the top from the left. Everything of one side (its slides, safety zone,
START and HOME) is placed once for side 0 in *local* coordinates (k along the side, depth
inward) and turned a quarter clockwise per side, so the four sides cannot drift apart.
Coordinates are (x, y) in cells with y growing *downwards*.

>>> spot("T0"), spot("T15"), spot("T30"), spot("T45")
((0.5, 0.5), (15.5, 0.5), (15.5, 15.5), (0.5, 15.5))
>>> spot("S1", "red"), spot("START", "red")
((2.5, 1.5), (4.5, 2.6))
"""

from __future__ import annotations

from games.board.rules import geometry as g

__all__ = ["GRID", "ZONE_RADIUS", "every_key", "is_zone", "key", "key_spot", "spot", "turn",
           "unkey"]

GRID = 16  # cells per side of the board
ZONE_RADIUS = 1.25  # START and HOME circles, in cells
_START_LOCAL = (g.start_exit("red") + 0.5, 2.6)  # under red's X, one cell inside the ring
_HOME_LOCAL = (g.entry("red") + 0.5, 1 + g.SAFETY_LEN + ZONE_RADIUS)


def turn(point: tuple[float, float], side: int) -> tuple[float, float]:
    """A side-0 point turned a quarter clockwise `side` times about the board's centre."""
    x, y = point
    for _ in range(side % 4):
        x, y = GRID - y, x
    return x, y


def spot(location: str, color: str = "red") -> tuple[float, float]:
    """The centre of `location` (for START, S1..S5 and HOME: of `color`'s), in cells.
    KeyError for a location that is none."""
    if location.startswith("T") and location[1:].isdigit():
        n = int(location[1:])
        if not 0 <= n < g.TRACK_LEN:
            raise KeyError(location)
        side, k = divmod(n, g.SIDE_LEN)
        return turn((k + 0.5, 0.5), side)
    side = g.side_of(color)
    if location == g.START:
        return turn(_START_LOCAL, side)
    if location == g.HOME:
        return turn(_HOME_LOCAL, side)
    zone = location[1:]
    if location.startswith("S") and zone.isdigit() and 1 <= int(zone) <= g.SAFETY_LEN:
        k = g.entry("red")
        return turn((k + 0.5, int(location[1:]) + 0.5), side)
    raise KeyError(location)


def is_zone(location: str) -> bool:
    """START and HOME hold any number of pawns; every other location one."""
    return location in (g.START, g.HOME)


def key(location: str, color: str) -> str:
    """A location as one string for the whole board: track squares are everyone's,
    START, the safety zone and HOME are per colour ("T12", "blue:S3", "red:START")."""
    return location if location.startswith("T") else f"{color}:{location}"


def unkey(board_key: str) -> tuple[str | None, str]:
    """(colour or None, location) of a board key."""
    color, _, location = board_key.rpartition(":")
    return (color or None), location


def every_key(colors: tuple[str, ...] = g.COLORS) -> list[str]:
    """Every location of the drawn board, as board keys."""
    keys = [f"T{n}" for n in range(g.TRACK_LEN)]
    for c in colors:
        own = (g.START, *(f"S{k}" for k in range(1, g.SAFETY_LEN + 1)), g.HOME)
        keys += [key(loc, c) for loc in own]
    return keys


def key_spot(board_key: str) -> tuple[float, float]:
    color, location = unkey(board_key)
    return spot(location, color or "red")
