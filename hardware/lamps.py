"""Lamps in the SORRY! buttons: lit for the players whose press counts now (the open
game's face says which: hardware.faces; a game without one leaves them dark).

The session's listener only puts (lit seats, winner) in a one-slot mailbox; a worker
thread drives the LEDs, so pin writes never run under the session's lock. The winner's
lamp flashes (gpiozero's own blink thread).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from typing import Any

from gpiozero import LED

from companion.session import AnyUpdate, Session
from hardware import faces
from hardware.buttons import pin_factory_or_default
from hardware.errors import GpioSetupError
from hardware.faces.face import DARK, LampState
from hardware.mailbox import Latest
from hardware.pinplan import PinUse, explain_gpio_error

BLINK_S = 0.25
log = logging.getLogger(__name__)


def lamps_for(update: AnyUpdate | None) -> LampState:
    """The lamps for `update`, from its game's face; dark with no game or no face."""
    if update is None:
        return DARK
    face = faces.get(update.game)
    return DARK if face is None else face.lamps(update)


class SeatLamps:
    def __init__(self, uses: Sequence[PinUse], *, pin_factory: Any = None,
                 on_shown: Callable[[LampState], None] | None = None) -> None:
        self.uses = tuple(u for u in uses if u.kind == "lamp")
        self.on_shown = on_shown
        factory = pin_factory_or_default(pin_factory)
        self.leds: list[LED] = []
        try:
            for use in self.uses:
                self.leds.append(LED(use.pin, pin_factory=factory))
        except Exception as exc:
            failed = self.uses[len(self.leds)]
            self._close_leds()
            raise GpioSetupError(explain_gpio_error(exc, failed)) from exc
        self._modes = ["off"] * len(self.leds)
        self._latest: Latest[LampState] = Latest()
        self._thread = threading.Thread(target=self._run, name="seat-lamps", daemon=True)
        self._thread.start()

    def show(self, lamps: LampState) -> None:
        """Ask for these lamps; returns at once (safe under the session's lock)."""
        self._latest.put(lamps)

    def follow(self, session: Session) -> Callable[[], None]:
        """Keep the lamps in step with `session`; returns the unsubscribe function."""
        self.show(lamps_for(session.update))

        def on_update(update: AnyUpdate) -> None:
            self.show(lamps_for(update))

        return session.subscribe(on_update)

    def _run(self) -> None:
        while not self._latest.closed:
            fresh, lamps = self._latest.take(None)
            if fresh and lamps is not None and not self._latest.closed:
                try:
                    self._apply(lamps)
                except Exception:  # a lamp that fails must not end the lamps for good
                    log.exception("could not set the button lamps")

    def _apply(self, lamps: LampState) -> None:
        for seat, led in enumerate(self.leds):
            mode = lamps.mode(seat)
            if mode == self._modes[seat]:
                continue
            if mode == "blink":
                led.blink(on_time=BLINK_S, off_time=BLINK_S)
            elif mode == "on":
                led.on()
            else:
                led.off()
            self._modes[seat] = mode
        if self.on_shown is not None:
            self.on_shown(lamps)

    def _close_leds(self) -> None:
        for led in self.leds:
            led.close()
        self.leds = []

    def close(self) -> None:
        self._latest.close()
        if threading.current_thread() is not self._thread:
            self._thread.join(timeout=2)
        self._close_leds()

    def __enter__(self) -> SeatLamps:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
