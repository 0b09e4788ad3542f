"""Issue 33: a faulty LED board sending `!HELLO` with a new id on every line made 5,600
status changes a second, each scheduled on the Kivy thread. Now they are coalesced
(hardware.status.StatusRelay): the screen is handed a few a second at most, and always the
latest. A real pseudo-terminal feeds the flood to the real app's hardware."""

from __future__ import annotations

import os
import select
import threading
import time
import tty

from companion.config import Config, GpioConfig, LedBoardConfig
from hardware.firmware import pawnled
from hardware.status import RELAY_INTERVAL_S, StatusRelay
from ui.hardware_link import HardwareLink

HELLOS = 3000


class FloodingBoard:
    """The far end of a pty: once greeted, `!HELLO` with a new uid on every line."""

    def __init__(self) -> None:
        self.master, self._slave = os.openpty()
        tty.setraw(self._slave)
        self.path = os.ttyname(self._slave)
        self.last_uid = f"F{HELLOS - 1:05d}"
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="flooding-board", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        reader = pawnled.LineReader()
        pending = b"".join(pawnled.hello_line(f"F{i:05d}", "1.0").encode()
                           for i in range(HELLOS))
        greeted = False
        while not self._stop.is_set():
            writing = [self.master] if greeted and pending else []
            readable, writable, _ = select.select([self.master], writing, [], 0.05)
            if readable:  # the host's lines are read, so its writes never block
                greeted |= any(isinstance(m, pawnled.Message) and m.verb == "?HELLO"
                               for m in reader.feed(os.read(self.master, 65536)))
            if writable:
                pending = pending[os.write(self.master, pending[:4096]):]

    def close(self) -> None:
        self._stop.set()
        self._thread.join()
        for fd in (self.master, self._slave):
            os.close(fd)


def test_a_board_flooding_new_hellos_reaches_the_screen_a_few_times_a_second(driver,
                                                                           monkeypatch):
    changes: list[float] = []  # each status change the hardware made (its worker thread)
    handed: list[float] = []  # each hand-over that reached the Kivy thread
    relay_call, set_all = StatusRelay.__call__, HardwareLink._set_all

    def counted_change(self, status):
        changes.append(time.monotonic())
        relay_call(self, status)

    def counted_hand_over(self, statuses):
        assert threading.current_thread() is threading.main_thread()  # Kivy's thread
        handed.append(time.monotonic())
        set_all(self, statuses)

    monkeypatch.setattr(StatusRelay, "__call__", counted_change)
    monkeypatch.setattr(HardwareLink, "_set_all", counted_hand_over)
    board = FloodingBoard()
    d = None
    try:
        config = Config(gpio=GpioConfig(enabled=False),
                        ledboard=LedBoardConfig(port=board.path))
        d = driver(config=config, start_hardware=True)
        d.wait_for(lambda: d.app.link._parts.get("ledboard") == ("connected", board.last_uid),
                   "the flood's last board id on the Kivy thread", timeout=120)
    finally:
        if d is not None:
            d.stop()
        board.close()
    assert len(changes) >= HELLOS / 2, len(changes)  # the flood reached the hardware
    span = handed[-1] - handed[0]
    # one hand-over per RELAY_INTERVAL_S at most, however long the flood took here
    assert len(handed) <= span / RELAY_INTERVAL_S + 2, (len(handed), span)
    assert len(handed) < len(changes) / 20, (len(handed), len(changes))
