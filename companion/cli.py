"""`sorry-companion`: one console script, one module per subcommand.

Each command module has `register(subparsers)`, which adds its parser and sets `run`
(a function of the parsed args returning the exit status). Command modules import only
the standard library and `companion` at import time, so `replay` works in a bare
`pip install --no-deps` and the help lists every command; Kivy, gpiozero and pyserial
are imported inside the commands that need them.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

from companion import __version__
from companion.errors import CompanionError, ConfigError, JournalError
from companion.safe_text import quote

COMMAND_MODULES = (
    "companion.commands.replay",
    "companion.commands.export",
    "companion.commands.history",
    "companion.commands.stats",
    "companion.commands.simulate",
    "companion.commands.board",
    "ui.command",
    "hardware.commands",
    "camera.command",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="sorry-companion",
        description="Table companion for the Sorry! Revenge card game.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    parser.add_argument("--config", metavar="FILE",
                        help="configuration file (default: $SORRY_COMPANION_CONFIG, "
                             "~/.config/sorry-companion/config.toml, "
                             "/etc/sorry-companion/config.toml)")
    parser.add_argument("--data", metavar="DIR", help="folder of the game journal "
                        "(default: the config's data_dir, else ~/.local/share/sorry-companion)")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name is not None and name.startswith(exc.name):
                continue  # that part of the app is not installed here
            raise
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if getattr(args, "run", None) is None:
        parser.print_help()
        return 2
    try:
        status = int(args.run(args) or 0)
        sys.stdout.flush()  # a full disk or a closed pipe shows here, not at exit
        return status
    except BrokenPipeError:  # `sorry-companion history | head`: the reader has enough
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except ConfigError as exc:
        print(f"sorry-companion: {exc}", file=sys.stderr)
        return 2
    except (CompanionError, JournalError) as exc:
        print(f"sorry-companion: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:
        if exc.filename is not None:  # a file or folder the command needed, not the output
            print(f"sorry-companion: cannot use {quote(str(exc.filename))}: "
                  f"{exc.strerror or exc}; check that it exists and that this user may read "
                  "(and for the data folder, write) it", file=sys.stderr)
            return 1
        # writing the output failed (e.g. `export > /dev/full`)
        print(f"sorry-companion: could not write the output: {exc.strerror or exc}",
              file=sys.stderr)
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
