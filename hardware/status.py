"""How each part of the table hardware is doing, in words the screen can show as they are."""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum


class StatusKind(StrEnum):
    OFF = "off"  # switched off in the configuration
    READY = "ready"  # buttons: working
    TOUCH_ONLY = "touch only"  # buttons: none work, play with the touch screen
    ABSENT = "absent"  # LED board: none found
    CONNECTED = "connected"  # LED board: talking to it
    RECONNECTING = "reconnecting"  # LED board: lost or not answering, rescanning
    GAVE_UP = "gave up"  # LED board: found one that cannot work (wrong protocol)


@dataclass(frozen=True, slots=True)
class Status:
    """One part's status: `str(status)` is the sentence to show, e.g. "connected E661A4"."""

    part: str  # "buttons" or "ledboard"
    kind: StatusKind
    detail: str = ""

    @property
    def ok(self) -> bool:
        """True when the part works as configured (or is off on purpose)."""
        return self.kind in (StatusKind.READY, StatusKind.CONNECTED, StatusKind.OFF)

    def __str__(self) -> str:
        if not self.detail:
            return self.kind.value
        sep = " " if self.kind is StatusKind.CONNECTED else ": "
        return f"{self.kind.value}{sep}{self.detail}"


StatusCallback = Callable[[Status], None]


RELAY_INTERVAL_S = 0.25  # a UI is handed statuses at most 4 times a second


class StatusRelay:
    """Hands statuses from hardware threads to a UI's thread, coalesced: at most one
    hand-over per RELAY_INTERVAL_S, each carrying every part's latest status since the
    last. A faulty board saying `!HELLO` with a new id on every line makes thousands of
    changes a second; the screen needs only the newest, and it always gets it.

    `schedule(run, delay)` must call `run()` on the UI thread after `delay` seconds (Kivy:
    Clock.schedule_once); `deliver(statuses)` is then called there.
    """

    def __init__(self, deliver: Callable[[list[Status]], None],
                 schedule: Callable[[Callable[[], None], float], None], *,
                 interval: float = RELAY_INTERVAL_S,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.deliver, self.schedule, self.interval, self.clock = deliver, schedule, interval, clock
        self._lock = threading.Lock()
        self._pending: dict[str, Status] = {}
        self._scheduled = False
        self._last = -math.inf  # when the last hand-over ran

    def __call__(self, status: Status) -> None:
        """From any thread: `status` is its part's newest."""
        with self._lock:
            self._pending[status.part] = status
            if self._scheduled:
                return
            self._scheduled = True
            delay = max(0.0, self._last + self.interval - self.clock())
        self.schedule(self._hand_over, delay)

    def _hand_over(self) -> None:
        with self._lock:
            pending, self._pending = list(self._pending.values()), {}
            self._scheduled = False
            self._last = self.clock()
        self.deliver(pending)
