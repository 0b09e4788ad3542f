"""The seats at the table, checked the same way for every game: two to four players,
each with a name the screen can show, who starts, and one colour each from the four
seats' colours (clockwise). A game's setup calls `check_seats`, and so does the first
screen before it knows which game will be played, so both refuse in the same sentence.

>>> check_seats(["Ana", "ben"], first="BEN")
(('Ana', 'ben'), 'ben', ('red', 'blue'))
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.errors import BadSetup
from companion.games import player_names
from companion.safe_text import quote

__all__ = ["MAX_SEATS", "MIN_SEATS", "SEAT_COLORS", "check_seats"]

MIN_SEATS, MAX_SEATS = 2, 4
SEAT_COLORS = ("red", "blue", "yellow", "green")  # the seats clockwise


def check_seats(players: object, *, first: object = None,
                colors: Sequence[str] | None = None) -> tuple[tuple[str, ...], str,
                                                              tuple[str, ...]]:
    """The players' names, who starts and each one's colour (the first seats' colours
    when none are given); every refusal is one BadSetup sentence."""
    names = player_names(players, MIN_SEATS, MAX_SEATS)
    first = names[0] if first is None else first
    by_folded = {n.casefold(): n for n in names}
    if not isinstance(first, str) or first.strip().casefold() not in by_folded:
        raise BadSetup(f"first names {quote(first)}, who is not one of the players "
                       f"{list(names)}", code="first_unknown", first=first)
    if colors is None:
        return names, by_folded[first.strip().casefold()], SEAT_COLORS[: len(names)]
    if (not isinstance(colors, list | tuple) or len(colors) != len(names)
            or any(c not in SEAT_COLORS for c in colors) or len(set(colors)) != len(colors)):
        raise BadSetup(f"colors must be {len(names)} different ones of "
                       f"{', '.join(SEAT_COLORS)}, one per player, not {quote(colors)}",
                       code="bad_colors")
    return names, by_folded[first.strip().casefold()], tuple(colors)
