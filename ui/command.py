"""`sorry-companion run`: the touchscreen app. Imports only the standard library and
companion here; Kivy is loaded inside `run`, so the other commands work without it."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from companion.config import LANGUAGES, config_from_args
from hardware.ledboard_option import add_ledboard_option


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "run",
        help="open the touchscreen app (keys 1-4 are the SORRY! buttons)",
        description="Open the table companion's touchscreen app.",
    )
    add_ledboard_option(parser, "serial port of the HOME LED board (e.g. the simulator's pty)")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument(
        "--fullscreen",
        dest="fullscreen",
        action="store_true",
        default=None,
        help="fill the screen (the appliance)",
    )
    mode.add_argument(
        "--windowed",
        dest="fullscreen",
        action="store_false",
        help="a window of [display] size, 800x480 unless set (a laptop)",
    )
    parser.add_argument(
        "--language", choices=LANGUAGES, help="language of the screen and the voice for this run"
    )
    parser.add_argument(
        "--no-hardware",
        dest="hardware",
        action="store_false",
        help="touch only: do not look for GPIO buttons or the LED board",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    config = config_from_args(args)  # a ConfigError is one sentence, exit 2 (cli.py)
    from companion.errors import DataFolderBusy
    from ui.launch import launch

    try:
        return launch(
            config,
            config.data_dir,
            ledboard_port=args.ledboard,
            fullscreen=args.fullscreen,
            language=args.language,
            start_hardware=args.hardware,
        )
    except DataFolderBusy as exc:  # a second app on the same folder: refuse, exit 2
        print(f"sorry-companion: {exc}", file=sys.stderr)
        return 2
