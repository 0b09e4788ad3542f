"""Every hardware failure has one root, `HardwareError`, and a message that is one
sentence naming the part and the fix (shown in the status line and by `doctor`).

Each kind keeps the built-in base it always had, so `except OSError` around the serial
port or `except ValueError` around a setting still catches what it caught.
"""

from __future__ import annotations


class HardwareError(Exception):
    """A button, lamp or LED board cannot work (now, or with these settings)."""


class HardwareConfigError(HardwareError, ValueError):
    """A setting cannot work: a pin, a USB id, a baud rate, a brightness, a lockout."""


class GpioSetupError(HardwareError, RuntimeError):
    """The buttons or lamps could not be set up; the message is one sentence with the fix."""


class LedBoardError(HardwareError, OSError):
    """The board on a port cannot be used right now (silent, gone): try again later."""


class LedBoardRefused(LedBoardError):
    """The board on a port can never work with this companion: give up on that port."""
