"""Closes a window when its time runs out (the card game's steal and block windows,
RULES R9, R10; 5 s by default). The Session's own, private timer.

The rules have no clock; a game whose rules say which window runs a countdown
(`Rules.countdown`, companion/rules.py) gets this timer. It watches the session and
submits the close event for the very window it timed, so a window closed earlier (by a
card, a block or the scorekeeper) or reopened by undo is never closed by a stale timer.

A window reopened by undo or redo runs no countdown at all: it waits for a tap (a call,
a block, the close, or the next card). A timer there would close it again by itself and
throw away the redo step the scorekeeper meant to come back to.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Hashable, Mapping
from typing import Protocol

from companion.errors import REFUSALS
from companion.game import ResultKind
from companion.rules import Countdown, JsonEvent
from companion.update import Listener, Update

DEFAULT_SECONDS = 5.0  # a window's countdown unless the configuration says otherwise
WINDOW_SECONDS = (1.0, 60.0)  # the range a window may last (config and settings screen)


class WindowHost(Protocol):
    """What the timer needs of its session: its lock (every change of window is judged
    under it), its updates, the rules' countdown, and the way to close a window."""

    @property
    def lock(self) -> contextlib.AbstractContextManager[object]: ...

    def latest(self) -> Update[object, JsonEvent] | None: ...

    def subscribe(self, listener: Listener) -> Callable[[], None]: ...

    def countdown(self, state: object) -> Countdown | None: ...

    def close_window(self, expected: object) -> None: ...


class WindowTimer:
    """Every change of window is a new generation, under the session's lock, so a timer
    that fired just as its window was closed (or closed and reopened by undo) finds its
    generation gone and does nothing."""

    def __init__(self, session: WindowHost, seconds: Mapping[str, float] | None = None, *,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.session = session
        self.seconds: dict[str, float] = dict(seconds or {})
        self.clock = clock
        self.key: Hashable | None = None
        self.window: object = None
        self.deadline: float | None = None
        self._timer: threading.Timer | None = None
        self._generation = 0
        self._stopped = False
        with session.lock:
            self._unsubscribe = session.subscribe(self._on_update)
            latest = session.latest()
            if latest is not None:
                self._on_update(latest)

    def _on_update(self, update: Update[object, JsonEvent]) -> None:
        """Called with the session's lock held."""
        countdown = self.session.countdown(update.state)
        key = None if countdown is None else countdown.key
        if key == self.key:
            self.window = None if countdown is None else countdown.window
            return
        self._cancel()
        self.key, self.window, self.deadline = key, None, None
        if countdown is not None and _stepped_back_or_forth(update):
            self.window = countdown.window  # untimed: remaining() says None
        elif countdown is not None:
            seconds = self.seconds.get(countdown.kind, DEFAULT_SECONDS)
            self.window = countdown.window
            self.deadline = self.clock() + seconds
            self._timer = threading.Timer(seconds, self._expire, args=(self._generation,))
            self._timer.daemon = True
            self._timer.start()

    def _cancel(self) -> None:
        self._generation += 1
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def remaining(self) -> float | None:
        """Seconds left in the open window, or None when none is open."""
        deadline = self.deadline
        return None if deadline is None else max(0.0, deadline - self.clock())

    def _expire(self, generation: int) -> None:
        with self.session.lock:
            if generation != self._generation or self._stopped:
                return
            # A journal that refuses leaves the window open; the UI shows the error.
            with contextlib.suppress(*REFUSALS):
                self.session.close_window(self.window)

    def stop(self) -> None:
        with self.session.lock:
            if self._stopped:
                return
            self._stopped = True
            self._cancel()
            self._unsubscribe()


def _stepped_back_or_forth(update: Update[object, JsonEvent]) -> bool:
    """True when `update` comes from an undo or a redo."""
    result = update.result
    return result is not None and result.kind in (ResultKind.UNDONE, ResultKind.REDONE)

