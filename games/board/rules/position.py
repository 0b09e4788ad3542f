"""A position: where every seated colour's pawns stand (BOARD.md "Contract: positions").

Inside the engine a location is a small int, its index in `geometry.LOCATIONS`
(START 0, T0..T59 are 1..60, S1..S5 are 61..65, HOME 66), so canonical order is sorting.
A safety square belongs to its colour: red's S2 and blue's S2 are different squares.

>>> p = Position.parse({"edition": "classic", "pawns": {"red": ["T4", "START", "S2", "HOME"],
...                     "blue": ["START"] * 4}})
>>> p.pawns_json()["red"]
['START', 'T4', 'S2', 'HOME']
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.board.rules.errors import BadPosition
from games.board.rules.geometry import COLORS, LOCATIONS, SAFETY_LEN, TRACK_LEN, start_exit
from games.board.rules.settings import PAWNS, Settings, parse_edition

__all__ = [
    "HOME_I", "LOC", "START_I", "Position", "is_safety", "is_track", "name_of",
    "track_index", "track_loc",
]

START_I = 0
HOME_I = TRACK_LEN + SAFETY_LEN + 1  # 66
LOC = {name: i for i, name in enumerate(LOCATIONS)}


def name_of(loc: int) -> str:
    return LOCATIONS[loc]


def is_track(loc: int) -> bool:
    return 1 <= loc <= TRACK_LEN


def is_safety(loc: int) -> bool:
    return TRACK_LEN < loc < HOME_I


def track_loc(n: int) -> int:
    """The location of track square T(n), n taken mod 60."""
    return n % TRACK_LEN + 1


def track_index(loc: int) -> int:
    return loc - 1


@dataclass(frozen=True, slots=True)
class Position:
    """The board: edition, settings, seated colours (clockwise) and their pawns (sorted)."""

    edition: str
    settings: Settings
    colors: tuple[str, ...]
    pawns: tuple[tuple[int, ...], ...]

    def __hash__(self) -> int:
        """Only the pawns and colours: equal positions still hash alike, and the engine,
        which looks a position up at every card, skips hashing the edition and settings
        (the settings' hash is a Python call: 0.4 us a look-up instead of 0.17 us)."""
        return hash((self.colors, self.pawns))

    def seat(self, color: str) -> int:
        return self.colors.index(color)

    def pawns_json(self) -> dict[str, list[str]]:
        return {c: [LOCATIONS[x] for x in ps]
                for c, ps in zip(self.colors, self.pawns, strict=True)}

    def to_json(self) -> dict[str, Any]:
        return {"edition": self.edition, "pawns": self.pawns_json(),
                "settings": self.settings.to_json()}

    def with_pawns(self, pawns: tuple[tuple[int, ...], ...]) -> Position:
        return Position(self.edition, self.settings, self.colors, pawns)

    @staticmethod
    def start(edition: str, settings: Settings, colors: tuple[str, ...]) -> Position:
        """Every pawn in START; with `faster_start` one pawn of each colour on its X."""
        n = PAWNS[edition]
        pawns = tuple(
            tuple(sorted([START_I] * (n - 1) + [track_loc(start_exit(c))]))
            if settings.faster_start else (START_I,) * n
            for c in colors)
        return Position(edition, settings, colors, pawns)

    @staticmethod
    def parse(obj: object) -> Position:
        """A position from its JSON object; BadPosition says in one sentence what is wrong."""
        if not isinstance(obj, dict):
            raise BadPosition('a position is a JSON object such as {"edition": "classic", '
                              '"pawns": {"red": ["START", "T4", "S2", "HOME"]}}',
                              code="position_not_object")
        try:
            edition = parse_edition(obj.get("edition"))
            settings = Settings.parse(obj.get("settings"), edition)
        except BadPosition:
            raise
        except Exception as exc:  # a BadSetup sentence is just as good for a position
            raise BadPosition(str(exc), code=getattr(exc, "code", "bad_position"),
                              **getattr(exc, "params", {})) from None
        pawns = obj.get("pawns")
        if not isinstance(pawns, dict) or not pawns:
            raise BadPosition('"pawns" must map each seated colour to its list of locations',
                              code="pawns_not_object")
        colors = tuple(c for c in COLORS if c in pawns)
        unknown = [c for c in pawns if c not in COLORS]
        if unknown:
            raise BadPosition(f"{str(unknown[0])[:20]!r} is no colour; the colours are "
                              "red, blue, yellow and green", code="bad_color",
                              color=str(unknown[0])[:20])
        lists = []
        for color in colors:
            locs = pawns[color]
            want = PAWNS[edition]
            if not isinstance(locs, list) or len(locs) != want:
                raise BadPosition(f"{color} must have a list of {want} locations (the "
                                  f"{edition} edition has {want} pawns each)",
                                  code="pawn_count", color=color, count=want)
            bad = [x for x in locs if not isinstance(x, str) or x not in LOC]
            if bad:
                raise BadPosition(f"{str(bad[0])[:20]!r} is no location; a location is START, "
                                  "T0 to T59, S1 to S5 or HOME", code="bad_location",
                                  location=str(bad[0])[:20])
            lists.append(tuple(sorted(LOC[x] for x in locs)))
        position = Position(edition, settings, colors, tuple(lists))
        position.check()
        return position

    def check(self) -> None:
        """At most one pawn per track square, and per safety square of each colour."""
        seen: dict[int, str] = {}
        for color, locs in zip(self.colors, self.pawns, strict=True):
            for i, x in enumerate(locs):
                if is_safety(x) and x in locs[:i]:
                    raise BadPosition(f"two {color} pawns are both on {LOCATIONS[x]}; a square "
                                      "holds one pawn", code="square_twice",
                                      square=LOCATIONS[x], colors=[color, color])
                if is_track(x):
                    if x in seen:
                        who = (f"two {color}" if seen[x] == color
                               else f"{seen[x]} and {color}")
                        raise BadPosition(f"{who} pawns are both on "
                                          f"{LOCATIONS[x]}; a square holds one pawn",
                                          code="square_twice", square=LOCATIONS[x],
                                          colors=[seen[x], color])
                    seen[x] = color
