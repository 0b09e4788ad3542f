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


class WindowTimer:
    def __init__(self, session: Session, *, steal_seconds: float = 5.0,
                 block_seconds: float = 5.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.session = session
        self.seconds = {Awaiting.STEAL: steal_seconds, Awaiting.BLOCK: block_seconds}
        self.clock = clock
        self.window: Window | None = None
        self.deadline: float | None = None
        self._timer: threading.Timer | None = None
        self._unsubscribe = session.subscribe(self._on_update)
        if session.state is not None:
            self._watch(session.state.window)

    def _on_update(self, update: Update) -> None:
        self._watch(update.state.window)

    def _watch(self, window: Window | None) -> None:
        if window is self.window:
            return
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self.window, self.deadline = window, None
        if window is not None:
            seconds = self.seconds[window.kind]
            self.deadline = self.clock() + seconds
            self._timer = threading.Timer(seconds, self._expire, args=(window,))
            self._timer.daemon = True
            self._timer.start()

    def remaining(self) -> float | None:
        """Seconds left in the open window, or None when none is open."""
        deadline = self.deadline
        return None if deadline is None else max(0.0, deadline - self.clock())

    def _expire(self, window: Window) -> None:
        # A journal that refuses leaves the window open; the UI shows the error.
        with contextlib.suppress(CompanionError):
            self.session.close_window(expected=window)

    def stop(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self._unsubscribe()
