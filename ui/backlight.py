"""The display's backlight, where it has one the app may set (/sys/class/backlight).

The official 7" display and the Touch Display 2 each show up as one folder there
(`brightness`, `max_brightness`); HDMI screens have none. The service user may write
`brightness` only when the install lets it (a udev rule giving the `video` group write
access, and /sys/class/backlight writable in the unit): without that, `find_backlight`
finds nothing and the app dims with a black overlay instead (ui/idle.py).
"""

from __future__ import annotations

import os
from pathlib import Path

BACKLIGHTS = Path("/sys/class/backlight")
DIM_SHARE = 0.5  # a dimmed screen keeps half its brightness: plainly dim, still read


class Backlight:
    """One backlight: its brightness as found at start is what "awake" goes back to."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.maximum = int((folder / "max_brightness").read_text().strip())
        self.awake = int((folder / "brightness").read_text().strip()) or self.maximum

    def set(self, level: int) -> None:
        """Write a brightness (OSError when the system refuses it)."""
        (self.folder / "brightness").write_text(f"{max(0, min(self.maximum, level))}\n")

    def dim_level(self) -> int:
        return max(1, round(self.awake * DIM_SHARE))


def find_backlight(root: Path = BACKLIGHTS) -> Backlight | None:
    """The first backlight this process may set, or None (then: the overlay)."""
    try:
        folders = sorted(root.iterdir())
    except OSError:
        return None
    for folder in folders:
        if os.access(folder / "brightness", os.W_OK):
            try:
                return Backlight(folder)
            except (OSError, ValueError):
                continue
    return None
