"""Issue 13: `sorry-companion run` (what `make run` starts) starts quietly on a desktop:
no MTDev traceback when libmtdev is missing, no "upgrading configuration" warnings, and
Kivy's own config.ini written once, on the first start, then read as it is.

The real console script in a subprocess, an offscreen SDL window, a fresh HOME and
KIVY_HOME; it is killed once it prints its ready line."""

from __future__ import annotations

import configparser
import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import threading
from pathlib import Path

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
    assert config_ini.exists(), "Kivy's config.ini was not written on the first start"
    written = config_ini.read_bytes()
    parser = configparser.ConfigParser(interpolation=None)
    parser.read(config_ini)
    assert int(parser["kivy"]["config_version"]) > 0  # Kivy's current version, not 0

    second = start_once([str(app), "--data", str(tmp_path / "data"), "run", "--no-hardware"],
                        {**env, "KIVY_HOME": str(home / ".kivy")})
    assert noise(second) == [], "\n".join(second)
    assert config_ini.read_bytes() == written  # read as it is: not upgraded, not rewritten


PROBE = ("import json, sys; from ui.launch import prepare_kivy; prepare_kivy(fullscreen=False);"
         "from kivy.config import Config; print(json.dumps(dict(Config.items('input'))))")


def probe_input(kivy_home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KIVY_", "KCFG_"))}
    env.update(KIVY_HOME=str(kivy_home), PYTHONPATH=str(REPO), KIVY_NO_CONSOLELOG="1")
    done = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True,
                          env=env, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.skipif(Path("/proc/device-tree/model").exists(), reason="a Pi is no desktop")
def test_a_desktop_gets_the_mouse_only(tmp_path: Path):
    assert probe_input(tmp_path / "kivy") == {"mouse": "mouse,multitouch_on_demand"}


def test_the_pi_kiosk_config_keeps_its_touchscreen_input(tmp_path: Path):
    """An [input] written by hand (deploy/kivy-config.ini: mtdev only) is left as it is."""
    kivy_home = tmp_path / "kivy"
    kivy_home.mkdir()
    (kivy_home / "config.ini").write_bytes((REPO / "deploy" / "kivy-config.ini").read_bytes())
    assert probe_input(kivy_home) == {"mtdev_%(name)s": "probesysfs,provider=mtdev"}


def test_the_pi_reads_its_touchscreen_through_mtdev_or_hidinput_never_the_mouse():
    from ui.launch import input_providers

    assert input_providers(pi=True, mtdev=True) == {
        "mtdev_%(name)s": "probesysfs,provider=mtdev"}
    assert input_providers(pi=True, mtdev=False) == {
        "hid_%(name)s": "probesysfs,provider=hidinput"}
    assert input_providers(pi=False, mtdev=True) == {"mouse": "mouse,multitouch_on_demand"}
