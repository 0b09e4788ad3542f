"""`sorry-companion doctor`: what works at this table, and what to fix.

Each check returns a Check; the command prints them as a table and exits 0 when every
essential one passes (the configuration and the display: without them there is no app).
Buttons, LED board and voice are optional, because the game runs without them.

A Check holds a code and its facts, not a sentence: the catalogue's "doctor_<code>" and
"doctor_fix_<code>" word them, in English for this command and in the screen's language
on the app's Hardware page. Pins, paths, USB ids and the hardware's own error sentences
are facts shown as they are.
"""

from __future__ import annotations

import glob
import importlib.util
import os
import shutil
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.catalogue import text
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
    code: str  # what was found: the catalogue's "doctor_<code>", filled from `params`
    params: Mapping[str, Any] = field(default_factory=dict)
    fix_code: str = ""  # what to do: "doctor_fix_<fix_code>", from `fix_params`
    fix_params: Mapping[str, Any] = field(default_factory=dict)

    @property
    def passed(self) -> bool:
        return self.result != "FIX"

    def detail_in(self, lang: str) -> str:
        return text(f"doctor_{self.code}", lang, **_facts(self.params, lang))

    def fix_in(self, lang: str) -> str:
        if not self.fix_code:
            return ""
        return text(f"doctor_fix_{self.fix_code}", lang, **_facts(self.fix_params, lang))

    @property
    def detail(self) -> str:
        """What was found, in English (the command's table)."""
        return self.detail_in("en")

    @property
    def fix(self) -> str:
        """What to do, in English ("" when nothing)."""
        return self.fix_in("en")


def _facts(params: Mapping[str, Any], lang: str) -> dict[str, Any]:
    """The facts to word, a list of choices joined by the language's "or"."""
    return {k: text("doctor_or", lang).join(v) if isinstance(v, tuple) else v
            for k, v in params.items()}


def _error(exc: BaseException | str) -> dict[str, str]:
    """A hardware error's own sentence, shown as it is."""
    return {"error": str(exc)}


def check_config(path: str | None) -> tuple[Check, Config]:
    try:
        config = load_config(path)
    except ConfigError as exc:
        return Check("config", "FIX", "error", _error(exc), "config"), Config()
    return _config_ok(config), config


def _config_ok(config: Config) -> Check:
    if config.source:
        return Check("config", "ok", "config_file", {"path": str(config.source)})
    return Check("config", "ok", "config_defaults")


def check_buttons(gpio: GpioConfig, *, pin_factory: Any = None) -> tuple[Check, Any]:
    """The buttons set up as the app would; returns the open ButtonPanel (or None)."""
    if not gpio.enabled:
        return Check("buttons", "off", "gpio_disabled"), None
    try:
        from hardware.buttons import ButtonPanel
        from hardware.errors import GpioSetupError
        from hardware.pinplan import PinPlanError, plan_pins
    except ImportError as exc:
        return Check("buttons", "warn", "gpiozero_missing", {"module": exc.name or "gpiozero"},
                     "install_gpiozero"), None
    try:
        uses = plan_pins(pins=gpio.pins, lamps=gpio.lamps, undo_pin=gpio.undo_pin,
                         close_pin=gpio.close_pin)
        panel = ButtonPanel(uses, on_press=lambda press: None, pull_up=gpio.pull_up,
                            lockout_ms=gpio.lockout_ms, pin_factory=pin_factory)
    except (PinPlanError, GpioSetupError) as exc:
        return Check("buttons", "warn", "touch_only", {}, "error", _error(exc)), None
    return Check("buttons", "ok", "live", {"detail": panel.describe()}), panel


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
    write("  " + text("doctor_presses_seen", "en", count=count))
    return count


def check_ledboard(cfg: LedBoardConfig, *, ledboard_port: str | None = None,
                   hello_wait: float | None = None) -> Check:
    if not cfg.enabled and not ledboard_port:
        return Check("ledboard", "off", "ledboard_disabled")
    try:
        from hardware.errors import LedBoardError
        from hardware.ledboardlink import HELLO_WAIT_S, LedBoardLink
        from hardware.ports import PortConfigError, PortFinder
    except ImportError as exc:
        return Check("ledboard", "warn", "pyserial_missing", {"module": exc.name or "serial"},
                     "install_pyserial")
    try:
        finder = PortFinder(port=ledboard_port or cfg.port, ids=cfg.ids)
        ports = finder()
    except (PortConfigError, OSError) as exc:
        return Check("ledboard", "warn", "not_checked", {}, "error", _error(exc))
    if not ports:
        return _absent(ledboard_port or cfg.port, cfg.ids)
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
        return Check("ledboard", "ok", "ledboard_connected",
                     {"uid": hello.uid, "fw": hello.fw, "leds": hello.leds, "port": port})
    return Check("ledboard", "warn", "not_working", {}, "error", _error("; ".join(problems)))


def _absent(port: str | None, ids: tuple[str, ...]) -> Check:
    """No LED board found: where it was looked for (hardware.ports.PortFinder's search)."""
    return Check("ledboard", "warn", "absent_port" if port else "absent_usb",
                 {"port": port} if port else {"ids": tuple(ids)}, "plug_ledboard")


def check_voice(voice: VoiceConfig) -> Check:
    if not voice.enabled:
        return Check("voice", "off", "voice_disabled")
    program = shutil.which(voice.command)
    if program is None:
        return Check("voice", "warn", "voice_missing", {"command": voice.command},
                     "install_espeak")
    return Check("voice", "ok", "found_at", {"path": program})


def check_camera(config: Config) -> Check:
    """The camera (issue 23): on or off, its software importing (numpy, OpenCV and, for
    the Pi camera, picamera2: camera.extra words each way it fails), a deck taught. The
    camera itself is not opened here: the doctor stays quick and never takes the camera
    from the running app."""
    camera = config.camera
    if not camera.enabled:
        return Check("camera", "off", "camera_disabled")
    from camera.extra import stack_problem

    problem = stack_problem(picamera=camera.source == "picamera")
    if problem is not None:
        return Check("camera", "warn", problem.code, problem.params(), problem.fix,
                     problem.params())
    from camera.cards import games

    taught = [game for game in games() if camera.model_file(config.data_dir, game).is_file()]
    if not taught:
        return Check("camera", "warn", "camera_untaught", {}, "teach_camera",
                     {"model": str(camera.model_file(config.data_dir, games()[0]))})
    return Check("camera", "ok", "camera_ready",
                 {"source": camera.source, "games": ", ".join(taught)})


DISK_LOW_MB = 256  # free space under which saving games is at risk: the doctor warns


def check_disk(data_dir: Path) -> Check:
    """Free space on the disk holding the data folder (the SD card on a Pi): a full card
    stops the journal saving games, so the doctor warns before that and says what to free."""
    folder = Path(data_dir)
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent  # not made yet: the disk it will be made on
    try:
        free = shutil.disk_usage(folder).free // 2**20
    except OSError as exc:
        return Check("disk", "warn", "not_checked", {}, "error", _error(exc))
    facts = {"free": free, "path": str(data_dir)}
    if free < DISK_LOW_MB:
        return Check("disk", "warn", "disk_low", facts, "disk_low")
    return Check("disk", "ok", "disk_free", facts)


def check_display() -> Check:
    """Kivy with its SDL2 window, found without importing Kivy (that would open a window)."""
    spec = importlib.util.find_spec("kivy")
    if spec is None or not spec.submodule_search_locations:
        return Check("display", "FIX", "kivy_missing", {}, "install_kivy")
    kivy_dir = Path(next(iter(spec.submodule_search_locations)))
    if not glob.glob(str(kivy_dir / "core" / "window" / "_window_sdl2*")):
        return Check("display", "FIX", "kivy_no_sdl2", {"path": str(kivy_dir)},
                     "reinstall_kivy")
    facts = {"path": str(kivy_dir)}
    if on_raspberry_pi() and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        cards = sorted(glob.glob("/dev/dri/card*"))
        if not cards:
            return Check("display", "FIX", "no_drm", {}, "use_kms")
        if not any(os.access(c, os.R_OK | os.W_OK) for c in cards):
            return Check("display", "FIX", "drm_permission", {"card": cards[0]},
                         "video_groups")
        return Check("display", "ok", "display_drm", {**facts, "card": cards[0]})
    return Check("display", "ok", "display", facts)


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

# What to do about a part's live status (hardware.status.StatusKind values): the
# catalogue's "doctor_fix_<code>", shown on the Hardware page under the part's detail.
STATUS_FIXES = {
    ("buttons", "touch only"): "buttons_wiring",
    ("ledboard", "absent"): "plug_ledboard",
    ("ledboard", "reconnecting"): "ledboard_cable",
    ("ledboard", "gave up"): "ledboard_firmware",
}
STATUS_RESULTS = {"off": "off", "ready": "ok", "connected": "ok"}  # any other kind: "warn"


def status_check(part: str, kind: str, detail: str, config: Config | None = None) -> Check:
    """A running part's live status as a doctor's Check. The app holds the buttons' pins
    and the board's port, so the page does not open them a second time. What the
    configuration says (a part switched off, where the board is looked for) is worded
    from the configuration; anything else is the hardware's own detail as it is."""
    result, fix = STATUS_RESULTS.get(kind, "warn"), STATUS_FIXES.get((part, kind), "")
    if kind == "off" and part in ("buttons", "ledboard"):
        return Check(part, result, "gpio_disabled_touch" if part == "buttons"
                     else "ledboard_disabled")
    if (part, kind) == ("ledboard", "absent") and config is not None:
        return _absent(config.ledboard.port, config.ledboard.ids)
    return Check(part, result, "live", {"detail": detail or kind}, fix)


def app_checks(config: Config, statuses: dict[str, tuple[str, str]],
               not_started: tuple[str, str] | None = None) -> list[Check]:
    """The doctor's table for the running app: its configuration, the buttons and LED
    board from their live statuses (part: (kind, detail)), the voice and the display.
    `not_started`: the hardware as a whole never started (kind, why), so both parts say
    why: off (the app was started with `--no-hardware`), or the error that stopped it."""
    checks = [_config_ok(config)]
    for part in ("buttons", "ledboard"):
        if not_started is not None:
            kind, why = not_started
            checks.append(Check(part, "off", "no_hardware", {}, "no_hardware") if kind == "off"
                          else Check(part, "warn", "live", {"detail": why}))
        elif part in statuses:
            checks.append(status_check(part, *statuses[part], config=config))
        else:
            checks.append(Check(part, "warn", "not_started", {}, "wait"))
    checks += [check_voice(config.voice), check_display(), check_camera(config),
               check_disk(config.data_dir)]
    return checks
