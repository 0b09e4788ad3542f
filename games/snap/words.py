"""Snap's steps and cards in the table's words (companion.plugins.Manifest.words), from
its own catalogue (locales/, added to the app's when this module is first imported):
"Ana laid Sun", "Ben called Snap!", and in French "Ana a posé Soleil"."""

from __future__ import annotations

from pathlib import Path

from companion import catalogue
from companion.rules import Json
from games.snap.rules import CARDS, State

catalogue.add_locales(Path(__file__).with_name("locales"))


def card_words(card: str, lang: str) -> str:
    """A picture's name: "Sun", "Soleil"; a name the deck lacks as it is."""
    return catalogue.text(f"snap_card_{card}", lang) if card in CARDS else card


def step_words(event: Json, before: State, lang: str) -> str:
    """One event of a snap game in words, from the state before it."""
    if event.get("type") == "flip":
        return catalogue.text("snap_step_flip", lang, name=before.names[before.turn],
                              card=card_words(str(event.get("card")), lang))
    return catalogue.text("snap_step_snap", lang, name=str(event.get("player")))
