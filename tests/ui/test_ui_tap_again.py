"""Two quick taps on the same card key (issue 35.6): the second, within the bounce time, is
taken as the finger's bounce and logs nothing, and now the table says so ("10 again? Tap
once more") instead of leaving the total 10 short with no word. The next tap logs it
and the words go. By touch on the real app at 800x480, in English and in French.
"""

from __future__ import annotations

import pytest
from layout_helpers import SCRATCH, picture
from window_helpers import journal_events, start, table


@pytest.mark.parametrize(("lang", "words"), [("en", "10 again? Tap once more."),
                                             ("fr", "10 encore ? Touchez une fois de plus.")])
def test_a_second_ten_within_the_bounce_time_is_said_and_the_next_tap_logs_it(
    driver, lang, words
):
    d = start(driver, language=lang)
    d.double_tap(d.button(code="10"), gap=0.15)
    assert journal_events(d) == ["10"]
    assert d.app.session.state.total == 10
    assert table(d).ids.alert_label.text == words
    picture(d, SCRATCH / "800x480" / f"table-tap-again-{lang}.png")
    d.tap_code("10")  # once more, as the table asks
    assert journal_events(d) == ["10", "10"]
    assert d.app.session.state.total == 20
    assert table(d).ids.alert_label.text == ""
