"""A game's settings (the **Setting**s of BOARD.md), validated once, frozen, hashable.

>>> s = Settings.parse({"slide_colors": {"T1": "blue"}, "start_move": "circle"}, "2016")
>>> s.slide_color(1), s.slide_color(9), s.start_move
('blue', 'red', 'circle')
>>> Settings.parse({}, "classic").to_json()["deck"]
'standard'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.errors import BadSetup
from games.board.rules.cards import DECKS
from games.board.rules.geometry import COLORS, SIDE_LEN, SLIDES

__all__ = ["EDITIONS", "PAWNS", "START_MOVES", "Settings", "parse_edition"]

EDITIONS = ("classic", "2016")
PAWNS = {"classic": 4, "2016": 3}  # pawns per colour
START_MOVES = ("count", "circle")
_TRIANGLES = {f"T{s.start}": s.start for s in SLIDES}
_FLAGS = ("faster_start", "adult", "play_on")
KEYS = ("slide_colors", "start_move", "deck", *_FLAGS)


def parse_edition(value: object) -> str:
    if value not in EDITIONS:
        raise BadSetup(f'edition must be "classic" or "2016", not {str(value)[:20]!r}',
                       code="bad_edition", edition=str(value)[:20])
    return str(value)


@dataclass(frozen=True, slots=True)
class Settings:
    """What a family may choose. `slide_colors` holds only the triangles whose colour differs
    from their side's; `adult` is the classic variation with 5-card hands; `play_on` keeps
    playing after the first player finishes, to rank the others."""

    slide_colors: tuple[tuple[int, str], ...] = ()
    start_move: str = "count"  # 2016 only: "count" (X is the first step) or "circle"
    deck: str = "standard"  # or "1939" (44 cards, four 1s)
    faster_start: bool = False  # one pawn of each colour starts on its X
    adult: bool = False
    play_on: bool = False

    def slide_color(self, triangle: int) -> str:
        """The colour of the slide whose triangle is track square `triangle`."""
        for square, color in self.slide_colors:
            if square == triangle:
                return color
        return COLORS[triangle // SIDE_LEN]

    @staticmethod
    def parse(obj: object, edition: str) -> Settings:
        """Settings from a setup's or a position's `settings` object (None: the defaults)."""
        if obj is None:
            return Settings()
        if not isinstance(obj, dict):
            raise BadSetup("settings must be an object such as {\"start_move\": \"circle\"}",
                           code="settings_not_object")
        unknown = sorted(set(obj) - set(KEYS))
        if unknown:
            raise BadSetup(f"there is no setting {unknown[0][:30]!r}; the settings are "
                           + ", ".join(KEYS), code="unknown_setting", key=unknown[0][:30])
        colors = obj.get("slide_colors", {}) or {}
        if not isinstance(colors, dict) or any(
                k not in _TRIANGLES or v not in COLORS for k, v in colors.items()):
            raise BadSetup("slide_colors must map triangles (T1, T9, T16, T24, T31, T39, T46, "
                           "T54) to red, blue, yellow or green", code="bad_slide_colors")
        overrides = tuple(sorted((_TRIANGLES[k], v) for k, v in colors.items()
                                 if v != COLORS[_TRIANGLES[k] // SIDE_LEN]))
        start_move = obj.get("start_move", "count")
        if start_move not in START_MOVES:
            raise BadSetup(f'start_move must be "count" or "circle", not {str(start_move)[:20]!r}',
                           code="bad_start_move", value=str(start_move)[:20])
        deck = obj.get("deck", "standard")
        if deck not in DECKS:
            raise BadSetup(f'deck must be "standard" (45 cards) or "1939" (44), not '
                           f"{str(deck)[:20]!r}", code="bad_deck", value=str(deck)[:20])
        flags = {}
        for key in _FLAGS:
            value = obj.get(key, False)
            if not isinstance(value, bool):
                raise BadSetup(f"{key} must be true or false, not {str(value)[:20]!r}",
                               code="bad_flag", key=key)
            flags[key] = value
        if flags["adult"] and edition != "classic":
            raise BadSetup("the adult variation (5-card hands) is a classic-edition rule; "
                           'use edition "classic" or leave adult out', code="adult_not_classic")
        return Settings(overrides, start_move, deck, **flags)

    def to_json(self) -> dict[str, Any]:
        """Every setting, defaults included, as the configuration and transcripts write it."""
        return {
            "slide_colors": {f"T{t}": self.slide_color(t) for t in (s.start for s in SLIDES)},
            "start_move": self.start_move,
            "deck": self.deck,
            "faster_start": self.faster_start,
            "adult": self.adult,
            "play_on": self.play_on,
        }
