"""The first minutes at the table: set up a game by touch and log the first card."""

from __future__ import annotations


def test_first_card_shows_the_total(driver):
    d = driver()
    assert d.screen == "start"
    start = d.app.screen("start")
    d.tap(start.ids.slot0.ids.name_button)
    assert d.screen == "name"
    for key in "ANA":
        d.tap_code(key)
    d.tap_id("name", "name_ok")
    d.tap(start.ids.slot1.ids.name_button)
    for key in "BEN":
        d.tap_code(key)
    d.tap_id("name", "name_ok")
    assert start.names[:2] == ["Ana", "Ben"]
    d.tap_id("start", "start_button")
    assert d.screen == "table"
    d.tap_code("7")
    assert d.label("table", "total_label") == "7"
    assert d.app.session.state.total == 7
