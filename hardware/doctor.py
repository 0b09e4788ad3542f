"""`sorry-companion doctor`: what works at this table, and what to fix.

Each check returns a Check; the command prints them as a table and exits 0 when every
essential one passes (the configuration and the display: without them there is no app).
Buttons, LED board and voice are optional, because the game runs without them.
"""

from __future__ import annotations

import glob
import importlib.util
import os
import shutil
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.config import (
    Config,
    GpioConfig,
    LedBoardConfig,
    VoiceConfig,
    load_config,
    on_raspberry_pi,
)
from companion.errors import ConfigError


@dataclass(frozen=True, slots=True)
class Check:
    name: str
    result: str  # "ok", "off", "warn" (optional part not working), "FIX" (essential)
    detail: str
    fix: str = ""

    @property
    def passed(self) -> bool:
        return self.result != "FIX"


def check_config(path: str | None) -> tuple[Check, Config]:
    try:
        config = load_config(path)
    except ConfigError as exc:
        return Check("config", "FIX", str(exc), "correct that key, or compare with "
                     "companion/default_config.toml"), Config()
    where = str(config.source) if config.source else "no file: the defaults"
    return Check("config", "ok", where), config


def check_buttons(gpio: GpioConfig, *, pin_factory: Any = None) -> tuple[Check, Any]:
    """The buttons set up as the app would; returns the open ButtonPanel (or None)."""
    if not gpio.enabled:
        return Check("buttons", "off", "[gpio] enabled = false"), None
    try:
        from hardware.buttons import ButtonPanel
        from hardware.errors import GpioSetupError
        from hardware.pinplan import PinPlanError, plan_pins
    except ImportError as exc:
        return Check("buttons", "warn", f"gpiozero is not installed ({exc.name})",
                     "install gpiozero==2.0.1"), None
    try:
        uses = plan_pins(pins=gpio.pins, lamps=gpio.lamps, undo_pin=gpio.undo_pin,
                         close_pin=gpio.close_pin)
        panel = ButtonPanel(uses, on_press=lambda press: None, pull_up=gpio.pull_up,
                            lockout_ms=gpio.lockout_ms, pin_factory=pin_factory)
    except (PinPlanError, GpioSetupError) as exc:
        return Check("buttons", "warn", "touch only", str(exc)), None
    return Check("buttons", "ok", panel.describe()), panel


def watch_buttons(panel: Any, seconds: float, write: Callable[[str], None], *,
                  stop: threading.Event | None = None) -> int:
    """Print each accepted press for `seconds` (or until `stop`); returns how many."""
    stop = stop or threading.Event()
    start = time.monotonic()
    count = 0

    def show(press: Any) -> None:
        nonlocal count
        count += 1
        write(f"  {press.use.role} ({press.use.name}) pressed at +{press.t - start:.3f} s")

    panel.on_press = show
    write(f"press the buttons now ({seconds:g} s) ...")
    stop.wait(seconds)
    panel.on_press = lambda press: None
    write(f"  {count} press{'es' if count != 1 else ''} seen")
    return count


def check_ledboard(cfg: LedBoardConfig, *, ledboard_port: str | None = None,
                   hello_wait: float | None = None) -> Check:
    if not cfg.enabled and not ledboard_port:
        return Check("ledboard", "off", "[ledboard] enabled = false")
    try:
        from hardware.errors import LedBoardError
        from hardware.ledboardlink import HELLO_WAIT_S, LedBoardLink
        from hardware.ports import PortConfigError, PortFinder
    except ImportError as exc:
        return Check("ledboard", "warn", f"pyserial is not installed ({exc.name})",
                     "install pyserial==3.5")
    try:
        finder = PortFinder(port=ledboard_port or cfg.port, ids=cfg.ids)
        ports = finder()
    except (PortConfigError, OSError) as exc:
        return Check("ledboard", "warn", "not checked", str(exc))
    if not ports:
        return Check("ledboard", "warn", f"absent: {finder.looking_for}",
                     "plug the board in, or set [ledboard] port (the simulator: "
                     "sorry-companion ledboard-sim)")
    problems = []
    for port in ports:
        try:
            link = LedBoardLink.open(port, baud=cfg.baud,
                                  hello_wait=HELLO_WAIT_S if hello_wait is None else hello_wait)
        except (LedBoardError, ValueError) as exc:
            problems.append(str(exc))
            continue
        hello = link.hello
        link.close()
        return Check("ledboard", "ok", f"connected {hello.uid} (firmware {hello.fw}, "
                     f"{hello.leds} LEDs) on {port}")
    return Check("ledboard", "warn", "not working", "; ".join(problems))


def check_voice(voice: VoiceConfig) -> Check:
    if not voice.enabled:
        return Check("voice", "off", "[voice] enabled = false")
    program = shutil.which(voice.command)
    if program is None:
        return Check("voice", "warn", f"{voice.command} not found",
                     "sudo apt install espeak-ng (or set [voice] command)")
    return Check("voice", "ok", program)


def check_camera(config: Config) -> Check:
    """The camera (issue 23): on or off, its extra installed, a deck taught. Neither the
    camera nor OpenCV is opened here: the doctor stays quick and never takes the camera
    from the running app."""
    camera = config.camera
    if not camera.enabled:
        return Check("camera", "off", "[camera] enabled = false")
    if any(importlib.util.find_spec(name) is None for name in ("numpy", "cv2")):
        return Check("camera", "warn", "its optional part is not installed",
                     "sudo deploy/install.sh --camera (or pip install '.[camera]')")
    taught = [game for game in ("revenge", "board")
              if camera.model_file(config.data_dir, game).is_file()]
    if not taught:
        return Check("camera", "warn", "no deck taught yet",
                     "sorry-companion camera teach FOLDER --game revenge --out "
                     f"{camera.model_file(config.data_dir, 'revenge')}")
    return Check("camera", "ok", f"{camera.source}; decks taught: {', '.join(taught)}")


def check_display() -> Check:
    """Kivy with its SDL2 window, found without importing Kivy (that would open a window)."""
    spec = importlib.util.find_spec("kivy")
    if spec is None or not spec.submodule_search_locations:
        return Check("display", "FIX", "Kivy is not installed", "install kivy==2.3.1")
    kivy_dir = Path(next(iter(spec.submodule_search_locations)))
    if not glob.glob(str(kivy_dir / "core" / "window" / "_window_sdl2*")):
        return Check("display", "FIX", f"Kivy at {kivy_dir} has no SDL2 window",
                     "reinstall kivy==2.3.1 from PyPI (its wheels bundle SDL2)")
    detail = f"Kivy with SDL2 at {kivy_dir}"
    if on_raspberry_pi() and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        cards = sorted(glob.glob("/dev/dri/card*"))
        if not cards:
            return Check("display", "FIX", "no DRM device (/dev/dri/card*)",
                         "use full KMS: dtoverlay=vc4-kms-v3d in /boot/firmware/config.txt")
        if not any(os.access(c, os.R_OK | os.W_OK) for c in cards):
            return Check("display", "FIX", f"no permission on {cards[0]}",
                         "add the user to the video and render groups and log in again")
        detail += f"; DRM {cards[0]}"
    return Check("display", "ok", detail)


def table(checks: list[Check]) -> str:
    """The report: one row per check, then what to fix."""
    width = max(len(c.name) for c in checks)
    lines = [f"{'check'.ljust(width)}  result  detail"]
    lines += [f"{c.name.ljust(width)}  {c.result.ljust(6)}  {c.detail}" for c in checks]
    fixes = [c for c in checks if c.fix]
    if fixes:
        lines += ["", "to fix:"] + [f"  {c.name}: {c.fix}" for c in fixes]
    return "\n".join(lines)


# --- the same checks for the running app's Hardware page ---

# What to do about a part's live status (hardware.status.StatusKind values), in the
# doctor's words: the Hardware page shows them under the part's own detail.
STATUS_FIXES = {
    ("buttons", "touch only"): "check the wiring and [gpio] pins in the configuration; "
                               "`sorry-companion doctor --buttons` shows presses live",
    ("ledboard", "absent"): "plug the board in, or set [ledboard] port (the simulator: "
                            "sorry-companion ledboard-sim)",
    ("ledboard", "reconnecting"): "check the USB cable; the app keeps looking for the board",
    ("ledboard", "gave up"): "check that it is the HOME LED board with PAWNLED/1 firmware "
                             "(`sorry-companion doctor` shows its answer)",
}
STATUS_RESULTS = {"off": "off", "ready": "ok", "connected": "ok"}  # any other kind: "warn"


def status_check(part: str, kind: str, detail: str) -> Check:
    """A running part's live status as a doctor's Check. The app holds the buttons' pins
    and the board's port, so the page does not open them a second time."""
    return Check(part, STATUS_RESULTS.get(kind, "warn"), detail or kind,
                 STATUS_FIXES.get((part, kind), ""))


def app_checks(config: Config, statuses: dict[str, tuple[str, str]]) -> list[Check]:
    """The doctor's table for the running app: its configuration, the buttons and LED
    board from their live statuses (part: (kind, detail)), the voice and the display."""
    where = str(config.source) if config.source else "no file: the defaults"
    checks = [Check("config", "ok", where)]
    for part in ("buttons", "ledboard"):
        if part in statuses:
            checks.append(status_check(part, *statuses[part]))
        else:
            checks.append(Check(part, "warn", "not started yet", "wait a moment"))
    checks += [check_voice(config.voice), check_display(), check_camera(config)]
    return checks
