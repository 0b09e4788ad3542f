"""The card game's cards for the camera (CAMERA.md): every face in teaching order; a
card seen is played, but for the faces of a SORRY! window, shown as a check only (the
buttons' edge times decide the window, RULES R9-R10)."""

from __future__ import annotations

from typing import Any

CARDS = (
    *(str(n) for n in range(11)), "slide:10", "slide:15", "slide:21",
    "switch", "take2", "play2", "sorry", "steal", "block",
)
CHECK_ONLY = frozenset({"steal", "block"})


class RevengeDeck:
    cards = CARDS

    def event_for(self, card: str) -> dict[str, Any] | None:
        return None if card in CHECK_ONLY else {"type": "play", "card": card}


DECK = RevengeDeck()
