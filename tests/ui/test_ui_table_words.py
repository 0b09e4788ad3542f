"""The card table's words at a real table (issue 35.7), by touch on the real app:

- a block taken back is said as a block ("Undo: Cy blocked with Don't Be SORRY!"), not
  as "Undo: Cy pressed SORRY!";
- the message line does not repeat the SORRY! window's title ("Cy reached 21!");
- a Switch refused during a Play 2 is named in French too.
"""

from __future__ import annotations

import pytest
from kivy.core.window import Window
from window_helpers import journal_events, start, table


def test_a_block_is_undone_as_a_block_and_the_message_does_not_repeat_the_window(driver):
    d = start(driver)
    for card in ("10", "10", "1"):  # Cy reaches 21: the steal window
        d.tap_code(card)
    ids = table(d).ids
    assert "Cy reached 21" in ids.window_title.text
    assert "reached 21" not in ids.message_label.text, ids.message_label.text
    d.tap(d.button(code="Ana"))  # Ana calls SORRY!: Cy may block
    assert ids.undo_button.text == "Undo: Ana pressed SORRY!"
    d.tap(d.button(code="Cy"))  # Cy blocks
    assert ids.undo_button.text == "Undo: Cy blocked with Don't Be SORRY!"
    d.tap_id("table", "undo_button")
    assert d.app.session.state.awaiting.value == "block"
    assert ids.redo_button.text == "Redo: Cy blocked with Don't Be SORRY!"


def test_a_switch_refused_during_a_play_2_is_named_in_french(driver):
    d = start(driver, language="fr")
    d.tap_code("play2")  # Ana owes two number cards
    d.tap_code("switch")
    message = table(d).ids.message_label.text
    assert "Changement de direction" in message, message
    assert journal_events(d) == ["play2"]  # refused: nothing logged


def test_the_line_under_the_window_says_what_its_countdown_leads_to(driver):
    """At 800x480 the message line under the SORRY! window was a 50 px empty band (with
    the alert line): while nothing was said, it says what an unanswered window does."""
    d = start(driver)
    for card in ("10", "10", "1"):  # Cy reaches 21: the steal window
        d.tap_code(card)
    ids = table(d).ids
    assert ids.message_label.text == "If no one calls, Cy keeps the round."
    d.tap(d.button(code="Ana"))  # Ana calls SORRY!: Cy may block
    assert ids.message_label.text == "If Cy does not block, Ana steals the round."
    d.app.set_language("fr")
    assert ids.message_label.text == "Si Cy ne contre pas, Ana vole la manche."
    d.tap(d.button(code="Cy"))  # Cy blocks: the window closes, the line says what happened
    assert ids.message_label.text == "Cy a contré le vol. Cy garde la manche."
    d.tap_code("sorry")  # Ana's SORRY! card on Cy, whose pawn card is HOME: Cy may block
    d.tap(d.button(code="Cy"))
    assert ids.message_label.text == "Si Cy ne contre pas, Cy recule d'une carte pion."


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_key_of_the_card_pad_reads_whole_at_800x480(driver, lang):
    """The key that opens the other slides read "Autre…" (French) and "Slide…", as if cut."""
    d = start(driver, language=lang)
    assert tuple(Window.size) == (800, 480)
    keys = [b for b in d.buttons() if b.code and not b.code.startswith("opt")]
    cut = [b.text for b in keys if b.text.rstrip().endswith(("…", "..."))]
    assert not cut, cut
    assert not d.overflowing_labels(), d.overflowing_labels()
    d.tap_id("table", "slide_other")  # the key still opens the other slides
    assert table(d).ids.pad_manager.current == "slide"
