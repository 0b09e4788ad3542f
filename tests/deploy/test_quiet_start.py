"""Issue 13: `sorry-companion run` (what `make run` starts) starts quietly on a desktop:
no MTDev traceback when libmtdev is missing, no "upgrading configuration" warnings.
Issue 18: Kivy runs on its own defaults (no config.ini read or written) and the app sets
only the Kivy settings that differ from them (ui/kivy_settings.py), rotation included.

The real console script in a subprocess, an offscreen SDL window, a fresh HOME and
KIVY_HOME; it is killed once it prints its ready line."""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

READY_LINE = "sorry-companion: ready"
READY_TIMEOUT = 90.0
ANSI = re.compile(r"\x1b\[[0-9;]*m")
REPO = Path(__file__).resolve().parents[2]
NOISE = ("Traceback", "[WARNING", "[ERROR", "[CRITICAL", "Upgrading")


def start_once(argv: list[str], env: dict[str, str]) -> list[str]:
    """Run until the ready line (or the end); every line it printed, colours removed."""
    proc = subprocess.Popen(argv, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, start_new_session=True)
    lines: list[str] = []
    ready = threading.Event()

    def read() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.append(ANSI.sub("", line.rstrip("\n")))
            if line.strip() == READY_LINE:
                ready.set()
        ready.set()  # the output ended: the app is gone

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        ready.wait(READY_TIMEOUT)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
        reader.join(timeout=30)
    assert READY_LINE in lines, "the app did not start:\n" + "\n".join(lines[-30:])
    return lines


def noise(lines: list[str]) -> list[str]:
    """Tracebacks, warnings and errors; a level name may be padded ("[WARNING ]")."""
    flat = [line.replace(" ]", "]").replace("  ", " ") for line in lines]
    return [line for line in flat if any(word in line for word in NOISE)]


def test_two_starts_on_a_fresh_desktop_print_no_traceback_and_no_warning(tmp_path: Path):
    app = Path(sys.executable).with_name("sorry-companion")
    assert app.exists(), f"no console script at {app}: install the project (make venv)"
    home = tmp_path / "home"
    home.mkdir()
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("KIVY_", "KCFG_", "GPIOZERO_", "SORRY_COMPANION"))}
    env.update(HOME=str(home), SDL_VIDEODRIVER="offscreen", SDL_AUDIODRIVER="dummy")
    config_ini = home / ".kivy" / "config.ini"

    first = start_once([str(app), "--data", str(tmp_path / "data"), "run"], env)
    assert noise(first) == [], "\n".join(first)
    assert not config_ini.exists(), "Kivy's config.ini was written: it would drift"

    second = start_once([str(app), "--data", str(tmp_path / "data"), "run", "--no-hardware"],
                        {**env, "KIVY_HOME": str(home / ".kivy")})
    assert noise(second) == [], "\n".join(second)
    assert not config_ini.exists()


PROBE = """
import json, sys
from ui.launch import prepare_kivy
if sys.argv[1] == "defaults":
    import os; os.environ["KIVY_NO_CONFIG"] = "1"
    from kivy.config import Config
else:
    prepare_kivy(fullscreen=sys.argv[1] == "full", size=(800, 480), rotation=int(sys.argv[2]))
    from kivy.config import Config
if sys.argv[-1] == "window":
    from kivy.core.window import Window
    print(json.dumps({"size": list(Window.size), "rotation": Window.rotation,
                      "system_size": list(Window.system_size)}))
else:
    print(json.dumps({s: dict(Config.items(s)) for s in Config.sections()}))
"""


def probe(kivy_home: Path, *args: str, **extra: str) -> dict[str, Any]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KIVY_", "KCFG_"))}
    env.update({"KIVY_HOME": str(kivy_home), "PYTHONPATH": str(REPO),
                "KIVY_NO_CONSOLELOG": "1", "SDL_VIDEODRIVER": "offscreen", **extra})
    done = subprocess.run([sys.executable, "-c", PROBE, *args], capture_output=True,
                          text=True, env=env, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def changed(kivy_home: Path, *args: str, **extra: str) -> dict[tuple[str, str], str]:
    """The Kivy settings the app's start changed from Kivy's own defaults."""
    before = probe(kivy_home, "defaults", **extra)
    after = probe(kivy_home, *args, **extra)
    keys = {(s, k) for s in after for k in after[s]} | {(s, k) for s in before for k in before[s]}
    return {(s, k): after.get(s, {}).get(k, "<removed>") for s, k in sorted(keys)
            if after.get(s, {}).get(k) != before.get(s, {}).get(k)}


@pytest.mark.skipif(Path("/proc/device-tree/model").exists(), reason="a Pi is no desktop")
def test_a_desktop_gets_only_the_settings_that_differ(tmp_path: Path):
    assert changed(tmp_path / "kivy", "window", "0") == {
        ("graphics", "allow_screensaver"): "0", ("graphics", "height"): "480",
        ("graphics", "multisamples"): "0",  # width 800 is already Kivy's
        ("input", "%(name)s"): "<removed>", ("input", "mouse"): "mouse,multitouch_on_demand",
        ("kivy", "exit_on_escape"): "0"}


@pytest.mark.skipif(Path("/proc/device-tree/model").exists(), reason="a Pi is no desktop")
def test_drawing_without_x_hides_the_cursor_and_turns_the_picture(tmp_path: Path):
    kiosk = changed(tmp_path / "kivy", "full", "180", SDL_VIDEODRIVER="kmsdrm")
    assert kiosk[("graphics", "show_cursor")] == "0" and kiosk[("kivy", "desktop")] == "0"
    assert kiosk[("graphics", "fullscreen")] == "auto"
    assert kiosk[("graphics", "rotation")] == "180"
    assert kiosk[("graphics", "alpha_size")] == "0"  # read by Kivy after 2.3.1 (PR #9183)


def test_an_old_kivy_config_ini_is_not_read_and_kcfg_still_wins(tmp_path: Path):
    """A config.ini left by an earlier install (an 84-line copy of Kivy's defaults with
    mtdev input) is ignored; a KCFG_ variable set by the owner is kept."""
    kivy_home = tmp_path / "kivy"
    kivy_home.mkdir()
    (kivy_home / "config.ini").write_text(
        "[kivy]\nconfig_version = 27\n[graphics]\nrotation = 90\nmaxfps = 5\n[input]\n"
        "mtdev_%(name)s = probesysfs,provider=mtdev\n")
    config = probe(kivy_home, "window", "0", KCFG_GRAPHICS_MAXFPS="30")
    assert config["graphics"]["rotation"] == "0"
    assert config["graphics"]["maxfps"] == "30"
    assert "mtdev_%(name)s" not in config["input"]
    own = probe(kivy_home, "window", "0", KCFG_INPUT_MOUSE="mouse")
    # the owner's [input] (on Kivy's own), not the app's choice
    assert own["input"] == {"mouse": "mouse", "%(name)s": "probesysfs"}


def test_rotation_turns_the_real_window(tmp_path: Path):
    """[display] rotation = 90 on an 800x480 screen: the app lays out for 480x800."""
    window = probe(tmp_path / "kivy", "window", "90", "window")
    assert window == {"size": [480, 800], "rotation": 90, "system_size": [800, 480]}


def test_the_pi_reads_its_touchscreen_through_mtdev_or_hidinput_never_the_mouse():
    from ui.kivy_settings import input_providers

    assert input_providers(pi=True, mtdev=True) == {
        "mtdev_%(name)s": "probesysfs,provider=mtdev"}
    assert input_providers(pi=True, mtdev=False) == {
        "hid_%(name)s": "probesysfs,provider=hidinput"}
    assert input_providers(pi=False, mtdev=True) == {"mouse": "mouse,multitouch_on_demand"}
