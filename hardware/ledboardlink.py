"""One serial connection to a HOME LED board: open, handshake, send lines, read answers.

Used only by the LED board worker thread (ledhost.py); nothing here is thread-safe and
everything may block for up to its timeouts. Every failure is an exception whose message
is one sentence naming the port and the fix.
"""

from __future__ import annotations

import contextlib
import errno
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import serial

from companion.config import baud_problem
from hardware.errors import HardwareConfigError, LedBoardError, LedBoardRefused
from hardware.firmware import pawnled

HELLO_WAIT_S = 3.0  # an Arduino-style board resets when the port opens: let it boot
ANSWER_WAIT_S = 1.0  # after our ?HELLO
READ_SLICE_S = 0.05  # how long one blocking read may wait, so a stop request is seen


@dataclass(frozen=True, slots=True)
class Hello:
    uid: str
    fw: str
    proto: str
    leds: int


def check_baud(baud: int) -> int:
    """The configuration's own check (companion.config), for a host built by hand."""
    problem = baud_problem(baud)
    if problem is not None:
        raise HardwareConfigError(f"ledboard.baud = {baud!r} cannot be used: {problem}")
    return baud


def explain_open_error(port: str, exc: BaseException) -> str:
    code = getattr(exc, "errno", None)
    text = str(exc)
    if code == errno.ENOENT or "No such file" in text:
        return f"{port} does not exist (unplugged?)"
    if code == errno.EACCES or "Permission denied" in text:
        return (f"no permission to open {port}; add the user to the dialout group "
                "(sudo usermod -aG dialout $USER) and log in again")
    if code in (errno.EBUSY, errno.EAGAIN) or "lock" in text.lower():
        return f"{port} is in use by another program (is the companion already running?)"
    return f"{port} could not be opened ({text})"


def check_hello(port: str, msg: pawnled.Message) -> Hello:
    """The board's `!HELLO`, or LedBoardRefused when it is not a PAWNLED/1 board."""
    f = msg.fields
    if f.get("dev", "pawnled") != "pawnled":
        raise LedBoardRefused(f"the device on {port} says it is {f.get('dev')!r}, not a PAWNLED "
                           "board; set ledboard.port or ledboard.ids to the right device")
    major = pawnled.proto_major(f.get("proto", ""))
    if major != pawnled.PROTO:
        raise LedBoardRefused(
            f"the board on {port} speaks PAWNLED/{f.get('proto', '?')} but this companion "
            f"speaks PAWNLED/{pawnled.PROTO}; flash the firmware of this version "
            "(hardware/README.md)")
    leds = f.get("leds", "")
    return Hello(f.get("uid", "?"), f.get("fw", "?"), f.get("proto", ""),
                 int(leds) if leds.isdigit() else 0)


class LedBoardLink:
    """An open port whose board has said HELLO. `open` does the whole handshake."""

    def __init__(self, port: str, ser: Any, hello: Hello) -> None:
        self.port = port
        self.ser = ser
        self.hello = hello
        self.reader = pawnled.LineReader()
        self.garbage = 0  # lines from the board that did not parse

    @classmethod
    def open(cls, port: str, *, baud: int = 115200, hello_wait: float = HELLO_WAIT_S,
             answer_wait: float = ANSWER_WAIT_S, cancelled: Callable[[], bool] = lambda: False,
             clock: Callable[[], float] = time.monotonic) -> LedBoardLink:
        """Open `port`, wait for `!HELLO` (sending `?HELLO` if it stays quiet), greet it."""
        try:
            ser = serial.Serial(port, check_baud(baud), timeout=READ_SLICE_S, write_timeout=1.0,
                                dsrdtr=False, exclusive=True)
        except (OSError, ValueError) as exc:
            raise LedBoardError(explain_open_error(port, exc)) from exc
        link = cls(port, ser, Hello("?", "?", "", 0))  # pyserial asserts DTR on open
        try:
            hello = link._await_hello(clock() + hello_wait, cancelled, clock)
            greeted = hello is None and not cancelled()
            if greeted:
                link.send(pawnled.greet_line())
                hello = link._await_hello(clock() + answer_wait, cancelled, clock)
            if hello is None:
                garbage = f" ({link.garbage} garbled lines)" if link.garbage else ""
                raise LedBoardError(f"the device on {port} did not say !HELLO within "
                                 f"{hello_wait + answer_wait:g} s{garbage}; is it a PAWNLED "
                                 "board with its firmware (hardware/README.md)?")
            if not greeted:
                link.send(pawnled.greet_line())  # so that it stops announcing itself
            link.hello = hello
            link.ser.timeout = 0  # from now on reads never wait
            return link
        except BaseException:
            link.close()
            raise

    def _await_hello(self, deadline: float, cancelled: Callable[[], bool],
                     clock: Callable[[], float]) -> Hello | None:
        while clock() < deadline and not cancelled():
            for item in self._read(block=True):
                if isinstance(item, pawnled.Message) and item.verb == "!HELLO":
                    return check_hello(self.port, item)
        return None

    def _read(self, *, block: bool) -> list[pawnled.Message | pawnled.LineError]:
        try:
            waiting = self.ser.in_waiting
            data = self.ser.read(waiting or (1 if block else 0)) if waiting or block else b""
        except OSError as exc:
            raise LedBoardError(f"the board on {self.port} went away ({exc})") from exc
        items = self.reader.feed(data)
        self.garbage += sum(isinstance(i, pawnled.LineError) for i in items)
        return items

    def read(self) -> list[pawnled.Message | pawnled.LineError]:
        """Whatever the board said since the last call; never waits."""
        return self._read(block=False)

    def send(self, line: str) -> None:
        try:
            self.ser.write(line.encode("ascii"))
        except (OSError, serial.SerialTimeoutException) as exc:
            raise LedBoardError(f"the board on {self.port} went away ({exc})") from exc

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.ser.close()
