"""Test helpers for tests/hardware: real gpiozero mock pins on a scripted clock, real ptys.

Nothing here imitates our own code: ClockedMockFactory is gpiozero's MockFactory with
its documented `pin_class` extension, so Buttons and LEDs are real gpiozero objects;
RawBoard is a real pseudo-terminal the test speaks PAWNLED through by hand.
"""

from __future__ import annotations

import os
import select
import time
import tty
from collections.abc import Callable

from gpiozero.pins.mock import MockFactory, MockPin
from gpiozero.pins.pi import PiPin

from hardware.firmware import pawnled

PLAYERS = ("Ana", "Ben", "Cy", "Di")


class ScriptedClock:
    """A clock that moves only when told: `clock.now = 5.0` or `clock.advance(0.05)`."""

    def __init__(self, now: float = 0.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> float:
        self.now += seconds
        return self.now


class ClockedMockPin(MockPin):
    """A MockPin whose edges carry a chosen time instead of time.monotonic().

    `drive_low_at(t)` is an edge that happened at t; the callback runs now, as with
    any mock pin, so edges can be delivered in any order the test likes. A callback
    cannot run before its edge happened, so the clock moves on to t if it is behind.
    """

    _edge_at: float | None = None

    def drive_low_at(self, t: float) -> None:
        self._edge(t)
        self.drive_low()

    def drive_high_at(self, t: float) -> None:
        self._edge(t)
        self.drive_high()

    def _edge(self, t: float) -> None:
        self._edge_at = t
        clock = self._factory.clock
        clock.now = max(clock.now, t)

    def _call_when_changed(self) -> None:
        ticks = self._factory.ticks() if self._edge_at is None else self._edge_at
        PiPin._call_when_changed(self, ticks, self._state)


class ClockedMockFactory(MockFactory):
    def __init__(self, clock: ScriptedClock) -> None:
        super().__init__(pin_class=ClockedMockPin)
        self.clock = clock

    def ticks(self) -> float:  # type: ignore[override]
        return self.clock()


class RawBoard:
    """A pseudo-terminal whose far end the test drives by hand: a board that misbehaves."""

    def __init__(self) -> None:
        self.master, self._slave = os.openpty()
        tty.setraw(self._slave)
        self.path = os.ttyname(self._slave)
        self.reader = pawnled.LineReader()
        self.items: list[pawnled.Message | pawnled.LineError] = []

    def write(self, data: bytes | str) -> None:
        os.write(self.master, data.encode() if isinstance(data, str) else data)

    def read_until(self, predicate: Callable[[pawnled.Message], bool],
                   timeout: float = 10.0) -> pawnled.Message | None:
        """Read the host's lines until one matches; None after `timeout` s."""
        deadline = time.monotonic() + timeout
        while True:
            for item in self.items:
                if isinstance(item, pawnled.Message) and predicate(item):
                    self.items.remove(item)
                    return item
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            ready, _, _ = select.select([self.master], [], [], left)
            if ready:
                self.items.extend(self.reader.feed(os.read(self.master, 4096)))

    def close(self) -> None:
        for fd in (self.master, self._slave):
            os.close(fd)


def wait_until(predicate: Callable[[], bool], timeout: float = 10.0) -> bool:
    """For states nobody signals (a mock pin toggled by gpiozero's blink thread)."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True
