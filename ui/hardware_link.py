"""The table's SORRY! buttons and LED board as the screen sees them: started once, their
statuses handed over to the Kivy thread (coalesced: a few a second at most), shown in a
few words on the status line and in full (with what to fix, from the doctor's checks) on
the Hardware page, closed at the end.

`hardware` is imported only here and only when starting, so a machine without gpiozero
or pyserial (or with a broken device) still runs the touch app, saying why.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from kivy.clock import Clock
from kivy.event import EventDispatcher
from kivy.properties import StringProperty

from companion.config import Config
from companion.session import Session
from ui.wording import status_text

if TYPE_CHECKING:
    from hardware.presses import Refusal


class HardwareLink(EventDispatcher):
    status = StringProperty("")  # the status line, in `lang`
    lang = StringProperty("en")

    def __init__(
        self,
        session: Session,
        config: Any,
        *,
        ledboard_port: str | None,
        enabled: bool,
        **kwargs: Any,
    ) -> None:
        self.session = session
        self.config = config
        self.ledboard_port = ledboard_port
        self.enabled = enabled
        self.hardware: Any = None
        self._parts: dict[str, tuple[str, str]] = {}  # part: (kind, detail)
        # the screen rests (ui/idle.py): True when a press only woke it
        self.wakes: Any = None
        # a press the game refused, on the Kivy thread: the screen says why (ui.app)
        self.on_refused: Callable[[Refusal], None] | None = None
        super().__init__(**kwargs)  # after the fields: `lang=` fires on_lang

    def start(self) -> None:
        """Buttons and LED board if this machine has them; else touch only, saying why."""
        if not self.enabled:
            self._set("hardware", "off", "")  # the page says why (--no-hardware)
            return
        try:
            from hardware import start_table_hardware
            from hardware.status import StatusRelay

            self.hardware = start_table_hardware(
                self.session,
                self.config,
                ledboard_port=self.ledboard_port,
                on_status=StatusRelay(self._set_all, _on_kivy_thread),
                wakes=self.wakes,
                on_refused=self._refused_on_hardware_thread,
            )
        except Exception as exc:  # any failure here must leave a playable touch app
            self._set("hardware", "gave up", str(exc) or type(exc).__name__)

    def _set_all(self, statuses: list[Any]) -> None:
        """hardware.Status changes, coalesced by hardware.status.StatusRelay and handed
        over on the Kivy thread: a few a second at most, each part's latest always."""
        for status in statuses:
            self._parts[status.part] = (status.kind.value, status.detail)
        self.on_lang()

    def _refused_on_hardware_thread(self, refusal: Refusal) -> None:
        """A refused press, on the GPIO thread: hand it to the Kivy thread."""
        Clock.schedule_once(lambda _dt: self._refused(refusal), -1)

    def _refused(self, refusal: Refusal) -> None:
        if self.on_refused is not None:
            self.on_refused(refusal)

    def _set(self, part: str, kind: str, detail: str) -> None:
        self._parts[part] = (kind, detail)
        self.on_lang()

    def on_lang(self, *_: Any) -> None:
        self.status = "  ·  ".join(
            status_text(part, kind, detail, self.lang)
            for part, (kind, detail) in self._parts.items()
        )

    def checks(self, lang: str) -> list[dict[str, str]]:
        """The Hardware page's rows (name, result, detail, fix) in `lang`, from the
        doctor's checks: the buttons and LED board as they are now, the configuration,
        voice and display."""
        from hardware.doctor import app_checks

        config = self.config if isinstance(self.config, Config) else Config()
        statuses = dict(self._parts)
        whole = statuses.pop("hardware", None)  # not started at all: both parts say why
        return [
            {"name": c.name, "result": c.result, "detail": c.detail_in(lang),
             "fix": c.fix_in(lang)}
            for c in app_checks(config, statuses, not_started=whole)
        ]

    def set_brightness(self, brightness: int) -> None:
        """The LED board's new brightness, from the settings screen."""
        if self.hardware is not None and hasattr(self.hardware, "set_brightness"):
            self.hardware.set_brightness(brightness)

    def close(self) -> None:
        hardware, self.hardware = self.hardware, None
        if hardware is not None:
            with contextlib.suppress(Exception):  # a broken device must not stop the exit
                hardware.close()


def _on_kivy_thread(run: Any, delay: float) -> None:
    """StatusRelay's schedule: `run()` on the Kivy thread after `delay` s (0: before the
    next frame)."""
    Clock.schedule_once(lambda _dt: run(), delay if delay > 0 else -1)
