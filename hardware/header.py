"""The Raspberry Pi's 40-pin header: which hole is which GPIO, which are ground and power.

The configuration speaks BCM numbers (`GPIO17`), a person wiring counts holes (pin 11);
the wiring tables and the wiring diagram both read this one map, so they cannot disagree.
Pin 1 is the square pad, at the end of the header nearest the SD card; odd pins are the
row nearer the board's middle, even pins the row at its edge. The same on every Pi with
40 pins (Pi 2 to Pi 5).

>>> header_pin(17), bcm_of(11)
(11, 17)
>>> [p for p in range(1, 11) if p in GROUND]
[6, 9]
"""

from __future__ import annotations

PIN_COUNT = 40
GROUND = (6, 9, 14, 20, 25, 30, 34, 39)
FIVE_VOLT = (2, 4)
THREE_VOLT = (1, 17)
# BCM GPIO number -> header pin (GPIO0 and GPIO1 are the HAT EEPROM's ID pins 27 and 28)
_PIN_OF_BCM = {
    2: 3, 3: 5, 4: 7, 14: 8, 15: 10, 17: 11, 18: 12, 27: 13, 22: 15, 23: 16, 24: 18,
    10: 19, 9: 21, 25: 22, 11: 23, 8: 24, 7: 26, 0: 27, 1: 28, 5: 29, 6: 31, 12: 32,
    13: 33, 19: 35, 16: 36, 26: 37, 20: 38, 21: 40,
}
_BCM_OF_PIN = {pin: bcm for bcm, pin in _PIN_OF_BCM.items()}


def header_pin(bcm: int) -> int:
    """The header pin (1-40) of BCM GPIO `bcm`; KeyError for a number the header lacks."""
    return _PIN_OF_BCM[bcm]


def bcm_of(pin: int) -> int | None:
    """The BCM GPIO number on header pin `pin`, or None for a power or ground pin."""
    return _BCM_OF_PIN.get(pin)


def pin_name(pin: int) -> str:
    """What a header pin carries, as printed on pinout charts: "GPIO17", "GND", "5V", "3V3"."""
    if pin in GROUND:
        return "GND"
    if pin in FIVE_VOLT:
        return "5V"
    if pin in THREE_VOLT:
        return "3V3"
    return f"GPIO{_BCM_OF_PIN[pin]}"


def distance(a: int, b: int) -> int:
    """How far apart two header pins are, in pin pitches (rows plus the row change)."""
    return abs((a - 1) // 2 - (b - 1) // 2) + abs((a - 1) % 2 - (b - 1) % 2)
