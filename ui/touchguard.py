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

Where the finger was counts too. Each change takes a snapshot of the rectangles that
were tappable just before it (`targets`, in window coordinates); a touch inside the guard
time that lands where nothing tappable stood (the SORRY! window panel over the players'
column) is accepted at once, since the finger cannot have aimed at anything else: a
touch-only SORRY! call is as fast as the fastest finger. Changes within one frame (no
frame drawn between them) keep the first change's snapshot, as nobody saw the states in
between; changes in later frames add theirs to it while the guard time runs.

A bounce is the same key tapped again within BOUNCE_SECONDS with no other touch and no
change in between: it is one tap (`bounces`), so a fast finger's double contact on "5"
logs one 5, while a deliberate second tap after that logs a second card.

`guard.clock` is the one clock for both the changes and the touch-down times (the
tests put a manual clock there, so a "double tap 0.15 s later" is exact); a touch's
down time is read from it when the touch reaches the window (or the first guarded
widget), never from Kivy's `touch.time_start`, which is wall-clock time.
"""

from __future__ import annotations

import math
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

GUARD_SECONDS = 0.35
BOUNCE_SECONDS = 0.25
FINGER_REACH_DP = 10  # how far beside a button a finger that aimed at it may land
_DOWN_KEY = "touchguard.down"
_POS_KEY = "touchguard.pos"
_SEQ_KEY = "touchguard.seq"

Rect = tuple[float, float, float, float]  # x, y, width, height in window coordinates
EVERYWHERE: Sequence[Rect] = ((-1e9, -1e9, 2e9, 2e9),)  # a popup takes every touch


def _inside(pos: tuple[float, float], rect: Rect) -> bool:
    x, y, w, h = rect
    return x <= pos[0] <= x + w and y <= pos[1] <= y + h


class TouchGuard:
    """One guard for the whole app: changes anywhere block touches everywhere, since
    a finger in the air cannot know which part of the screen is about to change."""

    def __init__(self, clock: Callable[[], float] = time.monotonic,
                 seconds: float = GUARD_SECONDS, *,
                 targets: Callable[[], Sequence[Rect]] = lambda: EVERYWHERE,
                 frame: Callable[[], int] = lambda: 0,
                 bounce_seconds: float = BOUNCE_SECONDS) -> None:
        """`targets` lists what is tappable now (the app's: ui.guard_targets, which walks
        the window); the default, everything, keeps the full guard everywhere. `frame`
        counts frames drawn, to tell changes within one frame apart."""
        self.clock = clock
        self.seconds = seconds
        self.bounce_seconds = bounce_seconds
        self.targets = targets
        self.frame = frame
        self.changed_at = -math.inf
        self.before: list[Rect] = []  # tappable just before the current changes
        self._changed_frame = -1
        self._seq = 0  # touches seen so far
        self._last_tap: tuple[object, int, float] | None = None  # key, touch seq, down
        self._watched: list[Any] = []

    def changed(self, *_: Any) -> None:
        """What is under the finger is about to be replaced, or just was (any arguments,
        so it can be bound). Call it before the new targets are in the window."""
        now, frame = self.clock(), self.frame()
        if frame != self._changed_frame:
            stood = list(self.targets())
            in_guard = now < self.changed_at + self.seconds
            self.before = self.before + stood if in_guard else stood
            self._changed_frame = frame
        self.changed_at = now

    def reset(self) -> None:
        """Forget the last change and tap (a new app in the same process: the tests)."""
        self.changed_at = -math.inf
        self.before = []
        self._changed_frame = -1
        self._last_tap = None

    def down_time(self, touch: Any) -> float:
        """When `touch` came down, on `clock`: stamped the first time it is seen, with
        its window position and its place in the order of touches."""
        ud = touch.ud
        down = ud.get(_DOWN_KEY)
        if down is None:
            down = ud[_DOWN_KEY] = self.clock()
            ud[_POS_KEY] = (float(touch.x), float(touch.y))
            self._seq += 1
            ud[_SEQ_KEY] = self._seq
        return float(down)

    def blocks(self, touch: Any) -> bool:
        """True for a touch that began before the last change, or within `seconds` after
        it where something tappable stood before: the finger aimed at what was there."""
        down = self.down_time(touch)
        if down < self.changed_at:
            return True
        if down >= self.changed_at + self.seconds:
            return False
        pos = touch.ud[_POS_KEY]
        return any(_inside(pos, rect) for rect in self.before)

    def bounces(self, touch: Any, key: object) -> bool:
        """True for a second contact on the same `key` within `bounce_seconds` of the
        last tap, with no other touch in between: one tap, not two (a change in between
        is `blocks`'s, whose guard time is longer). Ask
        once per touch (a bounce moves the count of touches on)."""
        down = self.down_time(touch)
        last = self._last_tap
        bounce = (last is not None and last[0] is key and touch.ud[_SEQ_KEY] == last[1] + 1
                  and down - last[2] < self.bounce_seconds)
        if bounce and last is not None:  # a third contact of the same bounce is one too
            self._last_tap = (key, touch.ud[_SEQ_KEY], last[2])
        return bounce

    def tapped(self, touch: Any, key: object) -> None:
        """`key` took `touch` (a bounce check for the next one)."""
        down = self.down_time(touch)
        self._last_tap = (key, touch.ud[_SEQ_KEY], down)

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


def window_targets() -> list[Rect]:
    """The window rectangles a touch would act on now: every enabled, visible button,
    text field or widget that says `guard_target = True` (the board); everywhere while
    a popup is open, since a popup takes every touch. Each grows by FINGER_REACH: a
    finger aimed at a button may land in the gap beside it."""
    from kivy.core.window import Window
    from kivy.metrics import dp
    from kivy.uix.behaviors import ButtonBehavior
    from kivy.uix.modalview import ModalView
    from kivy.uix.widget import Widget

    # A text field exists only once its module is imported: importing it here (and its
    # bubble and scatter) would cost the first frame for a widget the app does not use.
    fields = sys.modules.get("kivy.uix.textinput")
    kinds: tuple[type, ...] = (ButtonBehavior,) if fields is None else (
        ButtonBehavior, fields.TextInput)
    if any(isinstance(w, ModalView) for w in Window.children):
        return list(EVERYWHERE)
    reach = dp(FINGER_REACH_DP)
    found: list[Rect] = []
    # Each widget with the offset from the coordinates its x and y are in to the window's
    # (the window's own children: none), so a target's rectangle costs one addition, not
    # a walk up its parents; None below a parent that is not a plain shift (a Scatter's
    # turn or scale): there each target asks Kivy's to_window.
    stack: list[tuple[Any, tuple[float, float] | None]] = [
        (w, (0.0, 0.0)) for w in Window.children]
    while stack:
        w, offset = stack.pop()
        if w.disabled or w.opacity <= 0:
            continue
        if isinstance(w, kinds) or getattr(w, "guard_target", False):
            x, y = ((w.x + offset[0], w.y + offset[1]) if offset is not None
                    else w.to_window(w.x, w.y))
            found.append((x - reach, y - reach, w.width + 2 * reach, w.height + 2 * reach))
        elif w.children:
            # a widget with Widget's own to_parent (a plain layout) shifts nothing
            inner = offset if type(w).to_parent is Widget.to_parent else _shifted(w, offset)
            stack.extend((child, inner) for child in w.children)
    return found


def _shifted(w: Any, offset: tuple[float, float] | None) -> tuple[float, float] | None:
    """The offset of `w`'s children's coordinates to the window's, or None when `w` does
    not merely shift them."""
    if offset is None:
        return None
    x0, y0 = w.to_parent(0.0, 0.0)
    x1, y1 = w.to_parent(1.0, 1.0)
    if abs(x1 - x0 - 1.0) > 1e-9 or abs(y1 - y0 - 1.0) > 1e-9:
        return None
    return offset[0] + x0, offset[1] + y0


def frames_drawn() -> int:
    from kivy.clock import Clock

    return int(Clock.frames)


_SPARE = TouchGuard()  # for a widget shown outside the app (a lone widget in a test)


def app_guard() -> TouchGuard:
    """The running app's touch guard; a guard of its own for a widget outside the app."""
    from kivy.app import App

    guard = getattr(App.get_running_app(), "guard", None)
    return guard if isinstance(guard, TouchGuard) else _SPARE
