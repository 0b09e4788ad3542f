"""What the table says besides the total: an earlier button edge replacing the caller
(with the margin in ms), a Take 2 that would overfill a hand, the draw pile running out,
and a SORRY! window closed by its timer thread."""

from __future__ import annotations

import threading

from ui_helpers import setup_by_touch

from games.revenge.rules import Press


def test_an_earlier_edge_replaces_the_caller_and_the_margin_is_shown(driver):
    d = driver()
    setup_by_touch(d, ["Ana", "Ben", "Cy"], pawns=4, variant="standard")
    for card in ("10", "10", "1"):
        d.tap_code(card)
    d.tap(d.button(code="Ben"))  # Ben's touch: the first call the screen saw
    ben_t = d.app.session.state.window.caller_t
    # Ana's button edge was 12 ms earlier but is delivered late, on the GPIO thread.
    late = threading.Thread(target=d.app.session.submit, args=(Press("Ana", ben_t - 0.012),))
    late.start()
    late.join()
    d.wait_for(
        lambda: d.label("table", "window_title") == "Ana called SORRY! on Cy",
        "the earlier caller on screen",
    )
    assert d.label("table", "window_detail") == "Cy may block  ·  Ana pressed first, by 12 ms"


def test_take2_that_would_overfill_a_hand_warns(driver):
    d = driver()
    setup_by_touch(d, ["Ana", "Ben"], pawns=4, variant="standard")
    for card in ("take2", "0", "take2", "0"):
        d.tap_code(card)
    assert d.label("table", "alert_label") == ""
    d.tap_code("take2")  # Ana holds 7 already: 2 more would make 9
    assert d.label("table", "alert_label") == "Ana would hold 8 cards: take none."
    d.tap_code("0")
    assert d.label("table", "alert_label") == ""


def test_the_draw_pile_count_and_the_reshuffle_notice(driver):
    d = driver()
    setup_by_touch(d, ["Ana", "Ben"], pawns=4, variant="long")
    start = d.app.session.state.draw_pile
    assert d.label("table", "draw_label") == f"Draw pile: {start}"
    # A flip-back SORRY! with no one to flip back ends the round and sets the pile
    # aside with nobody advancing, so the game lasts until the draw pile runs out.
    cards = ("10", "sorry")
    for n in range(150):
        d.tap_code(cards[n % 2])
        if d.app.session.state.reshuffles:
            break
    assert d.app.session.state.reshuffles == 1
    assert d.label("table", "alert_label") == (
        "Shuffle the old piles now: they are the new draw pile."
    )
    assert d.label("table", "draw_label") == f"Draw pile: {d.app.session.state.draw_pile}"


def test_a_window_closed_by_its_timer_reaches_the_screen(driver):
    d = driver(steal_seconds=0.3)
    setup_by_touch(d, ["Ana", "Ben", "Cy"], pawns=4, variant="standard")
    for card in ("10", "10", "1"):
        d.tap_code(card)
    assert d.app.screen("table").window_shown
    d.wait_for(
        # the whole line: while the window is open it says "If no one calls, Cy keeps ..."
        lambda: d.label("table", "message_label") == "Cy keeps the round.",
        "the timer closing the steal window",
    )
    assert not d.app.screen("table").window_shown
    assert d.app.session.state.progress == (0, 0, 1)
