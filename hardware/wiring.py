"""Every wire from the Pi's header to the table's parts, worked out from the pin plan.

The guide's wiring tables and the wiring diagram (hardware/wiring_diagram.py) are both
made from `wires()`, and `plan_pins` (the code the app runs) decides which GPIO does what,
so a changed default pin changes the pictures and the tables with it; a test regenerates
them and fails when a committed copy differs.

Each button gets a ground pin of its own, the nearest free one, so that every button is a
two-wire lead; all the GND pins are joined on the board, so any of them would do.

>>> [(w.part, w.terminal, w.pin) for w in wires() if w.part == "seat 1 button"]
[('seat 1 button', 'NO', 11), ('seat 1 button', 'COM', 9)]
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from companion.config import GpioConfig
from hardware.header import GROUND, distance, header_pin, pin_name
from hardware.pinplan import PinUse, plan_pins

# The full table the guide shows: the default buttons, plus the lamps and the two extra
# buttons at the pins the guide suggests (write these in [gpio] to use them).
GUIDE_GPIO = GpioConfig(lamps=(5, 6, 13, 19), undo_pin=24, close_pin=25)
SCREEN_5V, SCREEN_GND = 2, 6  # the screen's power lead (Touch Display 2: these two only)
LAMPS_5V = 4  # the header's other 5 V pin: the lamps' + and the ULN2803A's COM
# ULN2803A (DIP-18): input n on pin n, its output on pin 19 - n, GND pin 9, COM pin 10
ULN_GND, ULN_COM = 9, 10
BUTTON_COLOURS = ("red", "blue", "yellow", "green")  # seat order, as the board game's seats


@dataclass(frozen=True, slots=True)
class Wire:
    """One lead: from header pin `pin` to `terminal` of `part`."""

    pin: int
    part: str  # "seat 1 button", "undo button", "ULN2803A", "screen"
    terminal: str  # "NO", "COM", "pin 1 (input 1)", "5 V"
    note: str = ""  # what it is for, when the part does not say: "seat 1 lamp"

    @property
    def pin_label(self) -> str:
        """ "pin 11 (GPIO17)", as a person counting holes and a config reader both say it."""
        return f"pin {self.pin} ({pin_name(self.pin)})"


def uln_input(seat: int) -> int:
    """The ULN2803A pin taking seat `seat`'s lamp signal (seat 0: pin 1)."""
    return seat + 1


def uln_output(seat: int) -> int:
    """The ULN2803A pin switching seat `seat`'s lamp − (input 1's output is pin 18)."""
    return 19 - uln_input(seat)


def plan(gpio: GpioConfig = GUIDE_GPIO) -> tuple[PinUse, ...]:
    return plan_pins(pins=gpio.pins, lamps=gpio.lamps, undo_pin=gpio.undo_pin,
                     close_pin=gpio.close_pin)


def wires(gpio: GpioConfig = GUIDE_GPIO) -> tuple[Wire, ...]:
    """Every lead from the header, buttons first (each with its own ground), then the
    lamps' driver chip, then the screen's power."""
    uses = plan(gpio)
    free = [g for g in GROUND if g != SCREEN_GND]
    out: list[Wire] = []
    lamps = [u for u in uses if u.kind == "lamp"]
    for use in (u for u in uses if u.kind == "button"):
        pin = header_pin(use.pin)
        ground = min(free, key=lambda g: (distance(pin, g), g))
        free.remove(ground)
        out += [Wire(pin, use.role, "NO"), Wire(ground, use.role, "COM")]
    if lamps:
        out += [Wire(header_pin(u.pin), "ULN2803A", f"pin {uln_input(u.seat or 0)}",
                     f"seat {(u.seat or 0) + 1} lamp") for u in lamps]
        out += [Wire(free[-1], "ULN2803A", f"pin {ULN_GND} (GND)"),
                Wire(LAMPS_5V, "lamps", "+ (and ULN2803A pin 10, COM)")]
    out += [Wire(SCREEN_5V, "screen", "5 V (red)"), Wire(SCREEN_GND, "screen", "GND (black)")]
    return tuple(out)


def _rows(gpio: GpioConfig) -> Iterator[tuple[str, ...]]:
    uses = {u.role: u for u in plan(gpio)}
    by_part: dict[str, dict[str, Wire]] = {}
    for wire in wires(gpio):
        by_part.setdefault(wire.part, {})[wire.terminal] = wire
    for role, use in uses.items():
        if use.kind != "button":
            continue
        leads = by_part[role]
        key = (f"`pins[{use.seat}]`" if use.seat is not None
               else f"`{role.split()[0]}_pin = {use.pin}`")
        yield (role, f"GPIO{use.pin}", f"{leads['NO'].pin}", f"{leads['COM'].pin}", key)


def button_table(gpio: GpioConfig = GUIDE_GPIO) -> str:
    """The buttons' Markdown table: the switch's NO to the GPIO pin, COM to a GND pin."""
    head = ("| button | GPIO (BCM) | switch's NO to header pin | switch's COM to header "
            "pin (GND) | config key |\n|---|---|---|---|---|")
    return "\n".join([head, *("| " + " | ".join(r) + " |" for r in _rows(gpio))])


def lamp_table(gpio: GpioConfig = GUIDE_GPIO) -> str:
    """The lamps' Markdown table: GPIO pin to the chip's input, its output to the lamp's −."""
    lamps = [u for u in plan(gpio) if u.kind == "lamp"]
    head = ("| lamp | GPIO (BCM) | header pin | to ULN2803A input | ULN2803A output to the "
            "lamp's − |\n|---|---|---|---|---|")
    rows = [f"| {u.role} | GPIO{u.pin} | {header_pin(u.pin)} | pin {uln_input(u.seat or 0)} "
            f"| pin {uln_output(u.seat or 0)} |" for u in lamps]
    return "\n".join([head, *rows])


def power_table(gpio: GpioConfig = GUIDE_GPIO) -> str:
    """The other leads: the chip's ground, the lamps' 5 V, the screen's power."""
    rows = [w for w in wires(gpio) if w.part in ("ULN2803A", "lamps", "screen") and not w.note]
    head = "| header pin | goes to |\n|---|---|"
    return "\n".join([head, *(f"| {w.pin_label} | {w.part}: {w.terminal} |" for w in rows)])
