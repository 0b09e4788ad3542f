"""The LED board's serial port on the command line, the same for `run` and `doctor`.

`--ledboard PATH` is its name; `--board PATH`, its first name, is still understood, so a
script or a unit written before keeps working. There "board" is the LED board, not the
board game (docs/DECISIONS.md, "One folder per game, finished"). Standard library only:
companion/cli.py builds every command's options, for `replay` too.
"""

from __future__ import annotations

import argparse

__all__ = ["NAME", "OLD_NAME", "add_ledboard_option"]

NAME = "--ledboard"
OLD_NAME = "--board"  # the LED board's first option name, still accepted


def add_ledboard_option(parser: argparse.ArgumentParser, help: str) -> None:
    """Add the LED board's port option to `parser`, read back as `args.ledboard`."""
    parser.add_argument(NAME, OLD_NAME, dest="ledboard", metavar="PATH", help=help)
