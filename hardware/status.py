"""How each part of the table hardware is doing, in words the screen can show as they are."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum


class StatusKind(StrEnum):
    OFF = "off"  # switched off in the configuration
    READY = "ready"  # buttons: working
    TOUCH_ONLY = "touch only"  # buttons: none work, play with the touch screen
    ABSENT = "absent"  # LED board: none found
    CONNECTED = "connected"  # LED board: talking to it
    RECONNECTING = "reconnecting"  # LED board: lost or not answering, rescanning
    GAVE_UP = "gave up"  # LED board: found one that cannot work (wrong protocol)


@dataclass(frozen=True, slots=True)
class Status:
    """One part's status: `str(status)` is the sentence to show, e.g. "connected E661A4"."""

    part: str  # "buttons" or "ledboard"
    kind: StatusKind
    detail: str = ""

    @property
    def ok(self) -> bool:
        """True when the part works as configured (or is off on purpose)."""
        return self.kind in (StatusKind.READY, StatusKind.CONNECTED, StatusKind.OFF)

    def __str__(self) -> str:
        if not self.detail:
            return self.kind.value
        sep = " " if self.kind is StatusKind.CONNECTED else ": "
        return f"{self.kind.value}{sep}{self.detail}"


StatusCallback = Callable[[Status], None]
