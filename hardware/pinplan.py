"""Which GPIO pin does what, checked before any pin is touched, and GPIO errors in words.

Every refusal is one sentence naming the pin and the fix, because it is shown on the
table's screen ("touch only: ...") and by `sorry-companion doctor`, never as a traceback.
"""

from __future__ import annotations

import glob
import os
from collections.abc import Sequence
from dataclasses import dataclass

from companion.config import BCM_PINS, first_reuse, lamps_fit
from companion.seats import MAX_SEATS
from hardware.errors import HardwareConfigError


class PinPlanError(HardwareConfigError):
    """The configured pins cannot work; the message says which pin and what to change."""


@dataclass(frozen=True, slots=True)
class PinUse:
    pin: int
    role: str  # "seat 1 button", "seat 2 lamp", "undo button", "close button"
    kind: str  # "button" or "lamp"
    seat: int | None = None

    @property
    def name(self) -> str:
        return f"GPIO{self.pin}"


def plan_pins(*, pins: Sequence[int], lamps: Sequence[int] = (), undo_pin: int | None = None,
              close_pin: int | None = None) -> tuple[PinUse, ...]:
    """Every pin with its role; PinPlanError for a bad number or a pin used twice."""
    if not pins:
        raise PinPlanError("gpio.pins lists no pins; give one BCM pin per seat, "
                           "e.g. pins = [17, 27, 22, 23]")
    if len(pins) > MAX_SEATS:
        raise PinPlanError(f"gpio.pins lists {len(pins)} pins but the game has at most "
                           f"{MAX_SEATS} seats; give one pin per seat")
    if not lamps_fit(pins, lamps):
        raise PinPlanError(f"gpio.lamps lists {len(lamps)} pins for {len(pins)} buttons; "
                           "give one lamp pin per seat, or none")
    uses = [PinUse(p, f"seat {i + 1} button", "button", i) for i, p in enumerate(pins)]
    uses += [PinUse(p, f"seat {i + 1} lamp", "lamp", i) for i, p in enumerate(lamps)]
    if undo_pin is not None:
        uses.append(PinUse(undo_pin, "undo button", "button"))
    if close_pin is not None:
        uses.append(PinUse(close_pin, "close button", "button"))
    for use in uses:
        if isinstance(use.pin, bool) or not isinstance(use.pin, int) or use.pin not in BCM_PINS:
            raise PinPlanError(f"pin {use.pin!r} for the {use.role} is not a GPIO pin on the "
                               f"Pi's header; use a BCM number from 0 to {BCM_PINS[-1]}")
    reuse = first_reuse((use.role, use.pin) for use in uses)
    if reuse is not None:
        first, second, pin = reuse
        raise PinPlanError(f"GPIO{pin} is used twice, for the {first} and the {second}; "
                           "give each its own pin in [gpio]")
    return tuple(uses)


def explain_gpio_error(exc: BaseException, use: PinUse | None = None, *, tried: str = "") -> str:
    """One sentence for a gpiozero/lgpio failure, naming the pin and the fix.

    tried: why each default pin factory failed (gpiozero's fallback warnings), where a
    permission problem on /dev/gpiochip* hides behind a final "no pin factory".
    """
    what = f"{use.name} ({use.role})" if use else "GPIO"
    name = type(exc).__name__
    text = str(exc)
    if _permission_problem(tried):
        return _permission_message(what)
    if name == "BadPinFactory" or isinstance(exc, ImportError):
        return ("no GPIO pin factory works here; on a Raspberry Pi install python3-lgpio "
                "(sudo apt install python3-lgpio), elsewhere set GPIOZERO_PIN_FACTORY=mock")
    if name == "GPIOPinInUse":
        return (f"{what} is already in use by another program or device; stop it or choose "
                "another pin in [gpio]")
    if name == "PinInvalidPin":
        return f"{what} does not exist on this board; choose a BCM number from 0 to 27"
    if name == "PinFixedPull":
        return (f"{what} has a fixed pull-up resistor (an I2C pin), so it cannot be used with "
                "pull_up = false; choose another pin")
    if isinstance(exc, PermissionError) or _permission_problem(text) or _no_chip_access():
        return _permission_message(what)
    return f"{what} could not be set up ({name}: {text}); check the wiring and [gpio]"


def _permission_problem(text: str) -> bool:
    lowered = text.lower()
    return "gpiochip" in lowered or "permission denied" in lowered


def _permission_message(what: str) -> str:
    chip = _chips()[0] if _chips() else "/dev/gpiochip0"
    return (f"no permission to use {chip} for {what}; add the user to the gpio group "
            "(sudo usermod -aG gpio $USER) and log in again")


def _chips() -> list[str]:
    return sorted(glob.glob("/dev/gpiochip*"))


def _no_chip_access() -> bool:
    chips = _chips()
    return bool(chips) and not any(os.access(c, os.R_OK | os.W_OK) for c in chips)


def factory_name(factory: object) -> str:
    """"lgpio", "mock", "rpigpio": the factory's module name, as GPIOZERO_PIN_FACTORY has it."""
    for cls in type(factory).__mro__:  # a subclass is named after the factory it extends
        if cls.__module__.startswith("gpiozero.pins."):
            return cls.__module__.rsplit(".", 1)[-1]
    return type(factory).__name__
