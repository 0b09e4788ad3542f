# The types of ledboard.py, which stays plain Python: MicroPython on the Pico runs it as it
# is. mypy --strict reads this file instead of the module (see setup.cfg).
from collections.abc import Callable
from typing import Any

from hardware.firmware.pawnled import LedBoardState, LineReader

RGB = tuple[int, int, int]

FW_VERSION: str
HELLO_EVERY_MS: int
WAITING_AFTER_MS: int
PULSE_PERIOD_MS: int
PULSE_PEAK: int
BLINK_MS: int
TURN_LED0: int
OFF: RGB
SEAT_RGB: dict[str, RGB]
ALERT_RGB: dict[str, RGB]

def scaled(rgb: RGB, bri: int) -> RGB: ...

class LedBoard:
    strip: Any
    uid: str
    reader: LineReader
    state: LedBoardState | None
    greeted: bool
    errors: int
    faults: int
    def __init__(self, strip: Any, uid: str, now: int,
                 ticks_diff: Callable[[int, int], int] | None = None) -> None: ...
    def hello(self) -> str: ...
    def receive(self, data: bytes, now: int) -> list[str]: ...
    def tick(self, now: int) -> list[str]: ...
    def waiting(self, now: int) -> bool: ...
    def pixels(self, now: int) -> list[RGB]: ...
    def show(self, now: int) -> None: ...
