"""Everything at the table besides the screen, started with one call by the app.

`start_table_hardware` never raises for a missing or broken device: each part that cannot
work says why in its Status and the game goes on with touch buttons. Statuses reach
`on_status` at once (on the caller's thread) and later from the LED board's worker thread,
so a Kivy app should hand them on with `Clock.schedule_once`.

Only the standard library is imported here: gpiozero and pyserial are imported when a part
starts, so a machine without them gets a status instead of an ImportError.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

from companion.config import Config, GpioConfig, LedBoardConfig
from companion.session import Session
from hardware.status import Status, StatusCallback, StatusKind

log = logging.getLogger(__name__)


class TableHardware:
    """The running buttons, lamps and LED board; `close()` (or `with`) stops them all."""

    def __init__(self, on_status: StatusCallback | None = None) -> None:
        self.on_status = on_status
        self.buttons: Any = None  # hardware.buttons.ButtonPanel
        self.lamps: Any = None  # hardware.lamps.SeatLamps
        self.ledboard: Any = None  # hardware.ledboardhost.LedBoardHost
        self._statuses: dict[str, Status] = {}
        self._lock = threading.Lock()
        self._unsubscribe: list[Callable[[], None]] = []

    @property
    def statuses(self) -> dict[str, Status]:
        """The latest status of each part: {"buttons": ..., "ledboard": ...}."""
        with self._lock:
            return dict(self._statuses)

    def report(self, status: Status) -> None:
        with self._lock:
            self._statuses[status.part] = status
        if self.on_status is not None:
            try:
                self.on_status(status)
            except Exception:
                log.exception("the status callback failed")

    def set_brightness(self, brightness: int) -> None:
        """New LED board brightness (0-255), shown with the next state or heartbeat."""
        if self.ledboard is not None:
            self.ledboard.set_brightness(brightness)

    def close(self) -> None:
        for unsubscribe in self._unsubscribe:
            unsubscribe()
        self._unsubscribe.clear()
        for part in (self.buttons, self.lamps, self.ledboard):
            if part is not None:
                try:
                    part.close()
                except Exception:  # one part failing to close must not keep the others open
                    log.exception("could not close %s", type(part).__name__)
        self.buttons = self.lamps = self.ledboard = None

    def __enter__(self) -> TableHardware:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def start_table_hardware(session: Session, config: Config, *, ledboard_port: str | None = None,
                         on_status: StatusCallback | None = None,
                         pin_factory: Any = None,
                         companion_draws: Callable[[], bool] | None = None,
                         wakes: Callable[[], bool] | None = None) -> TableHardware:
    """Start the SORRY! buttons, their lamps and the LED board for `session`.

    ledboard_port: a serial port to use as the LED board whatever the configuration says
    (`run --ledboard PATH`, e.g. the pseudo-terminal of `sorry-companion ledboard-sim`).
    pin_factory: a gpiozero pin factory (tests); default GPIOZERO_PIN_FACTORY or lgpio.
    companion_draws: during a board game, whether the companion draws the cards (a seat's
    button is then that seat's "Draw").
    wakes: called first on every press; True when the press only woke the resting screen
    (ui/idle.py), and is then not passed to the game.
    """
    hw = TableHardware(on_status)
    _start_buttons(hw, session, config.gpio, pin_factory, companion_draws, wakes)
    _start_ledboard(hw, session, config.ledboard, ledboard_port)
    return hw


def _not_installed(part: str, kind: StatusKind, package: str, section: str,
                   exc: ImportError) -> Status:
    """A part whose library is missing: which one, and the two ways out."""
    return Status(part, kind, f"{package} is not installed ({exc.name}); install it "
                              f"(make venv, or pip install {package}) or set [{section}] "
                              "enabled = false")


def _start_buttons(hw: TableHardware, session: Session, gpio: GpioConfig,
                   pin_factory: Any, companion_draws: Callable[[], bool] | None = None,
                   wakes: Callable[[], bool] | None = None) -> None:
    if not gpio.enabled:
        hw.report(Status("buttons", StatusKind.OFF, "[gpio] enabled = false: touch buttons only"))
        return
    try:
        from hardware.buttons import ButtonPanel
        from hardware.errors import GpioSetupError
        from hardware.pinplan import PinPlanError, plan_pins
        from hardware.presses import PressRouter
    except ImportError as exc:
        hw.report(_not_installed("buttons", StatusKind.TOUCH_ONLY, "gpiozero", "gpio", exc))
        return
    try:
        uses = plan_pins(pins=gpio.pins, lamps=gpio.lamps, undo_pin=gpio.undo_pin,
                         close_pin=gpio.close_pin)
        router = PressRouter(session, companion_draws=companion_draws, wakes=wakes)
        # edge times on the session's own clock: the rules compare them with its windows
        hw.buttons = ButtonPanel(uses, on_press=router, pull_up=gpio.pull_up,
                                 lockout_ms=gpio.lockout_ms, pin_factory=pin_factory,
                                 clock=session.clock)
    except (PinPlanError, GpioSetupError) as exc:
        hw.report(Status("buttons", StatusKind.TOUCH_ONLY, str(exc)))
        return
    detail = hw.buttons.describe()
    if gpio.lamps:
        detail += _start_lamps(hw, session, uses, pin_factory)
    hw.report(Status("buttons", StatusKind.READY, detail))


def _start_lamps(hw: TableHardware, session: Session, uses: Any, pin_factory: Any) -> str:
    """Lamps are a nicety: when they fail the buttons still work. Returns the status tail."""
    from hardware.errors import GpioSetupError
    from hardware.lamps import SeatLamps

    try:
        hw.lamps = SeatLamps(uses, pin_factory=pin_factory)
    except GpioSetupError as exc:
        return f"; lamps off: {exc}"
    hw._unsubscribe.append(hw.lamps.follow(session))
    return "; lamps " + ", ".join(u.name for u in hw.lamps.uses)


def _start_ledboard(hw: TableHardware, session: Session, cfg: LedBoardConfig,
                 ledboard_port: str | None) -> None:
    if not cfg.enabled and not ledboard_port:
        hw.report(Status("ledboard", StatusKind.OFF, "[ledboard] enabled = false"))
        return
    try:
        from hardware.ledboardhost import LedBoardHost
        from hardware.ports import PortConfigError, PortFinder
    except ImportError as exc:
        hw.report(_not_installed("ledboard", StatusKind.GAVE_UP, "pyserial", "ledboard", exc))
        return
    try:
        finder = PortFinder(port=ledboard_port or cfg.port, ids=cfg.ids)
        host = LedBoardHost(ports=finder, looking_for=finder.looking_for, baud=cfg.baud,
                            brightness=cfg.brightness, on_status=hw.report)
    except (PortConfigError, ValueError) as exc:
        hw.report(Status("ledboard", StatusKind.GAVE_UP, str(exc)))
        return
    hw.ledboard = host
    hw.report(host.status)
    hw._unsubscribe.append(host.follow(session))
    host.start()
