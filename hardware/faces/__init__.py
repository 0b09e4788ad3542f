"""Each game's face on the table's hardware, found by the rules' name (as `companion.games`).

A face says what a seat's button means in its game and what the LED board and the
button lamps show for one of its updates: the `face` package of a game's folder
(companion.plugins), whose `FACE` is a `Face`. Buttons, lamps and LED board look the open
game's face up here and never branch on a game. A game without a face leaves the lamps
dark and the LED board alone, and refuses a seat's press in one sentence.
"""

from __future__ import annotations

from companion import plugins
from hardware.faces.face import Face, LampState

__all__ = ["Face", "LampState", "get", "names"]


def names() -> tuple[str, ...]:
    """The games with a face, in the registry's order."""
    return tuple(n for n in plugins.names() if plugins.manifest(n).face is not None)


def get(game: str) -> Face | None:
    """The face of the game called `game` (the rules' name); None: it has none."""
    module = plugins.layer(game, "face") if game in plugins.names() else None
    if module is None:
        return None
    face: Face = module.FACE
    return face
