"""Each game's face on the table's hardware, found by the rules' name (as `companion.games`).

A face says what a seat's button means in its game and what the LED board and the
button lamps show for one of its updates. Buttons, lamps and LED board look the open
game's face up here and never branch on a game: adding a game is one package here plus
one entry in `_PACKAGES`. A game without a face leaves the lamps dark and the LED board
alone, and refuses a seat's press in one sentence.
"""

from __future__ import annotations

import importlib

from hardware.faces.face import Face, LampState

__all__ = ["Face", "LampState", "get", "names"]

_PACKAGES = {"revenge": "hardware.faces.revenge", "board": "hardware.faces.board"}


def names() -> tuple[str, ...]:
    return tuple(_PACKAGES)


def get(game: str) -> Face | None:
    """The face of the game called `game` (the rules' name); None: it has none."""
    package = _PACKAGES.get(game)
    if package is None:
        return None
    face: Face = importlib.import_module(package).FACE
    return face
