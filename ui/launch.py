"""Starting the real app from `sorry-companion run`: Kivy's settings must be made before
Kivy is first imported, so this module imports it only inside `launch`."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

WIDTH, HEIGHT = 800, 480


def prepare_kivy(*, fullscreen: bool, size: tuple[int, int] = (WIDTH, HEIGHT)) -> None:
    """Environment and Config for Kivy: our own argv, a window of `size` (800x480: the
    Pi's 7-inch screen) or full screen at the real screen's size, and no red multitouch
    dots from the mouse. The window may be resized: the screens follow its shape
    (ui/layout.py)."""
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    os.environ.setdefault("KIVY_NO_FILELOG", "1")
    from kivy.config import Config

    Config.set("graphics", "width", str(size[0]))
    Config.set("graphics", "height", str(size[1]))
    Config.set("graphics", "resizable", "1")
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
    from companion.session import Session

    data_lock = Session.lock_data_folder(data_dir)  # one app per folder
    try:
        return _run_app(config, data_dir, fullscreen=fullscreen, board_port=board_port,
                        language=language, start_hardware=start_hardware, on_ready=on_ready)
    finally:
        data_lock.release()


def window_size(config: Any) -> tuple[int, int]:
    """`[display] size` (checked by the config reader), else 800x480."""
    from ui.layout import DEFAULT_SIZE, parse_size

    text = getattr(getattr(config, "display", None), "size", "")
    return parse_size(text) if isinstance(text, str) and text else DEFAULT_SIZE


def _run_app(config: Any, data_dir: Path, *, fullscreen: bool, **options: Any) -> int:
    prepare_kivy(fullscreen=fullscreen, size=window_size(config))
    app = build_app(config, data_dir, **options)
    try:
        app.run()
    finally:
        app.shutdown()
        if app.journal is not None:
            app.journal.close()
    return 0
