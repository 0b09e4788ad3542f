"""Hardware benchmarks: how fast a button edge and a state change reach their target.

- GPIO edge to engine event: a real gpiozero Button on gpiozero's MockFactory, its pin
  driven low in a steal window; measured from just before the edge to the session's
  listener hearing the SORRY! call (edge callback, lockout, edge clock, press routing,
  engine; no journal). A second row adds the real SQLite journal with the app's journal
  writer thread (the press is applied at once and made durable behind), with the
  journal's syncs delayed as on an SD card in a child process (bench.pi).
- state change to board line: from `session.play` to the simulated board (the firmware's
  own Board on a pseudo-terminal) having read the whole `=STATE` line, through the LED
  board host's worker thread.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import threading
import time

from bench import Row, percentile, pi
from companion.games.revenge import Card, Play, Setup
from companion.journal import Journal
from companion.session import Session, Update

EDGE_SAMPLES = 2000
EDGE_SYNC_SAMPLES = 400  # each press's undo is journalled too: 2 slow syncs a sample
LINE_SAMPLES = 500
EDGE_P99_GOAL_MS = 2.0
LINE_P99_GOAL_MS = 5.0
PLAYERS = ["Ana", "Ben", "Cy", "Di"]


def edge_to_event_ms(journal: Journal | None, samples: int) -> list[float]:
    from gpiozero.pins.mock import MockFactory

    from hardware.buttons import ButtonPanel
    from hardware.pinplan import plan_pins
    from hardware.presses import PressRouter

    session = Session(journal, background=True)
    setup = Setup.create(PLAYERS)
    heard = 0.0

    def listen(update: Update) -> None:
        nonlocal heard
        heard = time.perf_counter()

    session.subscribe(listen)
    factory = MockFactory()
    # lockout 0: the same pin is pressed again within microseconds here; the lockout
    # check itself still runs on every edge.
    with ButtonPanel(plan_pins(pins=(17, 27, 22, 23)), on_press=PressRouter(session),
                     lockout_ms=0.0, pin_factory=factory) as panel:
        out = []
        session.new_game(setup)
        session.submit(Play(Card.parse("slide:21")))  # Ana reached 21: a steal window is open
        for i in range(samples):
            pin = panel.pin(1 + i % 3)
            start = time.perf_counter()
            pin.drive_low()
            out.append((heard - start) * 1000)
            pin.drive_high()
            session.undo()  # the steal window is open again
    factory.close()
    session.close()
    return out


def _edge_with_slow_sync() -> list[float] | None:
    if not pi.available("sync"):
        return None
    out = pi.run(["-m", "bench.hardware", "child-edge"], "sync",
                 env={**os.environ, "GPIOZERO_PIN_FACTORY": "mock"})
    return json.loads(out.strip().splitlines()[-1])


def state_to_line_ms(samples: int) -> list[float]:
    from hardware.ledboardhost import LedBoardHost
    from hardware.simulator import SimulatedBoard

    arrived = threading.Event()
    stamp = 0.0

    def on_line(message, at: float) -> None:
        nonlocal stamp
        if message.verb == "=STATE":
            stamp = at
            arrived.set()

    session = Session()
    session.new_game(Setup.create(PLAYERS))
    out = []
    with SimulatedBoard(on_line=on_line) as board, \
            LedBoardHost(ports=lambda: [board.path], heartbeat=3600.0) as host:
        host.follow(session)
        host.start()
        if not arrived.wait(10):
            raise RuntimeError("the simulated board never received a state")
        for i in range(samples):
            arrived.clear()
            start = time.monotonic()
            if i % 2 == 0:
                session.submit(Play(Card.parse("5")))  # the turn moves on: a new board state
            else:
                session.undo()
            if not arrived.wait(10):
                raise RuntimeError("a state never reached the simulated board")
            out.append((stamp - start) * 1000)
    return out


def rows() -> list[Row]:
    os.environ.setdefault("GPIOZERO_PIN_FACTORY", "mock")
    edge = edge_to_event_ms(None, EDGE_SAMPLES)
    with tempfile.TemporaryDirectory() as folder, Journal.open(folder) as journal:
        durable = edge_to_event_ms(journal, EDGE_SAMPLES // 4)
    slow = _edge_with_slow_sync()
    line = state_to_line_ms(LINE_SAMPLES)

    def p(samples: list[float], q: float) -> str:
        return f"{percentile(samples, q):.3f}"

    edge99, line99 = percentile(edge, 99), percentile(line, 99)
    return [
        Row("GPIO edge (mock pin) to engine event, ms p50 / p99",
            f"{p(edge, 50)} / {p(edge, 99)}", f"p99 <= {EDGE_P99_GOAL_MS:g} ms",
            edge99 <= EDGE_P99_GOAL_MS),
        Row("GPIO edge to engine event with the SQLite journal and its writer thread, "
            "ms p50 / p99",
            f"{p(durable, 50)} / {p(durable, 99)}", f"p99 <= {EDGE_P99_GOAL_MS:g} ms (sync too)",
            percentile(durable, 99) <= EDGE_P99_GOAL_MS
            and (slow is None or percentile(slow, 99) <= EDGE_P99_GOAL_MS),
            sync="" if slow is None else f"{p(slow, 50)} / {p(slow, 99)}"),
        Row("state change to LED board line read (pty), ms p50 / p99",
            f"{p(line, 50)} / {p(line, 99)}", f"p99 <= {LINE_P99_GOAL_MS:g} ms",
            line99 <= LINE_P99_GOAL_MS),
    ]


if __name__ == "__main__":
    if sys.argv[1:] == ["child-edge"]:
        with tempfile.TemporaryDirectory() as folder, Journal.open(folder) as journal:
            print(json.dumps(edge_to_event_ms(journal, EDGE_SYNC_SAMPLES)))
    else:
        for row in rows():
            print(row)
