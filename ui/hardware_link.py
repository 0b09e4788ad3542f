"""The table's SORRY! buttons and LED board as the screen sees them: started once, their
statuses handed over to the Kivy thread, shown in one short line, closed at the end.

`hardware` is imported only here and only when starting, so a machine without gpiozero
or pyserial (or with a broken device) still runs the touch app, saying why.
"""

from __future__ import annotations

import contextlib
from typing import Any

from kivy.clock import Clock
from kivy.event import EventDispatcher
from kivy.properties import StringProperty

from companion.session import Session
from ui.wording import status_text


class HardwareLink(EventDispatcher):
    status = StringProperty("")  # the status line, in `lang`
    lang = StringProperty("en")

    def __init__(
        self,
        session: Session,
        config: Any,
        *,
        board_port: str | None,
        enabled: bool,
        **kwargs: Any,
    ) -> None:
        self.session = session
        self.config = config
        self.board_port = board_port
        self.enabled = enabled
        self.hardware: Any = None
        self._parts: dict[str, tuple[str, str]] = {}  # part: (kind, detail)
        # a board game: whether the companion draws (seat buttons are then "Draw")
        self.board_draws: Any = lambda: False
        super().__init__(**kwargs)  # after the fields: `lang=` fires on_lang

    def start(self) -> None:
        """Buttons and LED board if this machine has them; else touch only, saying why."""
        if not self.enabled:
            self._set("hardware", "touch only", "--no-hardware")
            return
        try:
            from hardware import start_table_hardware

            self.hardware = start_table_hardware(
                self.session,
                self.config,
                board_port=self.board_port,
                on_status=self._from_hardware_thread,
                board_draws=self.board_draws,
            )
        except Exception as exc:  # any failure here must leave a playable touch app
            self._set("hardware", "touch only", str(exc) or type(exc).__name__)

    def _from_hardware_thread(self, status: Any) -> None:
        """A hardware.Status, called from hardware threads: hand it to the Kivy thread."""
        part = str(getattr(status, "part", "hardware"))
        kind = str(getattr(getattr(status, "kind", None), "value", status))
        detail = str(getattr(status, "detail", ""))
        Clock.schedule_once(lambda _dt: self._set(part, kind, detail), -1)

    def _set(self, part: str, kind: str, detail: str) -> None:
        self._parts[part] = (kind, detail)
        self.on_lang()

    def on_lang(self, *_: Any) -> None:
        self.status = "  ·  ".join(
            status_text(part, kind, detail, self.lang)
            for part, (kind, detail) in self._parts.items()
        )

    def set_brightness(self, brightness: int) -> None:
        """The LED board's new brightness, from the settings screen."""
        if self.hardware is not None and hasattr(self.hardware, "set_brightness"):
            self.hardware.set_brightness(brightness)

    def close(self) -> None:
        hardware, self.hardware = self.hardware, None
        if hardware is not None:
            with contextlib.suppress(Exception):  # a broken device must not stop the exit
                hardware.close()
