"""The hardware's subcommands: `doctor`, `ledboard flash` and `ledboard-sim`.

Imported by companion/cli.py for every command, so only the standard library and
`companion` are imported here; gpiozero, pyserial and the simulator come in when a
command runs.
"""

from __future__ import annotations

import argparse
import math
import os
import re
import sys
import threading
import time
from typing import Any

from hardware.ledboard_option import add_ledboard_option

DRAW_EVERY_S = 0.1  # the terminal drawing's frame time


def _seconds(text: str) -> float:
    """A positive, finite number of seconds."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"use a positive number of seconds, not {text!r}")
    return value


def _uid(text: str) -> str:
    """A uid that fits a PAWNLED/1 line as one word."""
    if not re.fullmatch(r"[A-Za-z0-9_-]{1,32}", text):
        raise argparse.ArgumentTypeError(
            f"use 1 to 32 letters, digits, - or _, not {text!r}")
    return text


def register(subparsers: Any) -> None:
    doctor = subparsers.add_parser(
        "doctor", help="check the configuration, buttons, LED board, voice and display",
        description="Check what works at this table and say what to fix. Exit status 0 "
                    "when the essential checks (configuration, display) pass.")
    doctor.add_argument("--buttons", action="store_true",
                        help="also show the button presses live for a while")
    doctor.add_argument("--seconds", type=_seconds, default=10.0, metavar="S",
                        help="how long --buttons watches (default 10)")
    add_ledboard_option(doctor, "check this serial port as the LED board")
    doctor.set_defaults(run=run_doctor)

    ledboard = subparsers.add_parser(
        "ledboard", help="the HOME LED board: flash its firmware",
        description="The HOME LED board (a Raspberry Pi Pico running MicroPython).")
    actions = ledboard.add_subparsers(dest="ledboard_action", metavar="ACTION", required=True)
    flash = actions.add_parser(
        "flash", help="copy the firmware to the Pico and check that it answers",
        description="Find the Pico (USB 2E8A:0005, MicroPython), copy the LED board's "
                    "firmware with mpremote, reset it and check that it answers PAWNLED/1. "
                    "MicroPython must be on the Pico first: RPI_PICO for a Pico, RPI_PICO_W "
                    "for a Pico W, RPI_PICO2 for a Pico 2 (hardware/README.md).")
    flash.add_argument("--port", metavar="PATH", help="the Pico's serial port (default: "
                       "found by its USB id)")
    flash.set_defaults(run=run_ledboard_flash)

    sim = subparsers.add_parser(
        "ledboard-sim", help="a simulated HOME LED board on a pseudo-terminal",
        description="Create a pseudo-terminal that speaks PAWNLED/1 like the board's "
                    "firmware, and draw its LEDs here. Give its path to `run --ledboard`.")
    sim.add_argument("--uid", type=_uid, default="SIM0001",
                     help="the uid the board reports (letters, digits, - and _; up to 32)")
    sim.add_argument("--plain", action="store_true",
                     help="no colours or redrawing: print one line per change")
    sim.set_defaults(run=run_ledboard_sim)


def run_doctor(args: argparse.Namespace) -> int:
    from hardware import doctor

    config_check, config = doctor.check_config(getattr(args, "config", None))
    buttons_check, panel = doctor.check_buttons(config.gpio)
    checks = [config_check, buttons_check]
    try:
        checks += [
            doctor.check_ledboard(config.ledboard, ledboard_port=args.ledboard),
            doctor.check_voice(config.voice),
            doctor.check_display(),
            doctor.check_camera(config),
            doctor.check_disk(config.data_dir),
        ]
        print(doctor.table(checks), flush=True)
        if args.buttons:
            if panel is None:
                print("\n--buttons: no buttons to watch (see above)")
            else:
                print()
                doctor.watch_buttons(panel, args.seconds, lambda s: print(s, flush=True))
    finally:
        if panel is not None:
            panel.close()
    return 0 if all(c.passed for c in checks) else 1


def run_ledboard_flash(args: argparse.Namespace) -> int:
    from hardware.flash import FlashError, flash

    try:
        line = flash(args.port, say=lambda text: print(text, flush=True))
    except FlashError as exc:
        print(f"sorry-companion: {exc}", file=sys.stderr)
        return 1
    print(f"LED board ready: {line}")
    return 0


def run_ledboard_sim(args: argparse.Namespace) -> int:
    from hardware.simulator import SimulatedLedBoard
    from hardware.terminal import draw, over

    live = sys.stdout.isatty() and not args.plain
    color = live and not os.environ.get("NO_COLOR")
    changed = threading.Event()
    with SimulatedLedBoard(uid=args.uid, on_change=lambda sim: changed.set()) as sim:
        print(f"LED board simulator on {sim.path}\n"
              f"use it: sorry-companion run --ledboard {sim.path}   "
              f"(or [ledboard] port = \"{sim.path}\")", flush=True)
        shown = None
        try:
            while True:
                changed.wait()
                changed.clear()
                now = sim.clock_ms()
                waiting = sim.ledboard.waiting(now)
                if live:
                    picture = draw(sim.pixels(), sim.state, waiting=waiting, color=color)
                    print((over(shown) if shown else "") + picture, flush=True)
                    shown = picture
                    time.sleep(DRAW_EVERY_S)  # a frame rate, not a synchronisation
                else:
                    seen = ("waiting" if waiting or sim.state is None
                            else sim.state.body().split(" ", 2)[2])
                    if seen != shown:
                        print(seen, flush=True)
                        shown = seen
        except KeyboardInterrupt:
            return 0
