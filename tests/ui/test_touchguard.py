"""The touch guard (ui/touchguard.py): its rule on a manual clock, then on the real app:
which changes tell it, and what a guarded TapButton does with a touch it refuses."""

from __future__ import annotations

from typing import Any

from kivy.core.window import Window
from kivy.tests.common import UnitTestTouch

from ui.touchguard import BOUNCE_SECONDS, GUARD_SECONDS, TouchGuard
from ui.widgets import ChoiceGrid, GuardedView, TapButton


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class Touch:
    def __init__(self, x: float = 10, y: float = 10) -> None:
        self.ud: dict[str, Any] = {}
        self.x, self.y = x, y


PAD = (0.0, 0.0, 400.0, 480.0)  # tappable before the change: the pad, left half
COLUMN = (600.0, 240.0)  # the players' column, right half: nothing tappable there


def test_a_touch_where_nothing_tappable_stood_is_taken_at_once():
    """The SORRY! panel appears over the players' column: a finger there cannot have
    aimed at anything else, so its call counts at once; on the pad, whose keys stood
    there before, the guard keeps its 350 ms."""
    clock = Clock()
    stood = [PAD]
    guard = TouchGuard(clock, targets=lambda: stood)
    guard.changed()
    stood = [PAD, (400.0, 0.0, 400.0, 480.0)]  # the panel's buttons, after the change
    for after in (0.0, 0.03, 0.1, 0.3):  # ten quick taps in 0.3 s: the first is a call
        clock.now = 100.0 + after
        assert not guard.blocks(Touch(*COLUMN)), after
        assert guard.blocks(Touch(200, 240)), after  # a pad key: it replaced a pad key
    clock.now = 100.35
    assert not guard.blocks(Touch(200, 240))
    # a second change 0.2 s later, in a later frame: the panel's buttons now stood too
    clock.now = 100.5
    guard.frame = lambda: 1
    guard.changed()
    clock.now = 100.6
    assert guard.blocks(Touch(*COLUMN)) and guard.blocks(Touch(200, 240))


def test_changes_within_one_frame_keep_what_stood_before_the_first():
    """The panel is added and its buttons rebuilt in one frame: nobody saw the state in
    between, so what stood before the first change decides."""
    clock = Clock()
    stood = [PAD]
    guard = TouchGuard(clock, targets=lambda: stood)
    guard.changed()
    stood = [PAD, (400.0, 0.0, 400.0, 480.0)]
    clock.now = 100.01
    guard.changed()  # same frame: the snapshot stays the first one
    clock.now = 100.1
    assert not guard.blocks(Touch(*COLUMN))


def test_without_a_picture_of_the_screen_the_guard_covers_everywhere():
    guard = TouchGuard(Clock())
    guard.changed()
    assert guard.blocks(Touch(*COLUMN))


def test_the_same_key_again_within_250_ms_is_a_bounce():
    clock = Clock()
    guard = TouchGuard(clock)
    five, four = object(), object()
    first = Touch()
    assert not guard.bounces(first, five)
    guard.tapped(first, five)
    for gap, bounce in ((0.03, True), (0.1, True), (0.24, True), (BOUNCE_SECONDS, False),
                        (0.4, False)):
        clock.now = 100.0 + gap
        assert guard.bounces(Touch(), five) is bounce, gap
    clock.now = 100.1
    assert not guard.bounces(Touch(), four)  # another key: a tap of its own
    # another touch in between makes it a tap again
    guard.tapped(Touch(), five)
    guard.down_time(Touch())  # a finger elsewhere
    clock.now = 100.2
    assert not guard.bounces(Touch(), five)


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
    d.clock.advance(5)
    grid.choices = [{"text": "B", "code": "b"}]  # built in the background, off the window:
    d.frames(1)  # nothing changed under a finger
    assert app_guard.changed_at < d.clock()
    Window.add_widget(grid)
    try:
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
    finally:
        Window.remove_widget(grid)


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
