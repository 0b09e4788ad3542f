"""The board game's cards and its two decks (BOARD.md "Deck").

Cards are strings, as in transcripts and on the command line: "1".."5", "7", "8", "10",
"11", "12" and "sorry". There is no 6 and no 9.

>>> deck_counts("standard")["1"], sum(deck_counts("standard").values())
(5, 45)
>>> sum(deck_counts("1939").values())
44
>>> parse_card("Sorry!")
'sorry'
"""

from __future__ import annotations

from companion.errors import BadEvent

__all__ = ["CARDS", "DECKS", "SORRY", "deck_counts", "parse_card", "steps_of"]

SORRY = "sorry"
CARDS = ("1", "2", "3", "4", "5", "7", "8", "10", "11", "12", SORRY)
DECKS = ("standard", "1939")


def deck_counts(deck: str) -> dict[str, int]:
    """How many of each card a fresh deck holds: four of each, five 1s (four in 1939)."""
    counts = dict.fromkeys(CARDS, 4)
    counts["1"] = 4 if deck == "1939" else 5
    return counts


def steps_of(card: str) -> int:
    """The number printed on a numbered card (0 for Sorry!)."""
    return 0 if card == SORRY else int(card)


def parse_card(value: object) -> str:
    """A card from what a person or a transcript wrote; BadEvent says which cards exist."""
    text = str(value).strip().lower().rstrip("!") if isinstance(value, str | int) else ""
    if isinstance(value, bool) or text not in CARDS:
        raise BadEvent(f"there is no card {str(value)[:20]!r} in Sorry!; the cards are "
                       "1, 2, 3, 4, 5, 7, 8, 10, 11, 12 and sorry",
                       code="bad_card", card=str(value)[:20])
    return text
