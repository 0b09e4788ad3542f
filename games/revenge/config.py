"""The card game's tables in the configuration file (companion.config.Section): [deck],
its deck profile; [windows], how long the SORRY! windows stay open; [game], the new-game
form's defaults. Each keeps the name, keys and sentences it had as one of the app's own
tables, so every config file written before loads the same. Their commented defaults are
config.toml, beside this file, which the app's default configuration is composed from.

>>> windows_config(None).steal_seconds, game_config(None).pawns, sum(deck_profile(None).values())
(5.0, 4, 93)
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass

from companion.config import Refused, Section, TableProblem, choice, number, whole
from companion.safe_text import clip
from companion.windows import DEFAULT_SECONDS, WINDOW_SECONDS
from games.revenge.rules.deck import DEFAULT_DECK
from games.revenge.rules.events import MAX_PAWNS, Variant
from games.revenge.rules.state import DECK_SIZE

__all__ = ["DeckProfile", "GameConfig", "WindowsConfig", "deck_profile", "game_config",
           "windows_config"]


@dataclass(frozen=True, slots=True)
class WindowsConfig:
    """How long the SORRY! windows stay open (RULES R9, R10)."""

    steal_seconds: float = DEFAULT_SECONDS
    block_seconds: float = DEFAULT_SECONDS


@dataclass(frozen=True, slots=True)
class GameConfig:
    """The new-game form's defaults."""

    pawns: int = MAX_PAWNS
    variant: str = Variant.STANDARD.value


class DeckProfile(dict[str, int]):
    """[deck]: how many cards of each value (DEFAULT_DECK for a card left out)."""

    def __init__(self, counts: Mapping[str, int] = DEFAULT_DECK) -> None:
        super().__init__({**DEFAULT_DECK, **counts})


def _read_deck(value: object) -> DeckProfile:
    """The [deck] table read whole: its cards are the deck's, their counts add up to 93."""
    if not isinstance(value, dict):
        raise Refused("[deck] must be a table of card counts")
    counts: dict[str, int] = {}
    count_check = whole(0, DECK_SIZE, " of cards")
    for name, count in value.items():
        if name not in DEFAULT_DECK:
            raise TableProblem(f"[deck] unknown card {clip(json.dumps(name))}: the cards are "
                               + ", ".join(json.dumps(k) for k in DEFAULT_DECK))
        try:
            counts[name] = count_check(count)
        except Refused as exc:
            raise Refused(str(exc), where=f"[deck] {clip(json.dumps(name))}",
                          value=count) from None
    deck = DeckProfile(counts)
    total = sum(deck.values())
    if total != DECK_SIZE:
        raise TableProblem(
            f"[deck] the card counts add up to {total}, not {DECK_SIZE}: change them so "
            f"the deck has {DECK_SIZE} cards (a card left out keeps its default count)")
    return deck


# In the order the refusal of an unknown table lists them, as it did when they were the
# app's own (the default game's tables come first: companion.config.game_sections).
SECTIONS = {
    "deck": Section(DeckProfile, {}, read=_read_deck),
    "windows": Section(WindowsConfig, {
        "steal_seconds": number(*WINDOW_SECONDS, "seconds"),
        "block_seconds": number(*WINDOW_SECONDS, "seconds"),
    }),
    "game": Section(GameConfig, {
        "pawns": whole(1, MAX_PAWNS, " of pawn cards"),
        "variant": choice(*(v.value for v in Variant)),
    }),
}


def _table(config: object, name: str) -> object:
    section = getattr(config, "section", None)
    return section(name) if callable(section) else None


def windows_config(config: object) -> WindowsConfig:
    """The [windows] table of a companion.config.Config (its defaults for anything else)."""
    found = _table(config, "windows")
    return found if isinstance(found, WindowsConfig) else WindowsConfig()


def game_config(config: object) -> GameConfig:
    """The [game] table of a companion.config.Config (its defaults for anything else)."""
    found = _table(config, "game")
    return found if isinstance(found, GameConfig) else GameConfig()


def deck_profile(config: object) -> DeckProfile:
    """The [deck] table of a companion.config.Config (the default deck for anything else)."""
    found = _table(config, "deck")
    return found if isinstance(found, DeckProfile) else DeckProfile()
