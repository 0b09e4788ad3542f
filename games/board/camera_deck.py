"""The board game's cards for the camera (BOARD-CAMERA.md): each card seen is drawn."""

from __future__ import annotations

from typing import Any

from games.board.rules import CARDS


class BoardDeck:
    cards = CARDS

    def event_for(self, card: str) -> dict[str, Any] | None:
        return {"type": "draw", "card": card}


DECK = BoardDeck()
