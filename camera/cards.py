"""The card names the camera is taught, per game (CAMERA.md), and what each one logs:
each game's folder gives its deck (its manifest's `camera_deck`, a `Deck`).

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

from typing import Any, Protocol

from companion import plugins

# Photos taken of each face to teach it (the teach screen's, and the bench's): a face's
# only photo says nothing of how its print varies from photo to photo, so a glare or a
# blur in it can pass for print; two show it (docs/DECISIONS.md, the teach screen).
PHOTOS_A_FACE = 2
MAX_PHOTOS_A_FACE = 3  # a deck is taught from 1-3 photos a face (CAMERA.md)


class Deck(Protocol):
    """A game's cards for the camera (its folder's camera_deck module's DECK)."""

    # the faces, in teaching order
    cards: tuple[str, ...]

    def event_for(self, card: str) -> dict[str, Any] | None:
        """The transcript event a card seen by the camera stands for (None: a check only,
        shown on screen and never logged)."""
        ...


def games() -> tuple[str, ...]:
    """The games whose cards the camera can be taught."""
    return tuple(n for n in plugins.names() if plugins.manifest(n).camera_deck is not None)


def deck(game: str) -> Deck:
    """The deck of `game`; ValueError (one sentence): the camera knows no such game."""
    module = plugins.layer(game, "camera_deck") if game in games() else None
    if module is None:
        raise ValueError(f"the camera knows the games {', '.join(games())}, not {game!r}")
    found: Deck = module.DECK
    return found


def card_names(game: str) -> tuple[str, ...]:
    """The faces of `game`, in teaching order."""
    return deck(game).cards


def folder_name(card: str) -> str:
    """A card's name as a folder name (`:` is not allowed in every file system)."""
    return card.replace(":", "_")


def card_from_folder(name: str) -> str:
    return name.replace("_", ":")


def event_for(game: str, card: str) -> dict[str, Any] | None:
    """The transcript event a card seen by the camera stands for (None: a check only)."""
    return deck(game).event_for(card)
