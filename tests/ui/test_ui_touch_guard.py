"""Touches act on what the finger saw (issue 13), on the real app by touch, with the real
SQLite journal: a double tap (the second 0.15 s later at the same place, on whatever is
there now) or a late tap (0.1 s after something changed under the finger) on every
button that can appear under a finger logs nothing the scorekeeper did not see as a
button: the journal holds exactly the intended events.

Where nothing tappable stood before (the players' column under the SORRY! window panel)
a touch counts at once; the same key again within 0.25 s is a bounce (issue 20).

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
    assert journal_events(d) == ["10", "1", "10"]
    assert d.app.session.state.awaiting.value == "steal"


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
    # "No block", 0.1 s after it appeared where nothing tappable stood: it counts at
    # once; the same finger again 0.15 s later logs nothing more
    close = table(d).ids.window_close
    x, y = close.to_window(*close.center)
    d.tap_at(x, y, after=0.1)
    d.tap_at(x, y, after=0.15)
    assert d.app.session.state.awaiting is None
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


def test_a_sorry_call_by_touch_counts_as_fast_as_the_fastest_finger(driver):
    """The panel covers the players' column, where nothing was tappable: the first of ten
    quick taps in 0.3 s on Ana's name is the call; the rest land on the block window's
    buttons, which replaced the call buttons, and do nothing."""
    d = start(driver)
    for card in ("10", "10"):
        d.tap_code(card)
    d.tap_code("1")  # 21: the steal window opens over the players' column
    x, y = d.button(code="Ana").to_window(*d.button(code="Ana").center)
    d.tap_at(x, y, after=0.0)  # the same instant the panel appeared
    for _ in range(9):
        d.tap_at(x, y, after=0.03)
    assert journal_events(d) == ["10", "10", "1", "press Ana"]
    assert d.app.session.state.awaiting.value == "block"


def test_an_honest_call_at_0_30_s_counts(driver):
    d = start(driver)
    for card in ("10", "10", "1"):
        d.tap_code(card)
    d.tap(d.button(code="Ben"), after=0.30)
    assert journal_events(d) == ["10", "10", "1", "press Ben"]


def test_a_pad_key_bounce_is_one_card_and_a_second_tap_after_is_two(driver):
    """A bounce (the same key again within 0.25 s, nothing else between) logs one card; a
    deliberate second tap 0.3 s later logs a second; another key between is its own."""
    d = start(driver)
    for code in ("take2", "5", "4"):
        d.double_tap(d.button(code=code), gap=0.1)
    assert journal_events(d) == ["take2", "5", "4"]
    d.tap_code("2")
    d.tap(d.button(code="2"), after=0.3)  # deliberate: a second 2
    assert journal_events(d) == ["take2", "5", "4", "2", "2"]
