"""The Raspberry Pi 5's GPIO chip, as gpiozero 2.0.1 looks for it.

On a Pi 5, gpiozero 2.0.1's lgpio factory opens /dev/gpiochip4 whatever it is told
(its `chip` argument is overwritten). Recent kernels number the Pi 5's GPIO chip 0, and
gpiochip4 exists only as the link Raspberry Pi OS's udev rules make. Without that link
lgpio cannot start, gpiozero falls back to a factory that does not drive a Pi 5, and
the buttons are silently dead. So the app and `doctor` look for the link first and say
what is wrong in one sentence; deploy/install.sh checks it too.
"""

from __future__ import annotations

import os
from pathlib import Path

MODEL = Path("/proc/device-tree/model")
DEV = Path("/dev")
LINK = "gpiochip4"
FIX = ("sudo apt install --reinstall raspberrypi-sys-mods (Raspberry Pi OS's udev rules "
       "make the link), then reboot")


def is_pi5(model: Path = MODEL) -> bool:
    try:
        return "Raspberry Pi 5" in model.read_text(errors="replace")
    except OSError:
        return False


def pi5_gpiochip_problem(model: Path | None = None, dev: Path | None = None) -> str | None:
    """The sentence for a Pi 5 without /dev/gpiochip4 under lgpio, or None."""
    if os.environ.get("GPIOZERO_PIN_FACTORY", "lgpio") != "lgpio":
        return None  # another factory chosen on purpose (mock in tests)
    model, dev = model or MODEL, dev or DEV
    if not is_pi5(model) or (dev / LINK).exists():
        return None
    return (f"this Raspberry Pi 5 has no {dev / LINK}, which gpiozero 2.0.1 opens for the "
            f"buttons, so they cannot work; to fix it: {FIX}")
