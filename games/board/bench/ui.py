"""Benchmark of the board screen: from a tap to the first frame that shows the options it
highlights, on the real app with the real board engine and a real journal.

Two taps of a turn are measured, over and over on a classic game of two: the card on the
pad (the engine lists its options; the pawns that can move light up) and the pawn (its one
destination: it moves at the tap). Two undos bring the game back, unmeasured.
Each tap is timed to the first frame issued after it (on screen, before rasterising) and
to that frame rasterised (software-drawn here), normal and under the Pi model (bench.pi),
3 runs each; `python -m bench child games.board.bench.ui latency|draw DATA_DIR` is the child.
"""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path
from typing import Any

from bench import Measured, Row, measure, met, percentile
from bench.ui import (
    FRAME_BUDGET_MS,
    IDLE_GOAL_MS,
    LATENCY_TAPS,
    LATENCY_WARMUP,
    TAP_SPACING,
    kivy_env,
)

MODULE = __spec__.name  # as `python -m bench child` names it, also when run with -m
SETUP = {"type": "setup", "game": "board", "edition": "classic", "players": ["Ana", "Ben"],
         "colors": ["red", "blue"], "first": "Ana"}
# (what to tap, the BoardView property that shows its effect, measured as). A pawn with
# one destination moves at its one tap (issue 35.5), so the pawn's tap is timed to the
# move drawn; waiting for its options lit would wait for ever (the bench hung so).
TURN = (("card:1", "sources", "card"), ("red:START", "state", "pawn"),
        ("undo", "state", ""), ("undo", "state", ""))


# Draw (the companion draws a random card) to the frame that shows its options lit or its
# forfeit said: the model's revision changes once all of it is set; undo takes it back.
DRAWS = (("draw", "revision", "draw"), ("undo", "revision", ""))
DRAW_GOAL_MS = 100.0  # issue 19: Draw -> options drawn, p99, on the Pi model too


def _child_latency(data_dir: str, mode: str = "latency") -> dict[str, float]:
    from ui.launch import build_app, prepare_kivy

    prepare_kivy(fullscreen=False)
    from kivy.clock import Clock
    from kivy.core.window import Window
    from kivy.graphics.opengl import glFinish
    from kivy.tests.common import UnitTestTouch

    from companion.config import Config

    kinds = ("draw",) if mode == "draw" else ("card", "pawn")
    turn = DRAWS if mode == "draw" else TURN
    samples: dict[str, list[float]] = {k: [] for k in kinds}  # on screen, issued
    drawn: dict[str, list[float]] = {k: [] for k in kinds}  # rasterised (software)
    cpu: dict[str, list[float]] = {k: [] for k in kinds}  # the UI thread's CPU, tap to issued
    enough = LATENCY_TAPS if mode == "draw" else LATENCY_TAPS // 2
    pending: dict[str, Any] = {}
    step = [0]

    def ready(app: Any) -> None:
        error = app.start_game({**SETUP, "draws": "companion" if mode == "draw" else "table"})
        if error:
            raise SystemExit(error)
        screen = app.screen("board")
        app.guard.seconds = 0  # taps 0.1 s apart: measuring (the check still runs), not guarding
        app.guard.bounce_seconds = 0  # the same key 0.1 s apart is a tap here, not a bounce
        view = screen.ids.board
        for prop in ("sources", "targets", "state"):
            view.bind(**{prop: lambda *_a, p=prop: pending.__setitem__(f"changed:{p}", True)})
        app.models["board"].bind(revision=lambda *_a: pending.__setitem__("changed:revision", True))

        def on_window(widget: Any, at: tuple[float, float]) -> tuple[float, float]:
            x, y = widget.to_window(*at)
            return x, y

        def where(target: str) -> tuple[float, float]:
            if target.startswith("card:") or target == "draw":  # a button of that code
                button = next(w for w in screen.walk() if getattr(w, "code", "") == target)
                return on_window(button, button.center)
            if target == "undo":
                return on_window(screen.ids.board_undo, screen.ids.board_undo.center)
            return on_window(view, view.key_px(target))

        def flipped(*_: object) -> None:
            if "t0" not in pending or f"changed:{pending['watch']}" not in pending:
                return
            issued = time.perf_counter() - pending["t0"]
            used = time.thread_time() - pending["cpu0"]
            glFinish()  # drawn means rasterised, not just handed to the GL driver
            elapsed = time.perf_counter() - pending["t0"]
            if pending["measured"]:
                samples[pending["measured"]].append(issued)
                drawn[pending["measured"]].append(elapsed)
                cpu[pending["measured"]].append(used)
            pending.clear()
            if len(samples[kinds[-1]]) >= enough + LATENCY_WARMUP:
                app.stop()
                return
            Clock.schedule_once(tap, TAP_SPACING)

        def tap(*_: object) -> None:
            target, watch, measured = turn[step[0] % len(turn)]
            step[0] += 1
            x, y = where(target)
            touch = UnitTestTouch(x, y)
            pending.clear()
            pending.update(t0=time.perf_counter(), cpu0=time.thread_time(), watch=watch,
                           measured=measured)
            touch.touch_down()
            touch.touch_up()

        Window.bind(on_flip=flipped)
        Clock.schedule_once(tap, 0.5)

    build_app(Config(), Path(data_dir), start_hardware=False, on_ready=ready).run()
    out = {}
    for kind in kinds:
        for name, series in (("issued", samples), ("drawn", drawn), ("cpu", cpu)):
            ms = [x * 1000 for x in series[kind][LATENCY_WARMUP:]]
            out.update({f"{kind}_{name}_{q}": percentile(ms, q) for q in (50, 99)})
    return out


def child(mode: str, *args: str) -> dict[str, float]:
    """One measurement, in a child process under one of bench.pi's conditions."""
    if mode in ("latency", "draw"):
        return _child_latency(args[0], mode)
    raise SystemExit(f"unknown mode {mode!r}")


def rows() -> list[Row]:
    with tempfile.TemporaryDirectory(prefix="sorry-bench-board-") as tmp:
        taps = measure(MODULE, "latency", os.path.join(tmp, "data"),
                       env=kivy_env(os.path.join(tmp, "kivy")))
        draws = measure(MODULE, "draw", os.path.join(tmp, "draws"),
                        env=kivy_env(os.path.join(tmp, "kivy-draw")))

    def pair(c: str, what: str, m: Measured = taps) -> str:
        return m.pair(c, what + "_50", what + "_99")

    out = []
    for kind, what in (("card", "card tapped to its pawns lit"),
                       ("pawn", "pawn tapped to its one-tap move drawn")):
        out += [
            Row(f"board screen: {what}, on screen before rasterising, p50 / p99",
                pair("normal", f"{kind}_issued"), pair("pi", f"{kind}_issued"),
                f"p99 <= {FRAME_BUDGET_MS:.1f} ms (Pi model too), p50 <= {IDLE_GOAL_MS:g} ms",
                met(taps, f"{kind}_issued_99", lambda p: p <= FRAME_BUDGET_MS)
                and met(taps, f"{kind}_issued_50", lambda p: p <= IDLE_GOAL_MS, ("normal",)),
                taps.load),
            Row(f"board screen: {what}, rasterised (software-drawn), p50 / p99",
                pair("normal", f"{kind}_drawn"), pair("pi", f"{kind}_drawn"), load=taps.load),
            Row(f"board screen: {what}, the UI thread's CPU time to issued (what the load "
                "does not move; a Pi core is about 4x slower), p50 / p99",
                pair("normal", f"{kind}_cpu"), pair("pi", f"{kind}_cpu"), load=taps.load),
        ]
    out += [
        Row("board screen: Draw to its options lit (or forfeit said), on screen, p50 / p99",
            pair("normal", "draw_issued", draws), pair("pi", "draw_issued", draws),
            f"p99 <= {DRAW_GOAL_MS:g} ms (Pi model too)",
            met(draws, "draw_issued_99", lambda p: p <= DRAW_GOAL_MS), draws.load),
        Row("board screen: Draw to its options lit, rasterised (software-drawn), p50 / p99",
            pair("normal", "draw_drawn", draws), pair("pi", "draw_drawn", draws),
            load=draws.load),
        Row("board screen: Draw to its options lit, the UI thread's CPU time (what the load "
            "does not move; a Pi core is about 4x slower), p50 / p99",
            pair("normal", "draw_cpu", draws), pair("pi", "draw_cpu", draws), load=draws.load),
    ]
    return out


if __name__ == "__main__":
    for row in rows():
        print(row)
