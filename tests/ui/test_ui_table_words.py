"""The card table's words at a real table (issue 35.7), by touch on the real app:

- a block taken back is said as a block ("Undo: Cy blocked with Don't Be SORRY!"), not
  as "Undo: Cy pressed SORRY!";
- the message line does not repeat the SORRY! window's title ("Cy reached 21!");
- a Switch refused during a Play 2 is named in French too.
"""

from __future__ import annotations

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
