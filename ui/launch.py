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

WIDTH, HEIGHT = 800, 480
MTDEV_MODULE = "kivy.input.providers.mtdev"
# What Kivy writes into [input] by itself on Linux: replaced by the platform's own choice.
KIVY_DEFAULT_INPUT = {"mouse": "mouse", "%(name)s": "probesysfs"}


def kivy_config_file() -> Path:
    """Where Kivy keeps its own config.ini: $KIVY_HOME, else ~/.kivy (as kivy/__init__)."""
    home = os.environ.get("KIVY_HOME")
    return Path(os.path.expanduser(home) if home else os.path.expanduser("~/.kivy")) / "config.ini"


def input_providers(*, pi: bool, mtdev: bool) -> dict[str, str]:
    """Kivy's [input] for this platform. The Pi's touchscreen is read from its event
    device (mtdev, or hidinput without libmtdev) and nothing else: SDL's mouse would
    deliver every tap a second time. A desktop has the mouse only (no probing of
    /dev/input, which a desktop user cannot read anyway), and no red dots."""
    if pi:
        return ({"mtdev_%(name)s": "probesysfs,provider=mtdev"} if mtdev
                else {"hid_%(name)s": "probesysfs,provider=hidinput"})
    return {"mouse": "mouse,multitouch_on_demand"}


def _without_mtdev_provider() -> None:
    """Kivy's input package imports its mtdev provider on every Linux start, and without
    libmtdev (most desktops) that import logs an OSError traceback. The provider cannot
    work without the library anyway: an empty module stands in for it, so the import is
    quiet and the provider simply is not there."""
    if MTDEV_MODULE not in sys.modules:
        stub = types.ModuleType(MTDEV_MODULE, "mtdev is not installed: no mtdev provider")
        sys.modules[MTDEV_MODULE] = stub


def prepare_kivy(*, fullscreen: bool, size: tuple[int, int] = (WIDTH, HEIGHT)) -> None:
    """Environment and Config for Kivy: our own argv, a window of `size` (800x480: the
    Pi's 7-inch screen) or full screen at the real screen's size, the input providers
    of this platform, and Kivy's own config.ini written once, quietly, when there is
    none (Kivy itself would log an "upgrade" from version 0 with two warnings). The
    window may be resized: the screens follow its shape (ui/layout.py)."""
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    os.environ.setdefault("KIVY_NO_FILELOG", "1")
    mtdev = ctypes.util.find_library("mtdev") is not None
    if not mtdev:
        _without_mtdev_provider()
    config_file = kivy_config_file()
    first = not config_file.exists() or "KIVY_USE_DEFAULTCONFIG" in os.environ
    quiet = first and "KIVY_NO_CONFIG" not in os.environ
    if quiet:  # Kivy builds its defaults without reading, warning or writing
        os.environ["KIVY_NO_CONFIG"] = "1"
        # and without its "Upgrading from 0 to 1" debug line: Kivy's logger shows
        # everything until config.ini's log_level (info) is read
        logging.getLogger("kivy").setLevel(logging.INFO)
    try:
        from kivy.config import Config
    finally:
        if quiet:
            del os.environ["KIVY_NO_CONFIG"]
    if quiet and "KIVY_USE_DEFAULTCONFIG" not in os.environ:
        _write_kivy_config(Config, config_file)
    current = dict(Config.items("input"))
    if current == KIVY_DEFAULT_INPUT or not current:  # anything else was chosen by hand
        for option in current:
            Config.remove_option("input", option)
        for option, value in input_providers(pi=on_raspberry_pi(), mtdev=mtdev).items():
            Config.set("input", option, value)
    Config.set("graphics", "width", str(size[0]))
    Config.set("graphics", "height", str(size[1]))
    Config.set("graphics", "resizable", "1")
    Config.set("graphics", "fullscreen", "auto" if fullscreen else "0")
    Config.set("graphics", "multisamples", "0")  # big flat shapes need no antialiasing
    Config.set("kivy", "exit_on_escape", "0")


def _write_kivy_config(config: Any, path: Path) -> None:
    """Kivy's own defaults (the current config_version), written once as Kivy would,
    so the next start reads them without an upgrade. Nothing of this app's is in it:
    the window size and input are set in memory at every start."""
    import shutil

    from kivy import kivy_data_dir

    try:
        (path.parent / "mods").mkdir(parents=True, exist_ok=True)
        icons = path.parent / "icon"
        if not icons.exists():
            shutil.copytree(Path(kivy_data_dir) / "logo", icons)
        config.filename = str(path)
        config.write()
    except OSError:
        pass  # a read-only home: Kivy's defaults in memory serve as well


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
