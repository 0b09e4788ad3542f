"""The touch guard (ui/touchguard.py): its rule on a manual clock, then on the real app:
which changes tell it, and what a guarded TapButton does with a touch it refuses."""

from __future__ import annotations

from typing import Any

from kivy.core.window import Window
from kivy.tests.common import UnitTestTouch

from ui.touchguard import GUARD_SECONDS, TouchGuard
from ui.widgets import ChoiceGrid, GuardedView, TapButton


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class Touch:
    def __init__(self) -> None:
        self.ud: dict[str, Any] = {}


def test_the_rule_before_within_and_after_the_guard_time():
    clock = Clock()
    guard = TouchGuard(clock)
    assert GUARD_SECONDS == 0.35
    early = Touch()
    guard.down_time(early)  # down at 100.0
    assert not guard.blocks(Touch())  # no change yet: every touch counts
    clock.now = 100.5
    guard.changed()
    assert guard.blocks(early) and guard.began_before_change(early)  # down, then a change
    for after, blocked in ((0.0, True), (0.15, True), (0.34, True), (0.35, False),
                           (1.0, False)):
        clock.now = 100.5 + after
        touch = Touch()
        assert guard.blocks(touch) is blocked, after
        assert not guard.began_before_change(touch)
    touch = Touch()
    assert not guard.blocks(touch)  # down at 101.5...
    clock.now = 102.0
    guard.changed()
    assert guard.blocks(touch)  # ...and a change before it is lifted
    guard.reset()
    assert not guard.blocks(touch) and not guard.blocks(Touch())


def test_the_down_time_is_the_guard_clocks_first_sight_of_the_touch():
    clock = Clock()
    guard = TouchGuard(clock)
    touch = Touch()
    assert guard.down_time(touch) == 100.0
    clock.now = 105.0
    assert guard.down_time(touch) == 100.0


def test_screen_switches_popups_and_choice_grids_tell_the_guard(driver):
    d = driver()
    view, grid = GuardedView(), ChoiceGrid()
    app_guard = d.app.guard
    for what, change in (
        ("a screen switch", lambda: d.app.show("rules")),
        ("a popup opening", lambda: view.open(animation=False)),
        ("a popup closing", lambda: view.dismiss(animation=False)),
        ("a choice grid rebuilt", lambda: setattr(grid, "choices", [{"text": "A",
                                                                     "code": "a"}])),
    ):
        d.clock.advance(5)
        assert app_guard.changed_at < d.clock(), what
        change()
        d.frames(1)
        assert app_guard.changed_at == d.clock(), what


def test_a_refused_touch_neither_presses_nor_releases_the_button(driver):
    d = driver()
    app_guard = d.app.guard
    button = TapButton(text="X", size_hint=(None, None), size=(200, 100), pos=(0, 0))
    released: list[str] = []
    button.bind(on_release=lambda _b: released.append("release"))
    Window.add_widget(button)
    try:
        d.frames(1)
        d.clock.advance(5)
        app_guard.changed()
        d.tap_at(100, 50, after=0.2)  # 0.2 s after a change: swallowed
        assert released == [] and button.state == "normal"
        touch = UnitTestTouch(100, 50)
        d.clock.advance(1.0)
        touch.touch_down()  # a finger down in good time...
        assert button.state == "down"
        app_guard.changed()  # ...then the layer changes under it (a window timer)
        touch.touch_up()
        d.frames(1)
        assert released == [] and button.state == "normal"
        d.tap_at(100, 50)  # a human second later: the button works
        assert released == ["release"]
    finally:
        Window.remove_widget(button)
