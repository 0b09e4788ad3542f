"""The board game's cards for the camera (BOARD-CAMERA.md): each card seen is drawn."""

from __future__ import annotations

from typing import Any

from games.board.rules import CARDS

# The deck's file in the data folder: camera-board.npz is the taught board's (BOARD-CAMERA.md),
# so teaching the cards never overwrites the board, nor the board the cards.
DECK_FILE = "camera-board-cards.npz"


class BoardDeck:
    cards = CARDS

    def event_for(self, card: str) -> dict[str, Any] | None:
        return {"type": "draw", "card": card}


DECK = BoardDeck()
