"""The cards a scorekeeper can log on a turn, parsed from their transcript codes.

>>> Card.parse("slide:15")
Card(kind=<CardKind.SLIDE: 'slide'>, value=15)
>>> Card.parse("7").code
'7'
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from companion.errors import BadEvent
from companion.members import members
from companion.safe_text import quote

MAX_NUMBER = 10
MAX_SLIDE = 21


class CardKind(StrEnum):
    NUMBER = "number"
    SLIDE = "slide"
    SWITCH = "switch"
    TAKE2 = "take2"
    PLAY2 = "play2"
    SORRY = "sorry"


_CardKind = members(CardKind)  # read per event (see companion.members)


@dataclass(frozen=True, slots=True)
class Card:
    """One card played on a turn. `value` is the number, or the Slide's target total."""

    kind: CardKind
    value: int = 0

    @property
    def code(self) -> str:
        """The transcript code: "7", "slide:15", "switch", ..."""
        if self.kind is _CardKind.NUMBER:
            return str(self.value)
        if self.kind is _CardKind.SLIDE:
            return f"slide:{self.value}"
        return self.kind.value

    @property
    def is_number(self) -> bool:
        return self.kind is _CardKind.NUMBER

    @property
    def label(self) -> str:
        """English name for messages: "7", "Slide 15", "Switch", "Take 2", "Play 2", "SORRY!"."""
        if self.kind is _CardKind.NUMBER:
            return str(self.value)
        if self.kind is _CardKind.SLIDE:
            return f"Slide {self.value}"
        return _LABELS[self.kind]

    @staticmethod
    def parse(code: object) -> Card:
        """Parse a transcript card code; raise BadEvent with the list of valid codes."""
        card = _BY_CODE.get(code) if isinstance(code, str) else None
        if card is None:
            raise BadEvent(
                f"there is no card {quote(code)}; cards are \"0\" to \"10\", \"slide:0\" to "
                f"\"slide:21\", \"switch\", \"take2\", \"play2\" and \"sorry\""
            )
        return card


_LABELS = {
    CardKind.SWITCH: "Switch",
    CardKind.TAKE2: "Take 2",
    CardKind.PLAY2: "Play 2",
    CardKind.SORRY: "SORRY!",
}

ALL_CARDS: tuple[Card, ...] = (
    *(Card(CardKind.NUMBER, n) for n in range(MAX_NUMBER + 1)),
    *(Card(CardKind.SLIDE, n) for n in range(MAX_SLIDE + 1)),
    Card(CardKind.SWITCH),
    Card(CardKind.TAKE2),
    Card(CardKind.PLAY2),
    Card(CardKind.SORRY),
)
_BY_CODE = {card.code: card for card in ALL_CARDS}
