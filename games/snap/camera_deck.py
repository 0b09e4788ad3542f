"""Snap's picture cards for the camera: each card seen is laid on the pile by the player
whose turn it is (a call is the buttons' or a tap's: the camera cannot hear one)."""

from __future__ import annotations

from typing import Any

from games.snap.rules import CARDS


class SnapDeck:
    cards = CARDS

    def event_for(self, card: str) -> dict[str, Any] | None:
        return {"type": "flip", "card": card}


DECK = SnapDeck()
