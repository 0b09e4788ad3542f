"""Starting the real app from `sorry-companion run`: Kivy's settings must be made before
Kivy is first imported, so this module imports it only inside `launch`."""

from __future__ import annotations

import ctypes.util
import logging
import os
import sys
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.config import on_raspberry_pi
from ui.kivy_settings import drawing_without_x, input_providers, kivy_settings, overridden

WIDTH, HEIGHT = 800, 480
MTDEV_MODULE = "kivy.input.providers.mtdev"
# What Kivy writes into [input] by itself on Linux: replaced by the platform's own choice.
KIVY_DEFAULT_INPUT = {"mouse": "mouse", "%(name)s": "probesysfs"}


def _without_mtdev_provider() -> None:
    """Kivy's input package imports its mtdev provider on every Linux start, and without
    libmtdev (most desktops) that import logs an OSError traceback. The provider cannot
    work without the library anyway: an empty module stands in for it, so the import is
    quiet and the provider simply is not there."""
    if MTDEV_MODULE not in sys.modules:
        stub = types.ModuleType(MTDEV_MODULE, "mtdev is not installed: no mtdev provider")
        sys.modules[MTDEV_MODULE] = stub


def prepare_kivy(*, fullscreen: bool, size: tuple[int, int] = (WIDTH, HEIGHT),
                 rotation: int = 0) -> None:
    """Environment and Config for Kivy, before its window exists: our own argv, Kivy's
    built-in defaults (no config.ini read or written: KIVY_NO_CONFIG while Kivy is first
    imported, so Kivy also logs no "upgrade" from version 0), then only the settings that
    differ from them (ui/kivy_settings.py): a window of `size` (800x480: the Pi's 7-inch
    screen) or full screen at the real screen's size, the picture turned by `rotation`,
    and this platform's input providers. The window may be resized: the screens follow
    its shape (ui/layout.py)."""
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    os.environ.setdefault("KIVY_NO_FILELOG", "1")
    mtdev = ctypes.util.find_library("mtdev") is not None
    if not mtdev:
        _without_mtdev_provider()
    quiet = "KIVY_NO_CONFIG" not in os.environ
    if quiet:
        os.environ["KIVY_NO_CONFIG"] = "1"
        # and without its "Upgrading from 0 to 1" debug line: Kivy's logger shows
        # everything until a config's log_level (info) is read
        logging.getLogger("kivy").setLevel(logging.INFO)
    try:
        from kivy.config import Config
    finally:
        if quiet:
            del os.environ["KIVY_NO_CONFIG"]
    pi = on_raspberry_pi()
    current = dict(Config.items("input"))
    if (current == KIVY_DEFAULT_INPUT or not current) and not overridden("input", ""):
        for option in current:
            Config.remove_option("input", option)
        for option, value in input_providers(pi=pi, mtdev=mtdev).items():
            Config.set("input", option, value)
    without_x = drawing_without_x()
    settings = kivy_settings(fullscreen=fullscreen, size=size, rotation=rotation,
                             kiosk=pi or without_x, without_x=without_x)
    for (section, key), value in settings.items():
        if not overridden(section, key):
            Config.set(section, key, value)


def build_app(
    config: Any,
    data_dir: Path,
    *,
    ledboard_port: str | None = None,
    language: str | None = None,
    start_hardware: bool = True,
    on_ready: Callable[[Any], None] | None = None,
) -> Any:
    """The app on this data_dir: journal opened, settings.json laid over the config."""
    from companion.session import Session
    from ui.prefs import UiSettings, config_with

    data_dir = Path(data_dir)
    data_dir.mkdir(parents=True, exist_ok=True)
    settings = UiSettings.from_config(config).overlaid(data_dir)
    if language:
        from dataclasses import replace

        settings = replace(settings, language=language)
    from ui.app import CompanionApp

    return CompanionApp(
        settings=settings,
        data_dir=data_dir,
        journal=Session.open_journal(data_dir),
        config=config_with(config, settings),
        ledboard_port=ledboard_port,
        start_hardware=start_hardware,
        on_ready=on_ready,
    )


def launch(
    config: Any,
    data_dir: Path,
    *,
    ledboard_port: str | None = None,
    fullscreen: bool | None = None,
    language: str | None = None,
    start_hardware: bool = True,
    on_ready: Callable[[Any], None] | None = None,
) -> int:
    """Run the app until its window closes; returns the exit status."""
    display = getattr(config, "display", None)
    if fullscreen is None:
        fullscreen = bool(getattr(display, "fullscreen", False))
    from companion.session import Session

    data_lock = Session.lock_data_folder(data_dir)  # one app per folder
    try:
        return _run_app(config, data_dir, fullscreen=fullscreen, ledboard_port=ledboard_port,
                        language=language, start_hardware=start_hardware, on_ready=on_ready)
    finally:
        data_lock.release()


def window_size(config: Any) -> tuple[int, int]:
    """`[display] size` (checked by the config reader), else 800x480."""
    from ui.layout import DEFAULT_SIZE, parse_size

    text = getattr(getattr(config, "display", None), "size", "")
    return parse_size(text) if isinstance(text, str) and text else DEFAULT_SIZE


def _run_app(config: Any, data_dir: Path, *, fullscreen: bool, **options: Any) -> int:
    rotation = int(getattr(getattr(config, "display", None), "rotation", 0))
    prepare_kivy(fullscreen=fullscreen, size=window_size(config), rotation=rotation)
    app = build_app(config, data_dir, **options)
    try:
        app.run()
    finally:
        app.shutdown()
        if app.journal is not None:
            app.journal.close()
    return 0
