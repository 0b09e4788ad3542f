"""Adding a game is one package per layer plus one registry entry: tests/conftest.py's
`count_game` (rules), its face (hardware.faces) and tests/ui/count_slice.py (ui.games) are
registered for the test, and the real app plays it offscreen with no change of its own:
started, tapped, a laptop key as a seat's button, history's leaderboard, resumed."""

from __future__ import annotations

import pytest
from kivy.core.window import Window
from ui_helpers import type_name

from companion.session import Session
from ui import games


@pytest.fixture
def count_slice(count_face, register_count):
    """count_game with its face and its ui slice registered, for one test."""
    register_count(screens="count_slice")
    return games.get("count")


def shown(d, wid: str) -> str:
    return d.label("count", wid)


def test_a_third_game_reaches_the_screen_through_the_registries(driver, count_slice, tmp_path):
    d = driver()
    # the first screen offers it beside the other two, with its own options form
    assert [b.text for b in reversed(d.app.screen("start").ids.game_tabs.children)] == [
        "Sorry! Revenge (cards)", "Sorry! board game", "Count to 10"]
    d.tap(d.button(code="game:count"))
    assert [w.text for w in d.app.screen("start").ids.game_options.walk(restrict=True)
            if hasattr(w, "text")] == ["First to 10 wins"]
    for i, name in enumerate(["Ana", "Ben"]):
        type_name(d, f"slot{i}", name)
    d.tap_id("start", "start_button")
    d.wait_for(lambda: d.screen == "count", "the count game's own screen")
    d.frames(3)  # laid out
    assert shown(d, "count_label") == "0" and shown(d, "turn_label") == "Ana adds"

    d.tap(d.button(code="add:2"))
    d.wait_for(lambda: shown(d, "count_label") == "2", "Ana's +2 on the screen")
    assert shown(d, "turn_label") == "Ben adds"

    Window.dispatch("on_key_down", 49, 0, "1", [])  # seat 1's key: not Ana's turn
    d.wait_for(lambda: "Ben's turn" in shown(d, "count_message"), "the face's refusal")
    Window.dispatch("on_key_down", 50, 0, "2", [])  # Ben's seat button adds 1 (the face)
    d.wait_for(lambda: shown(d, "count_label") == "3", "Ben's key on the screen")

    for _ in range(4):  # 5, 7, 9, 11: Ana's fourth +2 wins
        d.tap(d.button(code="add:2"))
    d.wait_for(lambda: shown(d, "turn_label") == "Ben won", "the end of the game")
    assert d.app.session.update.summary.winner == "Ben"
    assert d.app.session.update.game == "count"

    d.app.show("history")  # the count game's own leaderboard rows, from its slice
    d.frames(2)
    cells = [w.text for w in d.app.screen("history").ids.leaders_grid.children]
    assert "Count" in cells and "added" in cells
    assert "Ben" in cells and "Ana" in cells


def test_an_unfinished_third_game_is_described_and_resumed(driver, count_slice, tmp_path):
    data = tmp_path / "data"
    d = driver(data)
    d.app.start_game(Session.setup({"type": "setup", "game": "count",
                                    "players": ["Cy", "Di"]}))
    d.wait_for(lambda: d.screen == "count", "the count game's screen")
    d.frames(3)
    d.tap(d.button(code="add:1"))
    d.wait_for(lambda: shown(d, "count_label") == "1", "Cy's +1")
    d.stop()

    again = driver(data)
    again.wait_for(lambda: again.screen == "resume", "the resume screen")
    assert again.app.screen("resume").description.startswith("Cy, Di count to 10: at 1")
    again.tap(again.app.screen("resume").ids.resume_button)
    again.wait_for(lambda: again.screen == "count", "the resumed count game")
    again.frames(3)
    assert again.label("count", "count_label") == "1"
    assert again.label("count", "turn_label") == "Di adds"
