"""The screen rests when nobody uses it: dim after a few idle minutes, dark later.

`[display] dim_after` and `sleep_after` (minutes, 0: never) start from the last touch,
key or button. While the screen is dim or dark, the next touch, key or SORRY! button only
wakes it: that touch never reaches a button (a finger feeling for a dark screen must not
log a card), its move and lift are swallowed too, and a button press is not passed to
the game. The screen never dims while a SORRY! window is open (the table is waiting for
a press that must count).

Dimming uses the display's backlight where the app may set it (ui/backlight.py), else a
black layer over everything. GPIO presses arrive on the GPIO thread: `press_wakes` is
safe there and hands the drawing to the Kivy thread.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any, Protocol

from kivy.clock import Clock
from kivy.graphics import Color, Rectangle
from kivy.uix.widget import Widget

from ui.backlight import Backlight, find_backlight

AWAKE, DIM, ASLEEP = "awake", "dim", "asleep"
TICK_S = 5.0  # how often the idle time is looked at
DIM_ALPHA = 0.5  # the black layer's opacity when dim (asleep: 1): half as bright, readable
# the least time the screen stays dim before it goes dark, whatever the configured minutes
# and however late a look at the idle time comes: a dim screen is a warning a family must
# get to see (a look that found it past both times took it straight to black)
MIN_DIM_S = 120.0
_WOKE = "idle.woke"  # touch.ud mark: this touch only woke the screen


class Shade(Protocol):
    def show(self, state: str) -> None: ...


class OverlayShade:
    """A black layer over the whole window (and over any open view)."""

    def __init__(self, window: Any) -> None:
        self.window = window
        self.layer = Widget()
        with self.layer.canvas:
            self.color = Color(0, 0, 0, DIM_ALPHA)
            self.rect = Rectangle(pos=(0, 0), size=window.size)

    def show(self, state: str) -> None:
        if self.layer.parent is not None:
            self.window.remove_widget(self.layer)
        if state != AWAKE:
            self.color.a = DIM_ALPHA if state == DIM else 1.0
            self.rect.size = self.window.size
            self.window.add_widget(self.layer)  # added last: drawn over everything


class BacklightShade:
    """The backlight turned down; the black layer if the system refuses a write."""

    def __init__(self, backlight: Backlight, fallback: Shade) -> None:
        self.backlight = backlight
        self.fallback: Shade | None = None
        self._fallback = fallback

    def show(self, state: str) -> None:
        if self.fallback is not None:
            self.fallback.show(state)
            return
        level = {AWAKE: self.backlight.awake, DIM: self.backlight.dim_level(), ASLEEP: 0}
        try:
            self.backlight.set(level[state])
        except OSError:
            self.fallback = self._fallback
            self.fallback.show(state)


class ScreenRest:
    """Dims and sleeps the screen after idle time; wakes it on the next use."""

    def __init__(self, shade: Shade, *, dim_after_s: float, sleep_after_s: float,
                 busy: Callable[[], bool] = lambda: False,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.shade = shade
        self.dim_after_s, self.sleep_after_s = dim_after_s, sleep_after_s
        self.busy, self.clock = busy, clock
        self.state = AWAKE
        self.last_use = clock()
        self.dimmed_at = self.last_use  # when the screen last dimmed
        self._lock = threading.Lock()
        self._ticks: Any = None
        self._window: Any = None

    @property
    def enabled(self) -> bool:
        return bool(self.dim_after_s or self.sleep_after_s)

    def tick(self, *_: Any) -> None:
        """Look at the idle time: dim or sleep when it is time (Kivy thread)."""
        now = self.clock()
        if self.busy():
            self.last_use = now
            return
        idle = now - self.last_use
        if self.sleep_after_s and idle >= self.sleep_after_s:
            target = ASLEEP
        elif self.dim_after_s and idle >= self.dim_after_s:
            target = DIM
        else:
            return
        with self._lock:
            if target == ASLEEP and self.dim_after_s and self.state != ASLEEP and (
                    self.state != DIM or now - self.dimmed_at < MIN_DIM_S):
                target = DIM  # dim first, for MIN_DIM_S at least
            if target == self.state or (self.state == ASLEEP and target == DIM):
                return
            self.state = target
            if target == DIM:
                self.dimmed_at = now
        self.shade.show(target)

    def use(self) -> bool:
        """Someone used the table now. True when the screen was resting: this use only
        woke it and must do nothing else. Safe on any thread."""
        with self._lock:
            self.last_use = self.clock()
            woke, self.state = self.state != AWAKE, AWAKE
        if woke:
            if threading.current_thread() is threading.main_thread():
                self.shade.show(AWAKE)
            else:
                Clock.schedule_once(lambda _dt: self._show_if_awake(), -1)
        return woke

    def _show_if_awake(self) -> None:
        if self.state == AWAKE:
            self.shade.show(AWAKE)

    press_wakes = use  # a GPIO button press (hardware.presses.PressRouter's `wakes`)

    # --- the window's touches and keys ---

    def watch(self, window: Any) -> None:
        """Look at every touch and key before any widget does; tick while running."""
        self._window = window
        window.fbind("on_touch_down", self._down)
        window.fbind("on_touch_move", self._swallowed)
        window.fbind("on_touch_up", self._swallowed)
        window.fbind("on_key_down", self._key)
        if self.enabled:
            self._ticks = Clock.schedule_interval(self.tick, TICK_S)

    def close(self) -> None:
        """Stop, and leave the screen awake (the backlight as it was found)."""
        if self._ticks is not None:
            self._ticks.cancel()
        window, self._window = self._window, None
        if window is not None:
            window.funbind("on_touch_down", self._down)
            window.funbind("on_touch_move", self._swallowed)
            window.funbind("on_touch_up", self._swallowed)
            window.funbind("on_key_down", self._key)
        if self.state != AWAKE:
            self.state = AWAKE
            self.shade.show(AWAKE)

    def _down(self, _window: Any, touch: Any) -> bool:
        if self.use():
            touch.ud[_WOKE] = True
            return True
        return False

    def _swallowed(self, _window: Any, touch: Any) -> bool:
        return bool(touch.ud.get(_WOKE))

    def _key(self, *_: Any) -> bool:
        return self.use()


def screen_rest(config: Any, window: Any, busy: Callable[[], bool]) -> ScreenRest:
    """The app's ScreenRest from `[display]` (no configuration, as in demos: never rests)."""
    display = getattr(config, "display", None)
    overlay = OverlayShade(window)
    backlight = find_backlight()
    shade: Shade = overlay if backlight is None else BacklightShade(backlight, overlay)
    return ScreenRest(shade, busy=busy,
                      dim_after_s=60 * float(getattr(display, "dim_after", 0)),
                      sleep_after_s=60 * float(getattr(display, "sleep_after", 0)))
