"""Closes a steal or block window when its time runs out (RULES R9, R10; 5 s by default).

The engine has no clock; this timer watches the session and submits `close` for the very
window it timed, so a window closed earlier (by a card, a block or the scorekeeper) or
reopened by undo is never closed by a stale timer. Undo reopening a window starts a
fresh countdown. The UI reads `deadline` to draw the countdown.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable

from companion.errors import CompanionError
from companion.session import Session, Update
from companion.state import Awaiting, Window


def _same_window(a: Window | None, b: Window | None) -> bool:
    """The same open window: identical, or only the caller's edge time refined."""
    if a is b:
        return True
    if a is None or b is None:
        return False
    return (a.kind, a.cause, a.scorer, a.victim, a.caller) == (
        b.kind, b.cause, b.scorer, b.victim, b.caller)


class WindowTimer:
    """Every change of window is a new generation, under the session's lock, so a timer
    that fired just as its window was closed (or closed and reopened by undo) finds its
    generation gone and does nothing."""

    def __init__(self, session: Session, *, steal_seconds: float = 5.0,
                 block_seconds: float = 5.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.session = session
        self.seconds = {Awaiting.STEAL: steal_seconds, Awaiting.BLOCK: block_seconds}
        self.clock = clock
        self.window: Window | None = None
        self.deadline: float | None = None
        self._timer: threading.Timer | None = None
        self._generation = 0
        self._stopped = False
        with session.lock:
            self._unsubscribe = session.subscribe(self._on_update)
            if session.state is not None:
                self._watch(session.state.window)

    def _on_update(self, update: Update) -> None:
        self._watch(update.state.window)

    def _watch(self, window: Window | None) -> None:
        """Called with the session's lock held."""
        if _same_window(window, self.window):
            self.window = window
            return
        self._cancel()
        self.window, self.deadline = window, None
        if window is not None:
            seconds = self.seconds[window.kind]
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
            with contextlib.suppress(CompanionError):
                self.session.close_window(expected=self.window)

    def stop(self) -> None:
        with self.session.lock:
            if self._stopped:
                return
            self._stopped = True
            self._cancel()
            self._unsubscribe()
