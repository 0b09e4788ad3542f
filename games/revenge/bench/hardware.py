"""Hardware benchmarks, on a card game: how fast a button edge and a state change reach
their target.

- GPIO edge to engine event: a real gpiozero Button on gpiozero's MockFactory, its pin
  driven low in a steal window; measured from just before the edge to the session's
  listener hearing the SORRY! call (edge callback, lockout, edge clock, press routing,
  engine). The goal's rows press at a table's pace (20-120 ms apart, as calls in a SORRY!
  window come): without a journal, and with the real SQLite journal, its writer thread
  and the app's own write settle (the press is applied at once and made durable behind).
  A stress row presses back to back with the journal and no settle: the process is never
  idle, so under the Pi model's quota more than one press in 100 finds its slice used up and
  waits up to 3 ms for the next, a stall of the model that a slower core does not have
  (without the journal, back to back, p99 flipped between 0.06 and 3 ms from run to run).
- state change to LED board line: from `session.play` to the simulated LED board (the
  firmware's own LedBoard on a pseudo-terminal) having read the whole `=STATE` line, through the LED
  board host's worker thread.

Each normal and under the Pi model (bench.pi: its syncs delayed too), 3 runs each.
"""

from __future__ import annotations

import os
import random
import tempfile
import threading
import time

from bench import Measured, Row, measure, met, percentile
from companion.journal import Journal
from companion.session import APP_WRITE_SETTLE_S, AnyUpdate, Session
from games.revenge.rules import Card, Play, Setup

MODULE = __spec__.name  # as `python -m bench child` names it, also when run with -m
EDGE_SAMPLES = 200  # at a table's pace
EDGE_STRESS_SAMPLES = 400  # each press's undo is journalled too: 2 syncs a sample
TABLE_GAP_S = (0.02, 0.12)  # between one call and the next at the table
LINE_SAMPLES = 500
EDGE_P99_GOAL_MS = 2.0
LINE_P99_GOAL_MS = 5.0
PLAYERS = ["Ana", "Ben", "Cy", "Di"]


def edge_to_event_ms(journal: Journal | None, samples: int, *, settle: float = 0.0,
                     gaps: tuple[float, float] | None = None) -> list[float]:
    """`gaps`: seconds between one press and the next, drawn evenly from that range (None:
    back to back)."""
    from gpiozero.pins.mock import MockFactory

    from hardware.buttons import ButtonPanel
    from hardware.pinplan import plan_pins
    from hardware.presses import PressRouter

    session = Session(journal, background=True, write_settle=settle)
    pace = random.Random("bench/hardware/table")
    setup = Setup.create(PLAYERS)
    heard = 0.0

    def listen(update: AnyUpdate) -> None:
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
            if gaps:
                time.sleep(pace.uniform(*gaps))  # pacing the presses, not waiting for one
    factory.close()
    session.close()
    return out


def state_to_line_ms(samples: int) -> list[float]:
    from hardware.firmware.pawnled import Message
    from hardware.ledboardhost import LedBoardHost
    from hardware.simulator import SimulatedLedBoard

    arrived = threading.Event()
    stamp = 0.0

    def on_line(message: Message, at: float) -> None:
        nonlocal stamp
        if message.verb == "=STATE":
            stamp = at
            arrived.set()

    session = Session()
    session.new_game(Setup.create(PLAYERS))
    out = []
    with SimulatedLedBoard(on_line=on_line) as board, \
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


def child(mode: str) -> dict[str, float]:
    """One measurement, in a child process under one of bench.pi's conditions."""
    os.environ.setdefault("GPIOZERO_PIN_FACTORY", "mock")
    if mode == "edge":
        samples = edge_to_event_ms(None, EDGE_SAMPLES, gaps=TABLE_GAP_S)
    elif mode == "stress":
        with tempfile.TemporaryDirectory() as folder, Journal.open(folder) as journal:
            samples = edge_to_event_ms(journal, EDGE_STRESS_SAMPLES)
    elif mode == "durable":
        with tempfile.TemporaryDirectory() as folder, Journal.open(folder) as journal:
            samples = edge_to_event_ms(journal, EDGE_SAMPLES, settle=APP_WRITE_SETTLE_S,
                                       gaps=TABLE_GAP_S)
    elif mode == "line":
        samples = state_to_line_ms(LINE_SAMPLES)
    else:
        raise SystemExit(f"unknown mode {mode!r}")
    return {"p50": percentile(samples, 50), "p99": percentile(samples, 99)}


def rows() -> list[Row]:
    edge = measure(MODULE, "edge")
    durable = measure(MODULE, "durable")
    stress = measure(MODULE, "stress")
    line = measure(MODULE, "line")

    pace = f"{TABLE_GAP_S[0] * 1000:.0f}-{TABLE_GAP_S[1] * 1000:.0f} ms apart"

    def pair(m: Measured, c: str) -> str:
        if not m.runs.get(c):
            return ""
        return f"{m.cell(c, 'p50', '{:.3f}')} / {m.cell(c, 'p99', '{:.3f}')}"

    def row(what: str, m: Measured, goal: float | None) -> Row:
        if goal is None:
            return Row(what, pair(m, "normal"), pair(m, "pi"), load=m.load)
        return Row(what, pair(m, "normal"), pair(m, "pi"), f"p99 <= {goal:g} ms (Pi model too)",
                   met(m, "p99", lambda p: p <= goal), m.load)

    return [
        row(f"GPIO edge (mock pin) to engine event, presses {pace}, ms p50 / p99", edge,
            EDGE_P99_GOAL_MS),
        row(f"GPIO edge to engine event with the SQLite journal, its writer thread and the "
            f"app's {APP_WRITE_SETTLE_S * 1000:.0f} ms write settle, presses {pace}, "
            "ms p50 / p99", durable, EDGE_P99_GOAL_MS),
        row("GPIO edge to engine event with the SQLite journal and its writer thread, "
            "presses back to back, no write settle (stress: never idle, so the Pi model's "
            "quota stalls a press up to 3 ms), ms p50 / p99", stress, None),
        row("state change to LED board line read (pty), ms p50 / p99", line, LINE_P99_GOAL_MS),
    ]


if __name__ == "__main__":
    for row in rows():
        print(row)
