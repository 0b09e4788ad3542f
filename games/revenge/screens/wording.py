"""The card game's sentences in the UI's language: card names, what a step did, what
happened after a tap, and what the voice says. It reads the engine's facts (cards,
events, outcomes); it never decides a rule.
"""

from __future__ import annotations

from games.revenge.rules import (
    Awaiting,
    Event,
    GameState,
    Happening,
    Outcome,
)
from games.revenge.words import card_words, step_words
from ui.i18n import tr


def card_name(code: str, lang: str) -> str:
    """The card as the edition in `lang` prints it: "Slide 15", "Glissade 15", "7"
    (games.revenge.words, where the card game's words are written once)."""
    return card_words(code, lang)


def step_label(event: Event, before: GameState, lang: str) -> str:
    """What an undo or redo would take back or apply: "Ben played 7" (the resume screen's
    words too: games.revenge.words)."""
    return step_words(event.to_json(), before, lang)


def outcome_message(
    outcome: Outcome, state: GameState, lang: str, *, after_tiebreak: bool = False
) -> str | None:
    """One sentence for the message line about an outcome, or None if it needs none.
    `after_tiebreak`: the event was a tiebreaker total, so a tie is a tie again."""
    what = outcome.what

    def name(seat: int | None) -> str:
        return "" if seat is None else state.name(seat)

    keys = {
        Happening.REACHED_21: "msg_reached_21",
        Happening.STOLEN: "msg_stolen",
        Happening.ROUND_KEPT: "msg_round_kept",
        Happening.STEAL_BLOCKED: "msg_steal_blocked",
        Happening.FLIP_BLOCKED: "msg_flip_blocked",
        Happening.FLIPPED_BACK: "msg_flipped_back",
        Happening.WON: "msg_won",
    }
    if what is Happening.REACHED_21 and state.window is not None:
        return None  # the SORRY! window's title says it, over the table
    if what in keys:
        return tr(keys[what], lang, name=name(outcome.seat), other=name(outcome.other))
    if what is Happening.BUST:
        return tr("msg_bust", lang, name=name(outcome.seat), total=int(outcome.value or 0))
    if what is Happening.FLIP_PLAYED and outcome.other is None:
        return tr("msg_flip_none", lang)
    if what is Happening.TIED and state.tiebreak is not None:
        names = ", ".join(state.name(s) for s in state.tiebreak.tied)
        return tr("msg_tied_again" if after_tiebreak else "msg_tied", lang, names=names)
    if what is Happening.IGNORED:
        return ignored_press(state, outcome.seat, lang)
    return None


def ignored_press(state: GameState, seat: int | None, lang: str) -> str:
    """Why a press changed nothing. "No SORRY! now" only when no window is open: while
    one is, the press came from someone whose press does not count in it (R9, R10)."""
    who = "" if seat is None else state.name(seat)
    w = state.window
    if w is None:
        return tr("no_sorry_now", lang, name=who)
    if w.kind is Awaiting.STEAL:
        return tr("press_own_21", lang, name=who)
    if w.caller is not None and seat == w.caller:
        return tr("press_already_called", lang, name=who, victim=state.name(w.victim))
    return tr("press_only_victim", lang, name=who, victim=state.name(w.victim))


def spoken(
    outcomes: tuple[Outcome, ...], state: GameState, played_total: bool, lang: str
) -> str | None:
    """What the voice says after one accepted event (None: nothing worth saying)."""
    for outcome in outcomes:
        if outcome.what is Happening.WON:
            return tr("say_won", lang, name=state.name(outcome.seat or 0))
    for outcome in outcomes:
        if outcome.what is Happening.REACHED_21:
            return tr("say_21", lang)
        if outcome.what is Happening.BUST:
            return tr("say_bust", lang)
        if outcome.what in (Happening.STEAL_CALLED, Happening.FLIP_PLAYED):
            return tr("say_sorry", lang)
    return str(state.total) if played_total else None
