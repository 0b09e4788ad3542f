"""Where the LED board is: a configured port, or a USB serial port with a known VID:PID."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from serial.tools import list_ports
from serial.tools.list_ports_common import ListPortInfo

from hardware.errors import HardwareConfigError

PICO_MICROPYTHON = "2E8A:0005"


class PortConfigError(HardwareConfigError):
    """A configured USB id or port cannot work; the message names it and the fix."""


def parse_usb_id(text: str) -> tuple[int, int]:
    """"2E8A:0005" -> (0x2E8A, 0x0005)."""
    vid, sep, pid = str(text).strip().partition(":")
    try:
        if not sep or len(vid) != 4 or len(pid) != 4:
            raise ValueError
        return int(vid, 16), int(pid, 16)
    except ValueError:
        raise PortConfigError(f"ledboard.ids has {text!r}, which is not a USB id; write it "
                              'as four hex digits, a colon and four more, e.g. "2E8A:0005"'
                              ) from None


def matching_ports(ports: Iterable[ListPortInfo], ids: Sequence[tuple[int, int]]) -> list[str]:
    """Device paths of the ports whose VID:PID is one of `ids`, in a stable order."""
    wanted = set(ids)
    return sorted(p.device for p in ports if (p.vid, p.pid) in wanted)


@dataclass(frozen=True)
class PortFinder:
    """Called once a second while no board is connected: the ports worth trying now."""

    port: str = ""
    ids: tuple[str, ...] = (PICO_MICROPYTHON,)
    list_ports: Callable[[], Iterable[ListPortInfo]] = field(default=list_ports.comports)

    def __post_init__(self) -> None:
        for text in self.ids:
            parse_usb_id(text)

    def __call__(self) -> list[str]:
        if self.port:
            return [self.port] if os.path.exists(self.port) else []
        return matching_ports(self.list_ports(), [parse_usb_id(i) for i in self.ids])

    @property
    def looking_for(self) -> str:
        if self.port:
            return f"no board at {self.port} (ledboard.port)"
        return f"no USB board with id {' or '.join(self.ids)} is plugged in"
