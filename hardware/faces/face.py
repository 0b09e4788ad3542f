"""What a game's face gives the hardware (hardware.faces): pure and quick, since the
session's listeners call it under the session's lock."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from companion.session import AnyResult, JsonEvent, Session, Update
from hardware.firmware.pawnled import LedBoardState


@dataclass(frozen=True, slots=True)
class LampState:
    """The button lamps: lit for the seats whose press counts now; the winner's flashes."""

    lit: frozenset[int]  # seats whose press counts now
    winner: int | None = None  # the winner's lamp flashes

    def mode(self, seat: int) -> str:
        if seat == self.winner:
            return "blink"
        return "on" if seat in self.lit else "off"


DARK = LampState(frozenset())


class Face(Protocol):
    """One game's meaning of the buttons and picture on the lamps and the LED board."""

    def seat_press(self, session: Session, seat: int, t: float | None) -> AnyResult:
        """A seat's button pressed at `t` (on the session's clock; None: now); a refusal
        is a CompanionError sentence. What the press means is the game's, from its state
        (the board game's setup says who draws the cards)."""
        ...

    def ledboard(self, update: Update[object, JsonEvent], brightness: int) -> LedBoardState:
        """What the LED board shows for this update."""
        ...

    def lamps(self, update: Update[object, JsonEvent]) -> LampState:
        """Which button lamps are lit for this update."""
        ...
