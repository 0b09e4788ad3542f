"""Every screen at the five displays (800x480, 1024x600, 1280x720, 480x800, 720x1280) in
English and French, reached by touch on the real app, then resized live in place: no
text larger than its box, none under 14 px or cut with "…", nothing overlapping or
outside the window, no target under 48x48 px, and a picture that is not blank. Then
the same in large text (Settings > Text) at every display (issue 35: the least text
17.5 px, and nothing a family reads cut with "…").

The pictures go to screenshots/<W>x<H>/<screen>-<lang>.png (a scratch folder, ignored by
git); `make screenshots` copies them to docs/screenshots/ for the README.
"""

from __future__ import annotations

import pytest
from kivy.core.window import Window
from layout_helpers import (
    SIZES,
    picture,
    problems,
    resize,
    set_text_size,
    shot_path,
    size_id,
)
from ui_helpers import image_size, pixel_spread, setup_by_touch, to_board_setup

from games.board.screens.board_view import BoardView
from ui import menu_actions

NAMES = ["Ana", "Ben", "Chloé", "Dominique"]
MIN_SPREAD = 12.0  # grey-level standard deviation; a blank frame is ~0


def bust_by(d, name: str, start_round: int) -> None:
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


@pytest.fixture
def window_back():
    yield
    Window.size = (800, 480)


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_screen_at_every_display_in_both_languages(driver, tmp_path, window_back, lang,
                                                         monkeypatch):
    data = tmp_path / "data"
    found: list[str] = []
    seen: list[str] = []

    def check(d, name: str) -> None:
        """The screen now shown, at every display; back to 800x480 for the next taps."""
        for text_size, sizes in (("normal", SIZES), ("large", SIZES)):
            set_text_size(d, text_size)
            for size in sizes:
                resize(d, size)
                found.extend(f"{name} {size_id(size)} {text_size}: {p}"
                             for p in problems(d, (BoardView,)))
                path = picture(d, shot_path(size, name, lang, text_size), settled=True)
                assert image_size(path) == size
                assert pixel_spread(path) > MIN_SPREAD, f"{name} at {size_id(size)} looks blank"
        set_text_size(d, "normal")
        resize(d, SIZES[0])
        seen.append(name)

    d = driver(data, language=lang)
    check(d, "start")
    d.tap(d.button(code="game:board"))  # the other game: its own options, the same seats
    check(d, "start-board")
    d.tap(d.button(code="game:revenge"))
    start = d.app.screen("start")
    d.tap_id("start", "count_4")
    d.tap(start.ids.slot0.ids.name_button)
    for letter in "ANA":
        d.tap_code(letter)
    check(d, "name")
    d.tap_id("name", "name_cancel")
    setup_by_touch(d, NAMES, pawns=2, variant="standard")
    d.tap_code("7")
    d.stop()

    # Started again on the same data: the unfinished game is offered.
    d = driver(data, language=lang)
    assert d.screen == "resume"
    check(d, "resume")
    d.tap_id("resume", "resume_button")
    d.tap_code("5")
    check(d, "table")
    d.tap_code("9")
    check(d, "table-steal")
    d.tap(d.button(code="Ben"))
    check(d, "table-block")
    d.tap_id("table", "window_close")  # Ben steals: Ben has a pawn card HOME
    d.tap_code("play2")
    check(d, "table-play2")
    d.tap_id("table", "end_play2")
    d.tap_code("sorry")
    check(d, "table-flip")
    d.tap_id("table", "flip_cancel")
    d.tap_id("table", "slide_other")
    check(d, "table-slide")
    d.tap_id("table", "slide_back")

    for page, back in (
        ("menu", None),
        ("rules", "rules_back"),
        ("history", "history_back"),
        ("settings", "settings_back"),
        ("hardware", "hardware_back"),
    ):
        if page == "menu":
            d.tap_id("table", "menu_button")
        else:
            d.tap_id("menu", f"menu_{page}")
        assert d.screen == page
        check(d, page)
        if back:
            d.tap_id(page, back)
            assert d.screen == "menu"
    d.tap_id("menu", "menu_camera")  # Menu > Teach the camera, before a deck is chosen
    assert d.screen == "camera_teach"
    check(d, "camera-teach")
    # the second photo's prompt, the longest (set as a chosen deck would, with no camera)
    teach = d.app.screen("camera_teach")
    teach.game, teach.faces, teach.index, teach.shot = "board", ["sorry"], 0, 1
    teach._say_prompt()
    check(d, "camera-teach-second-photo")
    teach.game, teach.faces, teach.prompt = "", [], ""
    d.tap_id("camera_teach", "teach_back")
    assert d.screen == "menu"
    # Menu > Back up with no stick, and Menu > Turn off's question (as on a Pi).
    monkeypatch.setattr(menu_actions, "usb_stick", lambda _folders: None)
    d.tap_id("menu", "menu_backup")
    assert d.app.screen("menu").note
    check(d, "menu-backup")
    monkeypatch.setattr(menu_actions, "on_raspberry_pi", lambda: True)
    d.tap_id("menu", "menu_power")
    check(d, "menu-turn-off")
    d.tap(d.button(code="confirm_keep"))
    d.tap_id("menu", "menu_back")
    assert d.screen == "table"

    # Ben busts (the others reach 1), then Ana busts: Ben, Chloé and Dominique tie.
    bust_by(d, "Ben", d.app.session.state.round)
    bust_by(d, "Ana", d.app.session.state.round)
    d.wait_for(lambda: d.screen == "tiebreak", "the tiebreaker")
    d.tap(d.button(code="1"))
    d.tap(d.button(code="8"))
    check(d, "tiebreak")
    d.tap(d.button(code="ok"))
    for digits in ("20", "19"):
        for key in (*digits, "ok"):
            d.tap(d.button(code=key))
    d.wait_for(lambda: d.screen == "over", "the game-over screen")
    check(d, "over")
    d.tap_id("over", "go_history")
    check(d, "history-after")

    # The board game with the same players: its setup, board, menu and rules.
    d.tap_id("history", "history_back")
    d.tap_id("over", "go_new")
    to_board_setup(d)
    assert d.screen == "board_setup", d.app.screen("start").message
    check(d, "board-setup")
    d.tap_id("board_setup", "board_start")
    assert d.screen == "board"
    check(d, "board")
    d.tap_id("board", "board_menu_button")
    check(d, "board-menu")
    d.tap_id("board_menu", "board_menu_rules")
    check(d, "board-rules")

    assert len(seen) == 26
    assert not found, "\n".join(found)
