"""Menu > Back up, Menu > Turn off, and the version line the menu shows.

Back up copies every game (and the choices) to the first USB stick found in
`[backup] usb_folders` with the same backup as `sorry-companion backup` (companion/backup.py),
on a thread of its own (a stick syncs slowly), and says where it wrote, or that no stick is
there. Turn off asks first, lets the journal writer finish, then calls
`companion.system.poweroff` (`systemctl poweroff`, allowed to the service user by one
polkit rule that deploy/install.sh installs); in a desktop's window (not the table's own
machine) it says it cannot and how to stop instead. Every outcome is one sentence,
handed to `say` (on the Kivy thread).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from kivy.clock import Clock

from companion import system
from companion.backup import BackupRefused, make_backup, usb_stick
from companion.config import Config, on_raspberry_pi
from companion.version import running_version, waiting_update
from ui.abandon import ConfirmView
from ui.i18n import tr
from ui.kivy_settings import drawing_without_x

FLUSH_FIRST_S = 5.0  # the journal writer's last events are written first: a backup, a power-off
Say = Callable[[str], None]


def version_text(lang: str) -> str:
    """Which version runs, and an update waiting for the next start (companion.version)."""
    waiting = waiting_update()
    if waiting:
        return tr("version_waiting", lang, version=running_version(), update=waiting)
    return tr("version_running", lang, version=running_version())


def _config(app: Any) -> Config:
    config = app.link.config
    return config if isinstance(config, Config) else Config()


def _write_pending(app: Any) -> None:
    """Wait (at most FLUSH_FIRST_S) for the journal writer's queued events: a tap's write
    starts APP_WRITE_SETTLE_S after it (companion.session)."""
    writer = app.session.writer
    if writer is not None:
        writer.flush(FLUSH_FIRST_S)


def back_up_to_stick(app: Any, say: Say) -> threading.Thread | None:
    """Start copying every game to the USB stick; the result is said when it is done."""
    config = _config(app)
    lang = app.lang
    stick = usb_stick(config.backup.usb_folders)
    if stick is None:
        say(tr("backup_no_stick", lang))
        return None
    say(tr("backup_running", lang, stick=str(stick)))

    def work() -> None:
        _write_pending(app)  # the last taps' events are in the copy
        try:
            done = make_backup(app.data_dir, stick, config_file=config.source)
            text = tr("backup_done", lang, games=done.games, path=str(done.path))
        except BackupRefused as exc:
            text = tr("backup_failed", lang, why=str(exc))
        Clock.schedule_once(lambda _dt: say(text), -1)

    thread = threading.Thread(target=work, name="usb-backup", daemon=True)
    thread.start()
    return thread


def the_tables_machine() -> bool:
    """A Pi, or any machine where the app draws straight on the screen (the installed
    service: SDL's KMS/DRM driver, no desktop), such as the emulated arm64 machine of
    `make pi-vm`: there is no window to close there, and install.sh's polkit rule allows
    the power-off. A desktop's window is the one place that cannot turn off."""
    return on_raspberry_pi() or drawing_without_x()


def ask_turn_off(app: Any, say: Say) -> ConfirmView | None:
    """Ask, then turn the table off; in a desktop's window, say it cannot (and how to stop)."""
    lang = app.lang
    if not the_tables_machine():
        say(tr("power_not_pi", lang))
        return None

    def turn_off() -> None:
        _write_pending(app)  # every event on the card before the power goes
        try:
            system.poweroff()
            say(tr("power_going", lang))
        except system.PowerOffError as exc:
            say(tr("power_refused", lang, why=str(exc)))

    view = ConfirmView(tr("confirm_power_off", lang), tr("power_keep", lang),
                       tr("power_off", lang), on_give_up=turn_off, on_keep=lambda: None)
    view.open(animation=False)
    return view
