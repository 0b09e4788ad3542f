"""Issue 9, finding 2: a second app on the same data folder refuses, saying who holds it.

Two real `sorry-companion run` processes (offscreen Kivy): the first starts and says it is
ready; the second exits 2 with one sentence naming the first one's pid; history, stats
and export still work while the first runs. After the first is SIGKILLed, the folder is
free again (the kernel drops the lock).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

from ui_helpers import REPO

from companion.datalock import DataFolderBusy, DataLock

READY_LINE = "sorry-companion: ready"
TIMEOUT = 90.0


def app_env(tmp_path: Path) -> dict[str, str]:
    env = dict(os.environ, PYTHONPATH=str(REPO), KIVY_HOME=str(tmp_path / "kivy"),
               SDL_VIDEODRIVER="offscreen", GPIOZERO_PIN_FACTORY="mock")
    env.pop("SORRY_COMPANION_CONFIG", None)
    return env


def cli(*args: str, env: dict[str, str], timeout: float = TIMEOUT):
    return subprocess.run([sys.executable, "-m", "companion.cli", *args], env=env, cwd=REPO,
                          capture_output=True, text=True, timeout=timeout)


def start_ready(argv: list[str], env: dict[str, str]) -> subprocess.Popen:
    proc = subprocess.Popen(argv, env=env, cwd=REPO, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    ready = threading.Event()

    def watch() -> None:
        for line in proc.stderr:
            if line.strip() == READY_LINE:
                ready.set()
        ready.set()  # ended: let the waiter see it

    threading.Thread(target=watch, daemon=True).start()
    assert ready.wait(TIMEOUT) and proc.poll() is None, "the first app did not start"
    return proc


def test_the_second_app_on_a_data_folder_refuses_and_names_the_first(tmp_path: Path):
    env = app_env(tmp_path)
    data = tmp_path / "data"
    argv = [sys.executable, "-m", "companion.cli", "--data", str(data), "run", "--no-hardware",
            "--windowed"]
    first = start_ready(argv, env)
    try:
        second = cli("--data", str(data), "run", "--no-hardware", "--windowed", env=env)
        assert second.returncode == 2, second.stderr[-500:]
        [line] = [ln for ln in second.stderr.splitlines() if ln.startswith("sorry-companion:")]
        assert "already in use" in line and f"pid {first.pid}" in line and "since" in line
        assert "Traceback" not in second.stderr
        print(f"two instances: the second refused with exit 2 ({line[:90]}...)")
        for command in ("history", "stats"):
            done = cli("--data", str(data), command, env=env)
            assert done.returncode == 0, done.stderr
        done = cli("--data", str(data), "export", "-o", str(tmp_path / "t.jsonl"), env=env)
        assert "Traceback" not in done.stderr and "in use" not in done.stderr
    finally:
        first.send_signal(signal.SIGKILL)
        first.wait(timeout=30)
    with DataLock(data):  # the kernel dropped the dead app's lock
        pass


def test_the_lock_says_who_holds_it(tmp_path: Path):
    with DataLock(tmp_path):
        try:
            DataLock(tmp_path).acquire()
        except DataFolderBusy as exc:
            assert f"pid {os.getpid()}" in str(exc)
        else:
            raise AssertionError("a second lock on the same folder was granted")
