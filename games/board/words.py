"""The board game's steps in the table's words (companion.plugins.Manifest.words), for the
resume screen's "Resumed after …" and the command line (companion.resume_words): "Ana
drew 7", "Ana: from START to your start circle". Its screen words its undo steps from its
own door's view of them (games.board.screens.model).
"""

from __future__ import annotations

from companion.catalogue import has, text
from companion.rules import Json
from games.board.rules import legs_text, place

# `history --html`'s title of the game and heading of what its rounds_played counts
TITLE = "The board game"
ROUNDS = "turns"


def card_words(card: str, lang: str) -> str:
    """A card of the board game's deck: its number, or SORRY!."""
    return text("card_sorry", lang) if card == "sorry" else card


def step_words(event: Json, before: object, lang: str) -> str:
    """One event of a board game in words, from the state before it."""
    kind = event.get("type")
    turn = getattr(before, "turn", None)
    names = getattr(before, "names", ())
    who = (str(names[turn]) if isinstance(turn, int) and 0 <= turn < len(names)
           else text("rw_table", lang))
    if kind == "draw":
        return text("b_step_draw", lang, name=who, card=card_words(str(event.get("card")), lang))
    if kind == "move":
        legs = event.get("legs")  # a stored move's: pairs of places (Move.to_json)
        return text("b_step_move", lang, name=who,
                    move=legs_text(legs if isinstance(legs, list) else [], lang))
    if kind == "no_play":
        return text("rw_no_play", lang, name=who, card=str(event.get("discard")))
    if kind == "place":
        color = str(event.get("color"))
        named = text(f"b_color_{color}", lang) if has(f"b_color_{color}", lang) else color
        return text("b_step_place", lang, color=named,
                    frm=place(str(event.get("from")), lang, color),
                    to=place(str(event.get("to")), lang, color))
    return f"{who}: {kind}"
