"""Contact-bounce lockout that never delays the first edge.

A SORRY! button is a race, so a debounce that waits for the line to settle (gpiozero's
bounce_time on lgpio) would add its whole period to every press. Instead the first press
edge after a quiet line counts at once, and every edge, press or release, keeps the pin
locked for `seconds` more: the chatter of a press, and the chatter of its release (which
can look like a fresh press), are both swallowed.

Times are edge times in seconds on any clock that does not go backwards per pin.
"""

from __future__ import annotations

import threading

from hardware.errors import HardwareConfigError


class Lockout:
    def __init__(self, seconds: float) -> None:
        if not seconds >= 0:
            raise HardwareConfigError(f"a lockout must be 0 s or more, not {seconds!r}")
        self.seconds = seconds
        self._quiet_from: float | None = None  # the pin counts again from this time
        self._lock = threading.Lock()
        self.swallowed = 0

    def edge(self, t: float, pressed: bool) -> bool:
        """Note one edge at time `t`; True when it is a press that counts."""
        with self._lock:
            locked = self._quiet_from is not None and t < self._quiet_from
            until = t + self.seconds
            if self._quiet_from is None or until > self._quiet_from:
                self._quiet_from = until
            if locked and pressed:
                self.swallowed += 1
            return pressed and not locked
