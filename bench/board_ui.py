"""Benchmark of the board screen: from a tap to the first frame that shows the options it
highlights, on the real app with the real board engine and a real journal.

Two taps of a turn are measured, over and over on a classic game of two: the card on the
pad (the engine lists its options; the pawns that can move light up) and the pawn (its
destinations light up). The move and two undos bring the game back, unmeasured.
`python -m bench.board_ui latency DATA_DIR` is the measured child.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from typing import Any

from bench import Row, percentile
from bench.ui import FRAME_BUDGET_MS, LATENCY_TAPS, LATENCY_WARMUP, REPO, TAP_SPACING, _kivy_env

SETUP = {"type": "setup", "game": "board", "edition": "classic", "players": ["Ana", "Ben"],
         "colors": ["red", "blue"], "first": "Ana"}
# (what to tap, the BoardView property that shows its effect, measured as)
TURN = (("card:1", "sources", "card"), ("red:START", "targets", "pawn"), ("T4", "state", ""),
        ("undo", "state", ""), ("undo", "state", ""))


def _child_latency(data_dir: str) -> None:
    from ui.launch import build_app, prepare_kivy

    prepare_kivy(fullscreen=False)
    from kivy.clock import Clock
    from kivy.core.window import Window
    from kivy.graphics.opengl import glFinish
    from kivy.tests.common import UnitTestTouch

    from companion.config import Config

    samples: dict[str, list[float]] = {"card": [], "pawn": []}
    pending: dict[str, Any] = {}
    step = [0]

    def ready(app: Any) -> None:
        error = app.start_game(SETUP, companion_draws=False)
        if error:
            raise SystemExit(error)
        screen = app.screen("board")
        from ui.touchguard import guard

        guard.seconds = 0  # taps come 0.1 s apart: measuring (the check still runs), not guarding
        view = screen.ids.board
        for prop in ("sources", "targets", "state"):
            view.bind(**{prop: lambda *_a, p=prop: pending.__setitem__(f"changed:{p}", True)})

        def where(target: str) -> tuple[float, float]:
            if target.startswith("card:"):
                button = next(w for w in screen.walk() if getattr(w, "code", "") == target)
                return button.to_window(*button.center)
            if target == "undo":
                button = screen.ids.board_undo
                return button.to_window(*button.center)
            return view.to_window(*view.key_px(target))

        def flipped(*_: object) -> None:
            if "t0" not in pending or f"changed:{pending['watch']}" not in pending:
                return
            glFinish()  # drawn means rasterised, not just handed to the GL driver
            elapsed = time.perf_counter() - pending["t0"]
            if pending["measured"]:
                samples[pending["measured"]].append(elapsed)
            pending.clear()
            if len(samples["pawn"]) >= LATENCY_TAPS // 2 + LATENCY_WARMUP:
                print(json.dumps({k: v[LATENCY_WARMUP:] for k, v in samples.items()}),
                      flush=True)
                app.stop()
                return
            Clock.schedule_once(tap, TAP_SPACING)

        def tap(*_: object) -> None:
            target, watch, measured = TURN[step[0] % len(TURN)]
            step[0] += 1
            x, y = where(target)
            touch = UnitTestTouch(x, y)
            pending.clear()
            pending.update(t0=time.perf_counter(), watch=watch, measured=measured)
            touch.touch_down()
            touch.touch_up()

        Window.bind(on_flip=flipped)
        Clock.schedule_once(tap, 0.5)

    build_app(Config(), data_dir, start_hardware=False, on_ready=ready).run()


def _latency(tmp: str) -> dict[str, list[float]]:
    env = _kivy_env(os.path.join(tmp, "kivy"))
    out = subprocess.run(
        [sys.executable, "-m", "bench.board_ui", "latency", os.path.join(tmp, "data")],
        env=env, cwd=REPO, capture_output=True, text=True, timeout=300, check=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def rows() -> list[Row]:
    with tempfile.TemporaryDirectory(prefix="sorry-bench-board-") as tmp:
        by_kind = {k: [s * 1000 for s in v] for k, v in _latency(tmp).items()}
    samples = by_kind["card"] + by_kind["pawn"]
    p50, p99 = percentile(samples, 50), percentile(samples, 99)
    detail = ", ".join(f"{what} p50 {percentile(by_kind[k], 50):.1f} / p99 "
                       f"{percentile(by_kind[k], 99):.1f}"
                       for k, what in (("card", "card tapped"), ("pawn", "pawn tapped")))
    return [
        Row("board screen: tap to highlighted options p50",
            f"{p50:.1f} ms ({len(samples)} taps: {detail})"),
        Row("board screen: tap to highlighted options p99", f"{p99:.1f} ms",
            f"<= {FRAME_BUDGET_MS:.1f} ms", p99 <= FRAME_BUDGET_MS),
    ]


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "latency":
        _child_latency(sys.argv[2])
    else:
        for row in rows():
            print(row)
