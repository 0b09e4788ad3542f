"""The card names the camera is taught, per game (CAMERA.md), and what each one logs.

Standard library only, so the app can list and explain them without the extra.

>>> card_names("board")[:3]
('1', '2', '3')
>>> folder_name("slide:10"), card_from_folder("slide_10")
('slide_10', 'slide:10')
>>> event_for("revenge", "slide:15")
{'type': 'play', 'card': 'slide:15'}
>>> event_for("revenge", "steal") is None   # a check: the window's outcome is the buttons'
True
>>> event_for("board", "sorry")
{'type': 'draw', 'card': 'sorry'}
"""

from __future__ import annotations

from typing import Any

REVENGE_CARDS = (
    *(str(n) for n in range(11)), "slide:10", "slide:15", "slide:21",
    "switch", "take2", "play2", "sorry", "steal", "block",
)
BOARD_CARDS = ("1", "2", "3", "4", "5", "7", "8", "10", "11", "12", "sorry")
GAMES = {"revenge": REVENGE_CARDS, "board": BOARD_CARDS}
# Photos taken of each face to teach it (the teach screen's, and the bench's): a face's
# only photo says nothing of how its print varies from photo to photo, so a glare or a
# blur in it can pass for print; two show it (docs/DECISIONS.md, the teach screen).
PHOTOS_A_FACE = 2
MAX_PHOTOS_A_FACE = 3  # a deck is taught from 1-3 photos a face (CAMERA.md)
# Faces seen during a SORRY! window: shown on screen as a check, never an event (the
# buttons' edge times decide the window, RULES R9-R10).
CHECK_ONLY = frozenset({"steal", "block"})


def card_names(game: str) -> tuple[str, ...]:
    """The faces of `game` ("revenge" or "board"), in teaching order."""
    try:
        return GAMES[game]
    except KeyError:
        raise ValueError(f"the camera knows the games {', '.join(GAMES)}, not {game!r}") from None


def folder_name(card: str) -> str:
    """A card's name as a folder name (`:` is not allowed in every file system)."""
    return card.replace(":", "_")


def card_from_folder(name: str) -> str:
    return name.replace("_", ":")


def event_for(game: str, card: str) -> dict[str, Any] | None:
    """The transcript event a card seen by the camera stands for (None: a check only)."""
    if game == "board":
        return {"type": "draw", "card": card}
    if card in CHECK_ONLY:
        return None
    return {"type": "play", "card": card}
