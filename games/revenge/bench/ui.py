"""The card game's table screen in `make bench`, each measured in subprocesses of its own:

- tap-to-total latency: from a touch dispatched on a card to the first frame drawn after
  the total label changed (the real app, a real journal), p50 and p99, split into
  tap-to-state (the session has applied the event: its listener heard it),
  state-to-label (the total label's text changed) and drawing (that frame rasterised:
  software rendering here, the GPU's work on a Pi); tap-to-label is the first two;
- then the app's cold start (bench.ui: shared, shown here as the table always has);
- Resume tapped on the start screen (a 10,000-event card game left unfinished) to the
  game's screen: its first frame issued, and rasterised (software-drawn here); tapped once
  the app has made what it makes ahead while idle, and apart 0.5 s after the first frame.

Each is measured normal and under the Pi model (bench.pi), 3 runs each:
`python -m bench child games.revenge.bench.ui latency|resume ...` are the children.
"""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path
from typing import Any

from bench import Measured, Row, figures, measure, met, percentile
from bench.ui import (
    FRAME_BUDGET_MS,
    IDLE_GOAL_MS,
    LATENCY_TAPS,
    LATENCY_WARMUP,
    TAP_SPACING,
    kivy_env,
    measure_starts,
    start_rows,
)

MODULE = __spec__.name  # as `python -m bench child` names it, also when run with -m
RESUME_DRAWN_GOAL_MS = 300.0
RESUME_TAP_S = 0.5  # the Resume tap this long after the first frame (or after the app is idle)


def _child_latency(data_dir: str) -> dict[str, float]:
    """The real app, three players, tapping 10, 10, SORRY! over and over: every tap
    changes the total, and the flip-back SORRY! (no one has a pawn card HOME) ends the
    round with nobody advancing, so the game, the pile and the draw pile go on without
    end and every sample is a tap on the table screen. Returns p50 and p99 of each part (ms).
    """
    from ui.launch import build_app, prepare_kivy

    prepare_kivy(fullscreen=False)
    from kivy.clock import Clock
    from kivy.core.window import Window
    from kivy.graphics.opengl import glFinish
    from kivy.tests.common import UnitTestTouch

    from companion.config import Config
    from games.revenge.config import WindowsConfig
    from games.revenge.rules import Setup

    samples: list[list[float]] = []  # [tap-to-state, state-to-label, drawing] per tap
    cpu: list[float] = []  # the UI thread's CPU time from the tap to the label's change
    pending: dict[str, float] = {}

    def ready(app: Any) -> None:
        app.guard.seconds = 0  # taps 0.1 s apart: measuring (the check still runs), not guarding
        app.guard.bounce_seconds = 0  # the same key 0.1 s apart is a tap here, not a bounce
        app.start_game(Setup.create(["Ana", "Ben", "Cy"]))
        table = app.screen("table")
        label = table.ids.total_label
        buttons = {
            w.code: w
            for w in table.ids.pad_manager.get_screen("pad").walk()
            if getattr(w, "code", None) in ("10", "sorry")
        }

        def stamp(key: str) -> None:
            if "t0" in pending and key not in pending:
                pending[key] = time.perf_counter()
                if key == "label":
                    pending["label_cpu"] = time.thread_time() - pending["cpu0"]

        app.session.subscribe(lambda _update: stamp("state"))  # runs in the tapping thread
        label.bind(text=lambda *_: stamp("label"))

        def flipped(*_: object) -> None:
            if "label" in pending:
                glFinish()  # drawn means rasterised, not just handed to the GL driver
                drawn = time.perf_counter()
                t0, state, shown = pending["t0"], pending.get("state", 0.0), pending["label"]
                samples.append([state - t0, shown - state, drawn - shown])
                cpu.append(pending["label_cpu"])
                pending.clear()
                if len(samples) >= LATENCY_TAPS + LATENCY_WARMUP:
                    app.stop()
                    return
                Clock.schedule_once(tap, TAP_SPACING)

        def tap(*_: object) -> None:
            button = buttons["sorry" if app.session.state.total == 20 else "10"]
            x, y = button.to_window(*button.center)
            touch = UnitTestTouch(x, y)
            pending["t0"], pending["cpu0"] = time.perf_counter(), time.thread_time()
            touch.touch_down()
            touch.touch_up()

        Window.bind(on_flip=flipped)
        Clock.schedule_once(tap, 0.5)

    config = Config(games={"windows": WindowsConfig(steal_seconds=60, block_seconds=60)})
    build_app(config, Path(data_dir), start_hardware=False, on_ready=ready).run()
    out = _parts([[x * 1000 for x in s] for s in samples[LATENCY_WARMUP:]])
    used = [x * 1000 for x in cpu[LATENCY_WARMUP:]]
    out.update({f"label_cpu_{q}": percentile(used, q) for q in (50, 99)})
    return out


def _parts(samples: list[list[float]]) -> dict[str, float]:
    """p50 and p99 of each part of a tap ([tap-to-state, state-to-label, drawing], ms),
    of tap-to-label (the first two) and of the whole."""
    series = {"state": [s[0] for s in samples], "label_only": [s[1] for s in samples],
              "draw": [s[2] for s in samples], "label": [s[0] + s[1] for s in samples],
              "total": [sum(s) for s in samples]}
    return {f"{name}_{q}": percentile(values, q) for name, values in series.items()
            for q in (50, 99)}


def _made_ahead(app: Any) -> bool:
    """Whether the app has made what it makes while idle: its screens made ahead and the
    card table's players' panels."""
    from games.revenge.rules import MAX_PLAYERS

    root = app.root
    return (all(root.has_screen(name) for name in app.prewarm)
            and root.get_screen("table").panels_made >= MAX_PLAYERS)


def _child_resume(template: str, when: str = "idle") -> dict[str, float]:
    """The real app started on a copy of `template` (a data folder with an unfinished
    game): the Resume button tapped RESUME_TAP_S after the start screen is drawn ("early":
    while the app is still making its next screens ahead) or after the app has made them
    ("idle": a family reads the resume line first); the time from the tap to the first
    frame of the game's screen, issued (before rasterising) and rasterised (software
    here), and how long after the first frame the tap came. Returns them in ms."""
    import shutil

    data_dir = tempfile.mkdtemp(prefix="sorry-bench-resume-")
    shutil.copytree(template, data_dir, dirs_exist_ok=True)
    from ui.launch import build_app, prepare_kivy

    prepare_kivy(fullscreen=False)
    from kivy.clock import Clock
    from kivy.core.window import Window
    from kivy.graphics.opengl import glFinish
    from kivy.tests.common import UnitTestTouch

    from companion.config import Config

    out: dict[str, float] = {}
    t0 = [0.0, 0.0]  # the tap's time and the UI thread's CPU time then

    def ready(app: Any) -> None:
        app.guard.seconds = 0  # the tap comes 0.5 s after the first frame: not guarded
        if app.root.current != "resume":
            raise SystemExit(f"the app opened on {app.root.current!r}, not the resume screen")
        button = app.screen("resume").ids.resume_button

        def flipped(*_: object) -> None:
            if not t0[0] or app.root.current in ("resume", "start"):
                return
            issued, used = time.perf_counter(), time.thread_time() - t0[1]
            glFinish()
            out.update(issued=(issued - t0[0]) * 1000, issued_cpu=used * 1000,
                       drawn=(time.perf_counter() - t0[0]) * 1000)
            Window.unbind(on_flip=flipped)
            app.stop()

        def tap(*_: object) -> None:
            x, y = button.to_window(*button.center)
            touch = UnitTestTouch(x, y)
            t0[:] = time.perf_counter(), time.thread_time()
            out["tapped_at"] = (t0[0] - first) * 1000
            touch.touch_down()
            touch.touch_up()

        def wait(*_: object) -> None:
            if not _made_ahead(app):
                Clock.schedule_once(wait, 0.1)
                return
            Clock.schedule_once(tap, RESUME_TAP_S)

        Window.bind(on_flip=flipped)
        first = time.perf_counter()  # on_ready comes with the first frame
        Clock.schedule_once(tap if when == "early" else wait, RESUME_TAP_S)

    build_app(Config(), Path(data_dir), start_hardware=False, on_ready=ready).run()
    shutil.rmtree(data_dir, ignore_errors=True)
    return out


def write_resumable(data_dir: str) -> None:
    """An unfinished card game of RESUME_EVENTS events, journalled as the app does (with
    its snapshots), for the Resume tap."""
    from games.revenge.bench.core import RESUME_EVENTS, long_game, write_with_writer

    write_with_writer(data_dir, long_game(RESUME_EVENTS))


def child(mode: str, *args: str) -> dict[str, float]:
    """One measurement, in a child process under one of bench.pi's conditions."""
    if mode == "latency":
        return _child_latency(args[0])
    if mode == "resume":
        return _child_resume(*args)
    raise SystemExit(f"unknown mode {mode!r}")


def rows() -> list[Row]:
    with tempfile.TemporaryDirectory(prefix="sorry-bench-ui-") as tmp:
        env = kivy_env(os.path.join(tmp, "kivy"))
        taps = measure(MODULE, "latency", os.path.join(tmp, "latency"), env=env)
        starts = measure_starts(tmp, env)
        template = os.path.join(tmp, "resumable")
        write_resumable(template)
        resume = measure(MODULE, "resume", template, "idle", env=env)
        early = measure(MODULE, "resume", template, "early", env=env)

    def split(what: str, part: str, goal: str = "", ok: bool | None = None) -> Row:
        return Row(f"UI {what}, p50 / p99", taps.pair("normal", part + "_50", part + "_99"),
                   taps.pair("pi", part + "_50", part + "_99"),
                   goal, ok, taps.load)

    label_ok = (met(taps, "label_99", lambda p: p <= FRAME_BUDGET_MS)
                and met(taps, "label_50", lambda p: p <= IDLE_GOAL_MS, ("normal",)))

    def resume_figures(m: Measured) -> tuple[str, str]:
        return figures(m, lambda c: (
            f"{m.cell(c, 'issued', '{:,.0f}', ' ms')}; rasterised (software) "
            f"{m.cell(c, 'drawn', '{:,.0f}', ' ms')}; the UI thread's CPU time to "
            f"issued {m.cell(c, 'issued_cpu', '{:,.0f}', ' ms')}; tapped "
            f"{m.cell(c, lambda r: r['tapped_at'] / 1000, '{:,.1f}', ' s')} after the "
            "first frame"))

    return [
        split("tap-to-state (event applied, listener heard)", "state"),
        split("state-to-label (total label's text changed)", "label_only"),
        split("tap-to-label (the two above: on screen before rasterising)", "label",
              f"p99 <= {FRAME_BUDGET_MS:.1f} ms (Pi model too), p50 <= {IDLE_GOAL_MS:g} ms",
              label_ok),
        split("tap-to-label, the UI thread's CPU time (what the load does not move; a Pi "
              "core is about 4x slower)", "label_cpu"),
        split("drawing (label changed to frame rasterised; software-drawn here, the Pi's "
              "GPU there)", "draw"),
        split("tap-to-total (tap to frame rasterised, software-drawn)", "total"),
        *start_rows(starts),  # the app's, between the taps and Resume as always
        Row("UI Resume tapped to the game's screen issued (a 10,000-event card game, from "
            f"its snapshot; tapped {RESUME_TAP_S:g} s after the app has made its next "
            "screens and the table's players' panels ahead, as a family reads the resume "
            "line first)", *resume_figures(resume),
            f"<= {RESUME_DRAWN_GOAL_MS:g} ms (Pi model too)",
            met(resume, "issued", lambda ms: ms <= RESUME_DRAWN_GOAL_MS), resume.load),
        Row(f"UI Resume tapped {RESUME_TAP_S:g} s after the first frame, while the app is "
            "still making its next screens ahead (the same game)", *resume_figures(early),
            load=early.load),
    ]


if __name__ == "__main__":
    for row in rows():
        print(row)
