"""Touches act on what the finger saw (issue 13), on the real app by touch, with the real
SQLite journal: a double tap (the second 0.15 s later at the same place, on whatever is
there now) or a late tap (0.1 s after something changed under the finger) on every
button that can appear under a finger logs nothing the scorekeeper did not see as a
button: the journal holds exactly the intended events.

The touch guard's clock is the Driver's manual clock (tests/ui/ui_helpers.py): a plain
`tap` comes a human second after the last one, so it always goes through.
"""

from __future__ import annotations

from window_helpers import journal_events, start, table


def test_a_double_tap_on_10_that_makes_21_logs_one_10(driver):
    d = start(driver)
    d.tap_code("10")
    d.tap_code("1")  # total 11, Cy's turn
    d.double_tap(d.button(code="10"))  # the pad stays: the second tap lands on "10" again
    assert table(d).window_shown and d.label("table", "total_label") == "21"
    # a finger that aimed at the players' column lands on a SORRY! button 0.1 s after
    # it appeared
    d.tap(d.button(code="Ana"), after=0.1)
    assert journal_events(d) == ["10", "1", "10"]
    assert d.app.session.state.awaiting.value == "steal"
    d.tap(d.button(code="Ana"))  # at a human pace the button works
    assert journal_events(d) == ["10", "1", "10", "press Ana"]


def test_a_double_tap_on_slide_21_logs_one_slide(driver):
    d = start(driver)
    d.tap_code("5")
    d.double_tap(d.button(code="slide:21"))
    assert table(d).window_shown and d.label("table", "total_label") == "21"
    assert journal_events(d) == ["5", "slide:21"]


def test_a_double_tap_on_a_sorry_button_never_blocks_for_the_victim(driver):
    d = start(driver)
    for card in ("10", "10", "1"):
        d.tap_code(card)
    ana = d.button(code="Ana")  # left of Ben's; Cy's block button takes the whole row next
    x, y = d.double_tap(ana)
    assert d.app.session.state.awaiting.value == "block"
    cy = d.button(code="Cy")
    assert cy.collide_point(*cy.to_widget(x, y)), "the second tap must land on Cy's button"
    assert journal_events(d) == ["10", "10", "1", "press Ana"]


def test_a_double_tap_on_no_one_calls_closes_once_and_logs_no_take2(driver):
    d = start(driver)
    for card in ("10", "10", "1"):
        d.tap_code(card)
    d.double_tap(table(d).ids.window_close)
    assert not table(d).window_shown
    assert journal_events(d) == ["10", "10", "1", "close"]
    assert d.app.session.state.progress == (0, 0, 1)


def test_late_and_double_taps_in_a_block_window_log_one_no_block(driver):
    d = start(driver)
    for card in ("10", "10", "1"):
        d.tap_code(card)
    d.tap(d.button(code="Ana"))
    d.tap(d.button(code="Cy"), after=0.1)  # Cy's block button, 0.1 s after it appeared
    assert d.app.session.state.awaiting.value == "block"
    d.double_tap(table(d).ids.window_close)  # "No block", and again 0.15 s later
    assert not table(d).window_shown
    assert journal_events(d) == ["10", "10", "1", "press Ana", "close"]
    assert d.app.session.state.progress == (1, 0, 0)  # Ana stole the round


def test_double_taps_through_a_flip_back_log_one_sorry_and_one_close(driver):
    d = start(driver)
    for card in ("10", "10", "1"):
        d.tap_code(card)
    d.tap_id("table", "window_close")  # Cy keeps the round: Cy has a pawn to flip back
    d.double_tap(d.button(code="sorry"))  # the flip-back targets replace the pad
    assert table(d).ids.pad_manager.current == "flip"
    d.double_tap(d.button(code="Cy"))  # the block window's panel appears
    d.tap(table(d).ids.window_close, after=0.1)  # "No block" 0.1 s after it appeared
    assert d.app.session.state.awaiting.value == "block"
    d.double_tap(table(d).ids.window_close)
    assert journal_events(d) == ["10", "10", "1", "close", "sorry on Cy", "close"]
    assert d.app.session.state.progress == (0, 0, 0)


def test_a_tap_just_after_the_timer_closed_the_window_does_nothing(driver):
    d = start(driver, steal_seconds=0.3)
    for card in ("10", "10", "1"):
        d.tap_code(card)
    close = table(d).ids.window_close
    x, y = close.to_window(*close.center)
    d.wait_for(lambda: not table(d).window_shown, "the timer closing the steal window")
    d.tap_at(x, y, after=0.1)  # the finger meant "No one calls"
    d.tap(d.button(code="take2"), after=0.1)  # or anything else
    assert journal_events(d) == ["10", "10", "1", "close"]
    d.tap_code("take2")  # a human second later the pad works
    assert journal_events(d) == ["10", "10", "1", "close", "take2"]
