"""Starting the real app from `sorry-companion run`: Kivy's settings must be made before
Kivy is first imported, so this module imports it only inside `launch`."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

WIDTH, HEIGHT = 800, 480


def prepare_kivy(*, fullscreen: bool) -> None:
    """Environment and Config for Kivy: our own argv, an 800x480 window (the Pi's
    7-inch screen) or full screen, and no red multitouch dots from the mouse."""
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    os.environ.setdefault("KIVY_NO_FILELOG", "1")
    from kivy.config import Config

    Config.set("graphics", "width", str(WIDTH))
    Config.set("graphics", "height", str(HEIGHT))
    Config.set("graphics", "resizable", "0")
    Config.set("graphics", "fullscreen", "auto" if fullscreen else "0")
    Config.set("graphics", "multisamples", "0")  # big flat shapes need no antialiasing
    Config.set("input", "mouse", "mouse,multitouch_on_demand")
    Config.set("kivy", "exit_on_escape", "0")


def build_app(
    config: Any,
    data_dir: Path,
    *,
    board_port: str | None = None,
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
        board_port=board_port,
        start_hardware=start_hardware,
        on_ready=on_ready,
    )


def launch(
    config: Any,
    data_dir: Path,
    *,
    board_port: str | None = None,
    fullscreen: bool | None = None,
    language: str | None = None,
    start_hardware: bool = True,
    on_ready: Callable[[Any], None] | None = None,
) -> int:
    """Run the app until its window closes; returns the exit status."""
    display = getattr(config, "display", None)
    if fullscreen is None:
        fullscreen = bool(getattr(display, "fullscreen", False))
    prepare_kivy(fullscreen=fullscreen)
    app = build_app(
        config,
        data_dir,
        board_port=board_port,
        language=language,
        start_hardware=start_hardware,
        on_ready=on_ready,
    )
    try:
        app.run()
    finally:
        app.shutdown()
        if app.journal is not None:
            app.journal.close()
    return 0
