"""A HOME LED board without the hardware: the firmware's own code on a pseudo-terminal.

The app opens `SimulatedLedBoard.path` as it would /dev/ttyACM0; behind it runs the very
LedBoard class the Pico runs (hardware/firmware/ledboard.py), with a strip that records what
it is told to show. `sorry-companion ledboard-sim` draws that strip in the terminal, and
the tests use the same class as a real board on a real pty.
"""

from __future__ import annotations

import os
import select
import threading
import time
import tty
from collections.abc import Callable

from hardware.firmware import pawnled
from hardware.firmware.ledboard import LedBoard

FRAME_S = 0.02  # the firmware's frame time: how often the board ticks while idle

RGB = tuple[int, int, int]


class RecordingStrip(list[RGB]):
    """A strip of RGB pixels, like neopixel.NeoPixel: `strip[i] = rgb`, then `write()`."""

    def __init__(self, n: int = pawnled.LEDS) -> None:
        super().__init__([(0, 0, 0)] * n)
        self.shown: list[RGB] = list(self)
        self.writes = 0

    def write(self) -> None:
        self.shown = list(self)
        self.writes += 1


def ms_clock() -> int:
    return int(time.monotonic() * 1000)


class SimulatedLedBoard:
    """A board on a pty. `wait_for(predicate)` awaits what the board shows or received.

    on_change: called on the board's thread after anything changed (a line, a frame);
    on_line: called with each valid line from the host and the time.monotonic() it was
    read (the benchmark's "line arrived" stamp).
    """

    def __init__(self, *, uid: str = "SIM0001",
                 clock_ms: Callable[[], int] = ms_clock,
                 on_change: Callable[[SimulatedLedBoard], None] | None = None,
                 on_line: Callable[[pawnled.Message, float], None] | None = None) -> None:
        self.master, self._slave = os.openpty()
        tty.setraw(self._slave)  # no echo, no line editing: bytes pass as they are
        self.path = os.ttyname(self._slave)
        self.strip = RecordingStrip()
        self.clock_ms = clock_ms
        self.ledboard = LedBoard(self.strip, uid, clock_ms())
        self.on_change = on_change
        self.on_line = on_line
        self.received: list[pawnled.Message] = []
        self._cond = threading.Condition()
        self._wake_r, self._wake_w = os.pipe()
        self._closed = False
        self._lines = pawnled.LineReader()
        self._thread = threading.Thread(target=self._run, name="ledboard-sim", daemon=True)
        self._thread.start()

    # --- observing ---

    @property
    def state(self) -> pawnled.LedBoardState | None:
        return self.ledboard.state

    def pixels(self) -> list[RGB]:
        return list(self.strip.shown)

    def wait_for(self, predicate: Callable[[SimulatedLedBoard], bool],
                 timeout: float = 10.0) -> bool:
        """Wait until `predicate(self)` holds; False if it still does not after `timeout` s."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while not predicate(self):
                left = deadline - time.monotonic()
                if left <= 0 or self._closed:
                    return predicate(self)
                self._cond.wait(left)
            return True

    # --- the board's thread ---

    def _run(self) -> None:
        while not self._closed:
            try:
                ready, _, _ = select.select([self.master, self._wake_r], [], [], FRAME_S)
                data = os.read(self.master, 4096) if self.master in ready else b""
            except OSError:
                return  # closed under us
            arrived = time.monotonic()
            now = self.clock_ms()
            writes = self.strip.writes
            replies = self._receive(data, now, arrived) if data else []
            replies += self.ledboard.tick(now)
            self._write(replies)
            if data or replies or self.strip.writes != writes:
                self._changed()

    def _receive(self, data: bytes, now: int, arrived: float) -> list[str]:
        for item in self._lines.feed(data):
            if isinstance(item, pawnled.Message):
                self.received.append(item)
                if self.on_line is not None:
                    self.on_line(item, arrived)
        return self.ledboard.receive(data, now)

    def _write(self, lines: list[str]) -> None:
        for line in lines:
            try:
                os.write(self.master, line.encode())
            except OSError:
                return

    def _changed(self) -> None:
        with self._cond:
            self._cond.notify_all()
        if self.on_change is not None:
            self.on_change(self)

    # --- the end ---

    def close(self) -> None:
        """Unplug the board: the host's next read or write on the port fails."""
        if self._closed:
            return
        self._closed = True
        os.write(self._wake_w, b"x")
        self._thread.join(timeout=5)
        for fd in (self.master, self._slave, self._wake_r, self._wake_w):
            os.close(fd)
        with self._cond:
            self._cond.notify_all()

    def __enter__(self) -> SimulatedLedBoard:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
