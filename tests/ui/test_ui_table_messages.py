"""What the table says, by touch on the real app: messages as full sentences, a press
that changes nothing said for what it is (never "No SORRY! now" while a window is open),
a bust shown as "25 - BUST" in the total's place for 1.5 s, and a tiebreaker tied again."""

from __future__ import annotations

import time

from kivy.core.window import Window
from ui_helpers import setup_by_touch

from games.revenge.screens.model import BUST_SHOW_S

LONG = 3600.0


def key(d, digit: str) -> None:
    """A player's SORRY! button from the laptop keys 1-4 (the GPIO buttons' stand-in)."""
    Window.dispatch("on_key_down", 48 + int(digit), 0, digit, [])
    d.frames(2)


def message(d) -> str:
    return d.label("table", "message_label")


def cy_reaches_21(d) -> None:
    for card in ("10", "10", "1"):  # Ana, Ben, then Cy reaches 21
        d.tap_code(card)
    assert d.app.session.state.window is not None


def test_two_messages_read_as_two_sentences(driver):
    d = driver()
    setup_by_touch(d, ["Ana", "Ben", "Cy"], pawns=4, variant="standard")
    cy_reaches_21(d)
    # "Cy reached 21!" is the SORRY! window's title, not said again under it (issue 35.7);
    # the line under it says what the window's countdown leads to
    assert d.label("table", "window_title").startswith("Cy reached 21!")
    assert message(d) == "If no one calls, Cy keeps the round."
    d.tap(d.button(code="Ben"))  # Ben calls SORRY!
    d.tap(d.button(code="Cy"))  # Cy answers with Don't Be SORRY!
    assert message(d) == "Cy blocked the steal. Cy keeps the round."
    d.tap_code("take2")  # Ana: a refusal-free card, then a refusal in words
    d.tap_id("table", "redo_button")
    assert message(d) == "There is nothing to redo."


def test_a_press_in_an_open_window_never_says_no_sorry_now(driver):
    d = driver()
    setup_by_touch(d, ["Ana", "Ben", "Cy"], pawns=4, variant="standard")
    cy_reaches_21(d)
    key(d, "3")  # Cy, who reached 21, presses in the steal window
    assert message(d) == "Cy reached 21, so a SORRY! from Cy does not count."
    assert d.app.session.state.window.kind.value == "steal"  # still open, nothing changed
    d.tap(d.button(code="Ben"))
    key(d, "1")  # Ana, in Cy's block window
    assert message(d) == (
        "Only Cy may answer now, with Don't Be SORRY!; Ana's press changes nothing."
    )
    key(d, "2")  # Ben again
    assert message(d) == "Ben already called SORRY!: now only Cy may answer."
    d.tap(d.button(code="Cy"))  # Cy blocks: the window closes, Cy keeps the round
    assert d.app.session.state.window is None
    key(d, "2")
    assert message(d) == "No SORRY! now (Ben)."  # only now, with no window open
    d.app.set_language("fr")
    cy_reaches_21(d)  # Ana starts the round after Cy's: Cy reaches 21 again
    key(d, "3")
    assert message(d) == "Cy a atteint 21 : un SORRY! de Cy ne compte pas."


def test_a_bust_shows_the_total_that_busted_for_a_moment(driver):
    d = driver()
    setup_by_touch(d, ["Ana", "Ben"], pawns=4, variant="standard")
    d.tap_code("10")
    d.tap_code("10")
    shown = time.monotonic()
    d.tap_code("5")  # Ana busts at 25
    assert d.label("table", "total_label") == "25 - BUST"
    assert d.app.session.state.total == 0  # the game itself is in the next round
    assert d.app.model._bust_event.timeout == BUST_SHOW_S == 1.5  # Kivy's Clock, 1.5 s
    assert message(d) == "Ana busts at 25: everyone else advances."
    d.wait_for(lambda: d.label("table", "total_label") == "0", "the total back after 1.5 s")
    assert time.monotonic() - shown >= 1.3  # it was on screen for its time, not cut short


def test_the_next_card_or_an_undo_replaces_the_bust_at_once(driver):
    d = driver()
    d.app.model.bust_seconds = LONG  # only the next tap can take the bust away
    setup_by_touch(d, ["Ana", "Ben"], pawns=4, variant="standard")
    for card in ("10", "10", "5"):
        d.tap_code(card)
    assert d.label("table", "total_label") == "25 - BUST"
    d.tap_code("7")  # Ben starts the next round at once
    assert d.label("table", "total_label") == "7"
    d.tap_id("table", "undo_button")
    d.tap_id("table", "undo_button")  # back before the bust: no bust shown
    assert d.label("table", "total_label") == "20"
    d.app.set_language("fr")
    d.tap_code("9")  # Ana busts at 29, said in French
    assert d.label("table", "total_label") == "29 - DÉPASSÉ"


def test_a_tiebreaker_tied_again_says_so(driver):
    d = driver()
    setup_by_touch(d, ["Ana", "Ben", "Cy"], pawns=1, variant="standard")
    for card in ("10", "10", "5"):  # Cy busts: Ana and Ben reach their goal together
        d.tap_code(card)
    d.wait_for(lambda: d.screen == "tiebreak", "the tiebreaker")
    assert d.label("tiebreak", "tb_message") == (
        "Cy busts at 25: everyone else advances. Tiebreaker: Ana, Ben."
    )
    for total in ("20", "20"):  # equal totals: the tiebreaker is played again
        for digit in total:
            d.tap_code(digit)
        d.tap_code("ok")
    assert d.app.session.state.tiebreak.totals == (None, None)
    assert d.label("tiebreak", "tb_message") == "Tie again: Ana, Ben play the tiebreaker again."
    for total in ("19", "17"):
        for digit in total:
            d.tap_code(digit)
        d.tap_code("ok")
    d.wait_for(lambda: d.screen == "over", "the game-over screen")
    assert d.label("over", "winner_label") == "Ana wins!"
