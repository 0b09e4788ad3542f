"""The companion's side of the HOME LED board: one worker thread, never in the game's way.

The session's listener turns each change into a LedBoardState and drops it in a one-slot
mailbox; the worker finds the board, greets it, sends the whole state on every change,
on every (re)connect and every 2 s as a heartbeat, and reads the board's answers. Any
error closes the port, and the worker rescans once a second. Its status (absent,
connected <uid>, reconnecting, gave up: <reason>) goes to `on_status`, called on the
worker thread: a UI must marshal it to its own thread.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Sequence

from companion.config import BRIGHTNESS
from companion.session import AnyUpdate, ResultKind, Session
from hardware import faces
from hardware.errors import HardwareConfigError, LedBoardError, LedBoardRefused
from hardware.firmware import pawnled
from hardware.firmware.pawnled import LedBoardState
from hardware.ledboardlink import (
    ANSWER_WAIT_S,
    HELLO_WAIT_S,
    LedBoardLink,
    check_baud,
    check_hello,
)
from hardware.mailbox import Latest
from hardware.status import Status, StatusCallback, StatusKind

log = logging.getLogger(__name__)

POLL_S = 0.05  # how often the worker reads the board's answers while nothing changes
RETRY_S = 0.2  # after the board answered -ERR, resend this soon


def check_brightness(brightness: int) -> int:
    low, high = BRIGHTNESS
    if isinstance(brightness, bool) or not isinstance(brightness, int) \
            or not low <= brightness <= high:
        raise HardwareConfigError(f"ledboard.brightness must be a whole number from {low} to "
                                  f"{high}, not {brightness!r}")
    return brightness


class LedBoardHost:
    def __init__(self, *, ports: Callable[[], Sequence[str]],
                 looking_for: str = "no LED board found", baud: int = 115200,
                 brightness: int = 64, on_status: StatusCallback | None = None,
                 hello_wait: float = HELLO_WAIT_S, answer_wait: float = ANSWER_WAIT_S,
                 heartbeat: float = 2.0,
                 rescan: float = 1.0, silence: float = 5.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.ports = ports
        self.looking_for = looking_for
        self.baud = check_baud(baud)
        self.brightness = check_brightness(brightness)
        self.on_status = on_status
        self.hello_wait, self.answer_wait = hello_wait, answer_wait
        self.heartbeat, self.rescan, self.silence = heartbeat, rescan, silence
        self.clock = clock
        self.lines_sent = 0
        self._latest: Latest[LedBoardState] = Latest()
        self._stop = threading.Event()
        self._status = Status("ledboard", StatusKind.ABSENT, looking_for)
        self._rejected: dict[str, str] = {}  # port -> why we gave up on it
        self._ever_connected = False
        self._seq = 0
        self._thread: threading.Thread | None = None

    # --- the game's side: never blocks ---

    def start(self) -> LedBoardHost:
        self._thread = threading.Thread(target=self._run, name="ledboard", daemon=True)
        self._thread.start()
        return self

    def show(self, frame: LedBoardState) -> None:
        self._latest.put(frame)

    def follow(self, session: Session) -> Callable[[], None]:
        """Show `session`'s game from now on; returns the unsubscribe function."""
        def frame(update: AnyUpdate) -> LedBoardState | None:
            """The open game's picture (hardware.faces); None: it has none."""
            face = faces.get(update.game)
            return None if face is None else face.ledboard(update, self.brightness)

        if session.update is not None:
            first = frame(session.update)
            if first is not None:
                self.show(first)

        def on_update(update: AnyUpdate) -> None:
            if update.result is not None and update.result.kind is ResultKind.IGNORED:
                return  # the state did not change
            shown = frame(update)
            if shown is not None:  # a game without a face: the board is left alone
                self.show(shown)

        return session.subscribe(on_update)

    def set_brightness(self, brightness: int) -> None:
        """Change the brightness now: the current state goes out again with it."""
        self.brightness = check_brightness(brightness)
        frame = self._latest.peek()
        if frame is not None:
            self.show(LedBoardState(frame.players, frame.turn, frame.home, frame.alert,
                                 self.brightness, frame.colors))

    @property
    def status(self) -> Status:
        return self._status

    def close(self) -> None:
        self._stop.set()
        self._latest.close()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=5)

    def __enter__(self) -> LedBoardHost:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- the worker thread ---

    def _set_status(self, kind: StatusKind, detail: str = "") -> None:
        status = Status("ledboard", kind, detail)
        if status == self._status:
            return
        self._status = status
        log.info("LED board %s", status)
        if self.on_status is not None:
            try:
                self.on_status(status)
            except Exception:
                log.exception("the LED board status callback failed")

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self._connect_and_serve()
            except Exception:  # a bug must not end the worker: the board would freeze
                log.exception("the LED board worker failed; it starts over")
                self._set_status(StatusKind.RECONNECTING,
                                 "an unexpected error, see the log; trying again")
            self._stop.wait(self.rescan)

    def _connect_and_serve(self) -> None:
        link = self._connect()
        if link is None:
            return
        try:
            self._serve(link)
        except LedBoardError as exc:
            self._set_status(StatusKind.RECONNECTING, str(exc))
        finally:
            link.close()

    def _connect(self) -> LedBoardLink | None:
        lost = StatusKind.RECONNECTING if self._ever_connected else StatusKind.ABSENT
        try:
            candidates = list(self.ports())
        except OSError as exc:
            self._set_status(lost, f"the serial ports could not be listed ({exc})")
            return None
        self._rejected = {p: why for p, why in self._rejected.items() if p in candidates}
        tried = [p for p in candidates if p not in self._rejected]
        for port in tried:
            try:
                return LedBoardLink.open(port, baud=self.baud, hello_wait=self.hello_wait,
                                      answer_wait=self.answer_wait,
                                      cancelled=self._stop.is_set, clock=self.clock)
            except LedBoardRefused as exc:
                self._rejected[port] = str(exc)
                self._set_status(StatusKind.GAVE_UP, str(exc))
            except LedBoardError as exc:
                self._set_status(lost, str(exc))
        if not candidates:
            self._set_status(lost, "waiting for the board to come back"
                             if self._ever_connected else self.looking_for)
        return None

    def _serve(self, link: LedBoardLink) -> None:
        self._ever_connected = True
        self._set_status(StatusKind.CONNECTED, link.hello.uid)
        now = self.clock()
        heard, next_beat = now, now  # the state goes out at once on every (re)connect
        last_sent: LedBoardState | None = None
        while not self._stop.is_set():
            wait = min(max(next_beat - self.clock(), 0.0), POLL_S)
            fresh, frame = self._latest.take(wait)
            if self._stop.is_set():
                return
            now = self.clock()
            if (fresh and frame != last_sent) or now >= next_beat:
                self._send(link, frame)
                last_sent, next_beat = frame, now + self.heartbeat
            for item in link.read():
                if not isinstance(item, pawnled.Message):
                    continue  # garbled: the stream resynchronises by itself
                heard = now
                if item.verb == "-ERR":
                    next_beat = min(next_beat, now + RETRY_S)
                elif item.verb == "!HELLO":  # greeted, or the board restarted: state again
                    hello = check_hello(link.port, item)
                    if hello.uid != link.hello.uid:
                        link.hello = hello
                        self._set_status(StatusKind.CONNECTED, hello.uid)
                    next_beat = min(next_beat, now + RETRY_S)
            if now - heard > self.silence:
                raise LedBoardError(f"the board on {link.port} stopped answering "
                                 f"for {self.silence:g} s")

    def _send(self, link: LedBoardLink, frame: LedBoardState | None) -> None:
        if frame is None:
            link.send(pawnled.query_state_line())  # no game yet: a keep-alive
        else:
            self._seq = (self._seq + 1) % 4294967296
            link.send(frame.line(self._seq))
        self.lines_sent += 1
