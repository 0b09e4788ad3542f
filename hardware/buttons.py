"""The SORRY! buttons: one gpiozero Button per seat, plus optional undo and close buttons.

Fairness comes first. gpiozero's own debounce is off (bounce_time=None), because on lgpio
it reports an edge only once the line has settled, delaying every press; our Lockout
accepts the first edge at once instead. Each press carries its edge's own time
(EdgeClock), so the engine can pick the earliest even when callbacks run out of order.

Callbacks run on the pin factory's thread (lgpio's notification thread; the caller's
thread for mock pins), never on the UI thread, and hand the press straight on.
"""

from __future__ import annotations

import logging
import threading
import time
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from gpiozero import Button, Device

from hardware.edgeclock import EdgeClock
from hardware.errors import GpioSetupError
from hardware.lockout import Lockout
from hardware.pinplan import PinUse, explain_gpio_error, factory_name

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class ButtonPress:
    """A press that counts: which button, and its edge time on time.monotonic()."""

    use: PinUse
    t: float


EdgeHandler = Callable[[Any, bool], None]


class EdgeButton(Button):
    """A gpiozero Button that reports every edge, press or release, with the edge's ticks.

    `when_pressed` tells neither the edge's time nor the release edges a lockout needs;
    `_fire_events(ticks, active)` is gpiozero's documented hook for both.
    """

    def __init__(self, pin: int, *, on_edge: EdgeHandler, pull_up: bool = True,
                 pin_factory: Any = None) -> None:
        self._on_edge: EdgeHandler | None = None
        # hold_time: nothing here uses "held", and a short one lets close() return quickly
        # while a button is still down (gpiozero's hold thread waits that long).
        super().__init__(pin, pull_up=pull_up, bounce_time=None, hold_time=0.1,
                         pin_factory=pin_factory)
        self._on_edge = on_edge

    def _fire_events(self, ticks: Any, new_active: bool) -> None:
        was = self._last_active
        super()._fire_events(ticks, new_active)
        handler = self._on_edge
        if handler is not None and was is not None and was != new_active:
            handler(ticks, new_active)


def pin_factory_or_default(pin_factory: Any = None) -> Any:
    """The factory to use: the one given, or gpiozero's default (GPIOZERO_PIN_FACTORY)."""
    if pin_factory is not None:
        return pin_factory
    with warnings.catch_warnings(record=True) as fallbacks:  # why each factory failed
        warnings.simplefilter("always")
        try:
            Device.ensure_pin_factory()
        except Exception as exc:  # BadPinFactory, ImportError, lgpio.error: all mean "no GPIO"
            why = "; ".join(str(w.message) for w in fallbacks)
            log.info("no GPIO pin factory: %s (%s)", exc, why)
            raise GpioSetupError(explain_gpio_error(exc, tried=why)) from exc
    for w in fallbacks:
        log.info("%s", w.message)
    return Device.pin_factory


class ButtonPanel:
    """The table's buttons: accepted presses go to `on_press(ButtonPress)`.

    >>> from gpiozero.pins.mock import MockFactory
    >>> from hardware.pinplan import plan_pins
    >>> presses = []
    >>> with ButtonPanel(plan_pins(pins=[17]), on_press=presses.append,
    ...                  pin_factory=MockFactory()) as panel:
    ...     panel.pin(0).drive_low()
    >>> [p.use.role for p in presses]
    ['seat 1 button']
    """

    def __init__(self, uses: Sequence[PinUse], *, on_press: Callable[[ButtonPress], object],
                 pull_up: bool = True, lockout_ms: float = 50.0, pin_factory: Any = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.uses = tuple(u for u in uses if u.kind == "button")
        self.on_press = on_press
        self.factory = pin_factory_or_default(pin_factory)
        self.edge_clock = EdgeClock(self.factory, clock=clock)
        self.lockouts = [Lockout(lockout_ms / 1000) for _ in self.uses]
        self.buttons: list[EdgeButton] = []
        try:
            for use, lockout in zip(self.uses, self.lockouts, strict=True):
                self.buttons.append(EdgeButton(
                    use.pin, pull_up=pull_up, pin_factory=self.factory,
                    on_edge=self._edge_handler(use, lockout)))
        except Exception as exc:
            failed = self.uses[len(self.buttons)]
            self.close()
            raise GpioSetupError(explain_gpio_error(exc, failed)) from exc

    def _edge_handler(self, use: PinUse, lockout: Lockout) -> EdgeHandler:
        def on_edge(ticks: Any, pressed: bool) -> None:
            t = self.edge_clock.to_monotonic(ticks)
            if not lockout.edge(t, pressed):
                return
            try:
                self.on_press(ButtonPress(use, t))
            except Exception:  # the pin factory's thread must survive anything
                log.exception("the %s press could not be handled", use.role)
        return on_edge

    def pin(self, index: int) -> Any:
        """The gpiozero pin of the index-th button (tests and `doctor` drive mock pins)."""
        return self.buttons[index].pin

    def describe(self) -> str:
        """"lgpio: seat 1 GPIO17, ...": which factory and pins, for the status line."""
        pins = ", ".join(f"{u.role.removesuffix(' button')} {u.name}" for u in self.uses)
        return f"{factory_name(self.factory)} pins, buttons {pins}"

    def close(self) -> None:
        """Release the pins. gpiozero's Button.close joins the button's hold thread, which
        wakes every 0.1 s; closing the buttons side by side costs that once, not per button."""
        closers = [threading.Thread(target=b.close, name="button-close") for b in self.buttons]
        for closer in closers:
            closer.start()
        for closer in closers:
            closer.join()
        self.buttons = []

    def __enter__(self) -> ButtonPanel:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
