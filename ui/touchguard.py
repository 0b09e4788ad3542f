"""Touches act on what the finger saw.

A finger aims at what is on the screen when it starts to move, a few hundred
milliseconds before it lands: a double tap on "10" that makes 21, or a tap just as the
window timer closes a SORRY! window, lands on whatever replaced the button it aimed at
and would log a call, a close or a Take 2 that nobody saw as a button. So every layer
change (a screen switch of a GuardedScreenManager, a GuardedView opening or closing, a
ChoiceGrid rebuilt, the SORRY! window panel shown or hidden) calls `guard.changed()`,
and a touch that began before the last change, or within GUARD_SECONDS after it, does
nothing: TapButton asks `guard.blocks(touch)` on the way down and again on the way up.

The guard is the app's (`CompanionApp.guard`, made with the app); widgets find it with
`app_guard()`. Nothing of Kivy's is patched: a screen manager or a popup tells the guard
because it is one of the guarded classes of ui.widgets.

`guard.clock` is the one clock for both the changes and the touch-down times (the
tests put a manual clock there, so a "double tap 0.15 s later" is exact); a touch's
down time is read from it when the touch reaches the window (or the first guarded
widget), never from Kivy's `touch.time_start`, which is wall-clock time.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any

GUARD_SECONDS = 0.35
_DOWN_KEY = "touchguard.down"


class TouchGuard:
    """One guard for the whole app: changes anywhere block touches everywhere, since
    a finger in the air cannot know which part of the screen is about to change."""

    def __init__(self, clock: Callable[[], float] = time.monotonic,
                 seconds: float = GUARD_SECONDS) -> None:
        self.clock = clock
        self.seconds = seconds
        self.changed_at = -math.inf
        self._watched: list[Any] = []

    def changed(self, *_: Any) -> None:
        """What is under the finger was replaced (any arguments, so it can be bound)."""
        self.changed_at = self.clock()

    def reset(self) -> None:
        """Forget the last change (a new app in the same process: the tests)."""
        self.changed_at = -math.inf

    def down_time(self, touch: Any) -> float:
        """When `touch` came down, on `clock`: stamped the first time it is seen."""
        ud = touch.ud
        down = ud.get(_DOWN_KEY)
        if down is None:
            down = ud[_DOWN_KEY] = self.clock()
        return float(down)

    def blocks(self, touch: Any) -> bool:
        """True for a touch that began before the last change or within `seconds` after
        it: the finger aimed at what was there before."""
        return self.down_time(touch) < self.changed_at + self.seconds

    def began_before_change(self, touch: Any) -> bool:
        """True for a touch already down when the last change happened."""
        return self.down_time(touch) < self.changed_at

    # --- stamping touches as they arrive ---

    def watch(self, window: Any) -> None:
        """Stamp every touch when it reaches `window`, before any widget sees it (a
        ScrollView hands touches to its children only after a short delay)."""
        if window not in self._watched:
            window.fbind("on_touch_down", self._stamp)
            self._watched.append(window)

    def unwatch(self, window: Any) -> None:
        if window in self._watched:
            window.funbind("on_touch_down", self._stamp)
            self._watched.remove(window)

    def _stamp(self, _window: Any, touch: Any) -> bool:
        self.down_time(touch)
        return False  # only noted: the touch goes on to the widgets


_SPARE = TouchGuard()  # for a widget shown outside the app (a lone widget in a test)


def app_guard() -> TouchGuard:
    """The running app's touch guard; a guard of its own for a widget outside the app."""
    from kivy.app import App

    guard = getattr(App.get_running_app(), "guard", None)
    return guard if isinstance(guard, TouchGuard) else _SPARE
