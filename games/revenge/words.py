"""The card game's steps and cards in the table's words (companion.plugins.Manifest.words),
written once for the undo and redo buttons (games.revenge.screens), the resume screen's
"Resumed after …" and the command line (companion.resume_words): "Ben played 7",
"Ana a joué Pigez-en 2".

>>> from games.revenge.rules import RULES, Setup
>>> before = RULES.initial_state(Setup.create(["Ana", "Ben"]))
>>> step_words({"type": "play", "card": "take2"}, before, "fr")
'Ana a joué Pigez-en 2'
"""

from __future__ import annotations

from companion.catalogue import text
from companion.errors import BadEvent
from companion.rules import Json
from games.revenge.rules import Awaiting, Card, CardKind, GameState

# `history --html`'s title of the game and heading of what its rounds_played counts
TITLE = "The card game (Sorry! Revenge)"
ROUNDS = "rounds"
# the faces of the SORRY! window's cards, printed the same in every edition
PRINTED = {"steal": "SORRY!", "block": "Don't Be SORRY!"}


def card_words(code: str, lang: str) -> str:
    """The card as the edition in `lang` prints it: "Slide 15", "Glissade 15", "7" (the
    catalogue's "revenge_card_<kind>"; a number is its own label); the SORRY! window's
    faces the camera sees (its deck's steal and block) by their printed names; a code
    that is no card of the game, as it is."""
    if code in PRINTED:
        return PRINTED[code]
    try:
        card = Card.parse(code)
    except BadEvent:
        return code
    if card.kind is CardKind.NUMBER:
        return card.label
    return text(f"revenge_card_{card.kind}", lang, value=card.value)


def is_block(press: Json, before: GameState | None) -> bool:
    """A press by the victim of an open block window: a Don't Be SORRY!, not a call."""
    window = before.window if before is not None else None
    return (before is not None and window is not None and window.kind is Awaiting.BLOCK
            and press.get("player") == before.name(window.victim))


def step_words(event: Json, before: GameState | None, lang: str) -> str:
    """One event of a card game in words, from the state before it."""
    kind = event.get("type")
    who = before.name(before.turn) if before is not None else text("rw_table", lang)
    if kind == "play":
        target, card = event.get("target"), card_words(str(event.get("card")), lang)
        return (text("step_play_on", lang, name=who, card=card, target=target) if target
                else text("step_play", lang, name=who, card=card))
    if kind == "press":
        if is_block(event, before):  # a block, not a call
            return text("step_block", lang, name=event.get("player"))
        return text("step_press", lang, name=event.get("player"))
    if kind == "close":
        return text("step_close", lang)
    if kind == "end_play2":
        return text("step_end_play2", lang, name=who)
    if kind == "tiebreak":
        return text("step_tiebreak", lang, name=event.get("player"), total=event.get("total"))
    return f"{who}: {kind}"
