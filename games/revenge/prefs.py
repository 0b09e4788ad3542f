"""The card game's remembered choices (ui.prefs.Choices, choices.json): the pawn cards
and the variant of the last card game, its own section of the file ("revenge").

Before each game had its section, the card game's were at the top of the file
("pawns", "variant"): a file without the section is read there, so an older
choices.json starts the next game as it did.

>>> recall(None, {"pawns": 2, "variant": "long"}), recall({"pawns": 9}, {"pawns": 2})
({'pawns': 2, 'variant': 'long'}, {'pawns': 4, 'variant': 'standard'})
"""

from __future__ import annotations

from collections.abc import Mapping

from companion.rules import json_object
from games.revenge.rules.events import MAX_PAWNS, Variant

__all__ = ["recall", "section"]


def _pawns(value: object) -> int:
    """Pawn cards from 1 to MAX_PAWNS (a number out of range is brought into it, as
    before); anything else: MAX_PAWNS."""
    if isinstance(value, int | float | str):
        try:
            return min(MAX_PAWNS, max(1, int(value)))
        except (ValueError, OverflowError):
            pass
    return MAX_PAWNS


def section(pawns: int, variant: str) -> dict[str, object]:
    """What the card game keeps of a game it starts."""
    return {"pawns": pawns, "variant": variant}


def recall(own: object, choices: Mapping[str, object]) -> dict[str, object]:
    """The card game's section, checked: `own`, its section of the file, else the top of
    an older file (`choices`, the whole file's object)."""
    kept: Mapping[str, object] = own if json_object(own) else choices
    long = kept.get("variant") == Variant.LONG.value
    return section(_pawns(kept.get("pawns", MAX_PAWNS)),
                   Variant.LONG.value if long else Variant.STANDARD.value)
