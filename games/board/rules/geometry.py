"""The board as data (BOARD.md "Board and numbering"): every square, slide and zone.

The rules and the screen both read the board from here, so a square's meaning is written
once. Locations are strings, as in positions and transcripts: "START", "T0".."T59",
"S1".."S5" (the pawn's own colour's safety zone) and "HOME".

>>> entry("blue"), start_exit("green"), SLIDES[0]
(17, 49, Slide(side=0, start=1, end=4))
>>> [s.start for s in SLIDES]
[1, 9, 16, 24, 31, 39, 46, 54]
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = [
    "COLORS", "HOME", "LOCATIONS", "SAFETY_LEN", "SIDE_LEN", "SLIDES", "START", "TRACK_LEN",
    "Slide", "entry", "order_key", "side_of", "start_exit",
]

TRACK_LEN = 60
SIDE_LEN = 15
SAFETY_LEN = 5
START, HOME = "START", "HOME"
COLORS = ("red", "blue", "yellow", "green")  # seats clockwise: side 0, 1, 2, 3

_ENTRY_K, _EXIT_K = 2, 4  # safety entry E and start exit X, as places k on a side
_SLIDE_KS = ((1, 4), (9, 13))  # (triangle, end circle) on every side


class Slide(NamedTuple):
    """A slide from its triangle `start` to its end circle `end` (track indexes)."""

    side: int
    start: int
    end: int

    @property
    def squares(self) -> range:
        """Every square the slide covers, triangle and end included."""
        return range(self.start, self.end + 1)


SLIDES = tuple(
    Slide(side, SIDE_LEN * side + a, SIDE_LEN * side + b)
    for side in range(4) for a, b in _SLIDE_KS
)

# The canonical order of a location (BOARD.md): START, T0..T59, S1..S5, HOME.
LOCATIONS = (START, *(f"T{n}" for n in range(TRACK_LEN)),
             *(f"S{k}" for k in range(1, SAFETY_LEN + 1)), HOME)
_ORDER = {loc: i for i, loc in enumerate(LOCATIONS)}


def side_of(color: str) -> int:
    return COLORS.index(color)


def entry(color: str) -> int:
    """The track square from which `color` steps into its safety zone (E)."""
    return SIDE_LEN * side_of(color) + _ENTRY_K


def start_exit(color: str) -> int:
    """The circle under `color`'s START, where a started pawn lands (X)."""
    return SIDE_LEN * side_of(color) + _EXIT_K


def order_key(location: str) -> int:
    """Sort key of a location in canonical order; KeyError for a location that is none."""
    return _ORDER[location]
