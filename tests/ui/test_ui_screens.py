"""Every screen at 800x480 in English and French, reached by touch: saved under
screenshots/ (the table screens also to docs/screenshots/ for the README), never blank,
and no text larger than the widget that holds it."""

from __future__ import annotations

import shutil

import pytest
from ui_helpers import REPO, image_size, pixel_spread, setup_by_touch

NAMES = ["Ana", "Ben", "Chloé", "Dominique"]
MIN_SPREAD = 12.0  # grey-level standard deviation; a blank frame is ~0


def bust_by(d, name: str) -> None:
    """Play until `name` goes over 21: others set 15 with a Slide, `name` then plays 10."""
    for _ in range(20):
        state = d.app.session.state
        if not state.running or (state.total == 0 and state.round > start_round):
            return
        if state.name(state.turn) == name and state.total >= 12:
            d.tap_code("10")
            return
        d.tap_code("0" if state.name(state.turn) == name else "slide:15")
    raise AssertionError(f"{name} never got to bust")


start_round = 0


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_screen_in_both_languages(driver, tmp_path, lang):
    global start_round
    data = tmp_path / "data"
    shots: dict[str, object] = {}

    def shot(d, name: str) -> None:
        bad = d.overflowing_labels()
        assert not bad, f"{name}: text larger than its widget: {bad}"
        path = d.screenshot(f"{name}-{lang}")
        assert image_size(path) == (800, 480)
        assert pixel_spread(path) > MIN_SPREAD, f"{name} looks blank"
        shots[name] = path

    d = driver(data, language=lang)
    shot(d, "start")
    start = d.app.screen("start")
    d.tap_id("start", "count_4")
    d.tap(start.ids.slot0.ids.name_button)
    for letter in "ANA":
        d.tap_code(letter)
    shot(d, "name")
    d.tap_id("name", "name_cancel")
    setup_by_touch(d, NAMES, pawns=2, variant="standard")
    d.tap_code("7")
    d.stop()

    # Started again on the same data: the unfinished game is offered.
    d = driver(data, language=lang)
    assert d.screen == "resume"
    shot(d, "resume")
    d.tap_id("resume", "resume_button")
    d.tap_code("5")
    shot(d, "table")
    d.tap_code("9")
    shot(d, "table-steal")
    d.tap(d.button(code="Ben"))
    shot(d, "table-block")
    d.tap_id("table", "window_close")  # Ben steals: Ben has a pawn card HOME
    d.tap_code("play2")
    shot(d, "table-play2")
    d.tap_id("table", "end_play2")
    d.tap_code("sorry")
    shot(d, "table-flip")
    d.tap_id("table", "flip_cancel")
    d.tap_id("table", "slide_other")
    shot(d, "table-slide")
    d.tap_id("table", "slide_back")

    for page, back in (
        ("menu", None),
        ("rules", "rules_back"),
        ("history", "history_back"),
        ("settings", "settings_back"),
    ):
        if page == "menu":
            d.tap_id("table", "menu_button")
        else:
            d.tap_id("menu", f"menu_{page}")
        assert d.screen == page
        shot(d, page)
        if back:
            d.tap_id(page, back)
            assert d.screen == "menu"
    d.tap_id("menu", "menu_back")
    assert d.screen == "table"

    # Ben busts (the others reach 1), then Ana busts: Ben, Chloé and Dominique tie.
    start_round = d.app.session.state.round
    bust_by(d, "Ben")
    start_round = d.app.session.state.round
    bust_by(d, "Ana")
    d.wait_for(lambda: d.screen == "tiebreak", "the tiebreaker")
    d.tap(d.button(code="1"))
    d.tap(d.button(code="8"))
    shot(d, "tiebreak")
    d.tap(d.button(code="ok"))
    for digits in ("20", "19"):
        for key in (*digits, "ok"):
            d.tap(d.button(code=key))
    d.wait_for(lambda: d.screen == "over", "the game-over screen")
    shot(d, "over")
    d.tap_id("over", "go_history")
    shot(d, "history-after")

    docs = REPO / "docs" / "screenshots"
    docs.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(shots["table"], docs / f"table-{lang}.png")
