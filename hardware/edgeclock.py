"""Puts a GPIO edge's own timestamp onto the session's clock (time.monotonic).

The race for SORRY! is decided by when each button's edge happened, not by when its
callback ran: callbacks queue behind each other and may run out of order. gpiozero hands
each callback the edge's `ticks`, but their time base depends on the pin factory and
kernel: mock and native factories use time.monotonic, pigpio wrapping microseconds, and
lgpio the kernel's line-event stamp, which is CLOCK_REALTIME on some kernels and
CLOCK_MONOTONIC on others. So each tick is tried against the factory's own clock and the
wall clock, and the one giving a plausible age (the edge is in the recent past) wins; a
tick that fits neither counts as "now" rather than being trusted blindly.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from typing import Any, Protocol

MAX_EDGE_AGE = 10.0  # seconds: older than this, a tick is on a time base we do not know
CLOCK_SLACK = 0.002  # an edge up to 2 ms "in the future" is rounding between clocks


class TickSource(Protocol):
    """The part of a gpiozero pin factory that tells the time of its ticks."""

    def ticks(self) -> Any: ...

    def ticks_diff(self, later: Any, earlier: Any) -> float: ...


class EdgeClock:
    def __init__(self, factory: TickSource | None, *,
                 clock: Callable[[], float] = time.monotonic,
                 wall: Callable[[], float] = time.time) -> None:
        self.factory = factory
        self.clock = clock
        self.wall = wall

    def to_monotonic(self, ticks: Any) -> float:
        """The edge's time on `clock`: now minus the edge's age by whichever base fits."""
        ages = self._ages(ticks)  # read the tick clocks first: `now` is then never earlier
        now = self.clock()
        for age in ages:
            if -CLOCK_SLACK <= age <= MAX_EDGE_AGE:
                return now - max(age, 0.0)
        return now

    def _ages(self, ticks: Any) -> list[float]:
        if not isinstance(ticks, int | float) or isinstance(ticks, bool):
            return []
        ages = []
        if self.factory is not None:
            with contextlib.suppress(TypeError, ValueError, OverflowError):
                ages.append(float(self.factory.ticks_diff(self.factory.ticks(), ticks)))
        ages.append(self.wall() - float(ticks))
        return ages
