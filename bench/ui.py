"""The app's shared benchmark parts: what every game's screen benchmark uses (the Kivy
children's environment, the taps' pace, the frame budget) and the app's cold start.

- cold start to the first frame, and resident memory then, each as a ratio to a bare
  Kivy "hello" app measured in the same run on the same machine (the app opens on its
  first screen, whatever the games).

Each is measured normal and under the Pi model (bench.pi), 3 runs each:
`python -m bench child bench.ui start|hello ...` are the children. The games' screens
are measured by their own modules (their folders' bench packages); the card game's
rows show the cold start between its taps and its Resume (start_rows), as the table
always has.
"""

from __future__ import annotations

import os
import selectors
import signal
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench import Measured, Row, figures, measure, met

FRAME_BUDGET_MS = 1000 / 60  # what is on screen by the next frame, before rasterising
IDLE_GOAL_MS = 5.0  # tap-to-label p50 on this machine
RATIO_GOAL = 1.5
LATENCY_TAPS = 150
LATENCY_WARMUP = 10
TAP_SPACING = 0.1  # the scorekeeper taps an idle screen, not one still drawing
START_RUNS = 3
READY = "sorry-companion: ready"
REPO = Path(__file__).resolve().parents[1]


def kivy_env(home: str) -> dict[str, str]:
    """The environment of a Kivy child: offscreen, its own Kivy home, no logs."""
    env = dict(os.environ)
    env.setdefault("SDL_VIDEODRIVER", "offscreen")
    env.update(
        KIVY_NO_ARGS="1",
        KIVY_NO_CONSOLELOG="1",
        KIVY_NO_FILELOG="1",
        KIVY_USE_DEFAULTCONFIG="1",
        KIVY_HOME=home,
        PYTHONPATH=str(REPO),
    )
    return env


# --- children ---


def _child_hello() -> None:
    """The baseline: Kivy, one window, one label; says ready after its first frame."""
    from kivy.app import App
    from kivy.config import Config

    Config.set("graphics", "width", "800")
    Config.set("graphics", "height", "480")
    from kivy.core.window import Window
    from kivy.uix.label import Label

    class Hello(App):  # type: ignore[misc]  # Kivy's classes are Any to mypy
        def build(self) -> Label:
            Window.bind(on_flip=self.ready)
            return Label(text="hello")

        def ready(self, *_: object) -> None:
            Window.unbind(on_flip=self.ready)
            print(READY, file=sys.__stderr__, flush=True)

    Hello().run()


def _child_start(tmp: str) -> dict[str, float]:
    """Cold start to the first frame and resident memory then, of the app and of a bare
    Kivy hello, interleaved (a warm-up of each first): medians of START_RUNS each."""
    hellos, apps = _cold_starts(tmp)
    return {"hello_s": statistics.median(t for t, _, _ in hellos),
            "app_s": statistics.median(t for t, _, _ in apps),
            "hello_kib": statistics.median(r for _, r, _ in hellos),
            "app_kib": statistics.median(r for _, r, _ in apps),
            "hello_cpu_s": statistics.median(c for _, _, c in hellos),
            "app_cpu_s": statistics.median(c for _, _, c in apps)}


# --- measuring ---


def _start_and_measure(cmd: list[str], env: dict[str, str]) -> tuple[float, int, float]:
    """Seconds from spawning `cmd` to its ready line, its resident memory (KiB) then, and
    the CPU seconds it had used by then (all its threads)."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(
        cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, cwd=REPO
    )
    try:
        assert proc.stderr is not None  # piped above
        sel = selectors.DefaultSelector()
        sel.register(proc.stderr, selectors.EVENT_READ)
        buffer = b""
        deadline = t0 + 60
        while READY.encode() not in buffer:
            if time.perf_counter() > deadline or proc.poll() is not None:
                raise RuntimeError(f"{cmd} did not get ready: {buffer[-500:]!r}")
            if sel.select(timeout=1.0):
                buffer += os.read(proc.stderr.fileno(), 65536)
        elapsed = time.perf_counter() - t0
        with open(f"/proc/{proc.pid}/status") as f:
            rss = next(int(line.split()[1]) for line in f if line.startswith("VmRSS:"))
        with open(f"/proc/{proc.pid}/stat") as f:  # utime and stime, after "(comm) state"
            ticks = sum(int(t) for t in f.read().rsplit(")", 1)[1].split()[11:13])
        return elapsed, rss, ticks / os.sysconf("SC_CLK_TCK")
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()


Start = tuple[float, int, float]  # seconds to the first frame, KiB resident, CPU seconds


def _cold_starts(tmp: str) -> tuple[list[Start], list[Start]]:
    """Interleaved starts of the hello and the app, after one warm-up of each. Both run
    from compiled bytecode, as on the Pi (pip compiles the installed wheel's modules): the
    warm-up writes it under a folder of this run's (PYTHONPYCACHEPREFIX), also where the
    shell says not to write bytecode (PYTHONDONTWRITEBYTECODE, which would otherwise
    make every app start compile all of the app's own modules again, and no Kivy one)."""
    env = kivy_env(os.path.join(tmp, "kivy"))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = os.path.join(tmp, "pycache")
    hello = [sys.executable, "-m", "bench", "child", __name__, "hello"]
    app = [
        sys.executable,
        "-m",
        "companion.cli",
        "--data",
        os.path.join(tmp, "data"),
        "run",
        "--windowed",
        "--no-hardware",
    ]
    hellos: list[Start] = []
    apps: list[Start] = []
    _start_and_measure(hello, env)  # warm the disk cache and write the bytecode for both
    _start_and_measure(app, env)
    for _ in range(START_RUNS):  # interleaved, so a busy moment hits both alike
        hellos.append(_start_and_measure(hello, env))
        apps.append(_start_and_measure(app, env))
    return hellos, apps


def child(mode: str, *args: str) -> dict[str, float]:
    """One measurement, in a child process under one of bench.pi's conditions."""
    if mode == "hello":
        _child_hello()
        return {}
    if mode == "start":
        return _child_start(args[0])
    raise SystemExit(f"unknown mode {mode!r}")


def measure_starts(tmp: str, env: dict[str, str]) -> Measured:
    """The app's and the Kivy hello's cold starts, in `tmp` (their data and bytecode)."""
    return measure(__name__, "start", tmp, env=env)


def start_rows(starts: Measured) -> list[Row]:
    """The cold start's rows: to the first frame, its CPU time, the memory then."""
    def ratio(key: str) -> Callable[[dict[str, Any]], float]:
        def of(r: dict[str, Any]) -> float:
            return float(r[f"app_{key}"] / r[f"hello_{key}"])
        return of

    starts_figures = figures(starts, lambda c: (
        f"{starts.cell(c, ratio('s'), '{:.2f}', 'x')} Kivy hello "
        f"(app {starts.cell(c, lambda r: r['app_s'] * 1000, '{:,.0f}', ' ms')}, "
        f"hello {starts.cell(c, lambda r: r['hello_s'] * 1000, '{:,.0f}', ' ms')})"))
    start_cpu_figures = figures(starts, lambda c: (
        f"{starts.cell(c, ratio('cpu_s'), '{:.2f}', 'x')} Kivy hello "
        f"(app {starts.cell(c, lambda r: r['app_cpu_s'] * 1000, '{:,.0f}', ' ms')}, "
        f"hello {starts.cell(c, lambda r: r['hello_cpu_s'] * 1000, '{:,.0f}', ' ms')})"))
    rss_figures = figures(starts, lambda c: (
        f"{starts.cell(c, ratio('kib'), '{:.2f}', 'x')} Kivy hello "
        f"(app {starts.cell(c, lambda r: r['app_kib'] / 1024, '{:,.0f}', ' MiB')})"))
    return [
        Row("UI cold start to first frame (median of "
            f"{START_RUNS} starts a run, against a bare Kivy hello in the same run)",
            *starts_figures, f"<= {RATIO_GOAL}x (Pi model too)",
            met(starts, ratio("s"), lambda r: r <= RATIO_GOAL), starts.load),
        Row("UI cold start to first frame, CPU time (the process's, all threads; what the "
            "load does not move)", *start_cpu_figures, load=starts.load),
        Row("UI resident memory after first frame", *rss_figures,
            f"<= {RATIO_GOAL}x", met(starts, ratio("kib"), lambda r: r <= RATIO_GOAL),
            starts.load),
    ]
