"""`sorry-companion`: one console script, one module per subcommand.

Each command module has `register(subparsers)`, which adds its parser and sets `run`
(a function of the parsed args returning the exit status); a game's own commands are in
its folder (its manifest's `commands`). Command modules import only the standard library
and `companion` at import time, so `replay` works in a bare
`pip install --no-deps` and the help lists every command; Kivy, gpiozero and pyserial
are imported inside the commands that need them.
"""

from __future__ import annotations

import argparse
import errno
import importlib
import io
import os
import re
import sys
from collections.abc import Sequence
from typing import NoReturn

from companion import __version__, plugins
from companion.errors import CompanionError, ConfigError, JournalError
from companion.safe_text import MAX_QUOTED, one_line, quote

TRACEBACK_ENV = "SORRY_COMPANION_TRACEBACK"
_LONG_QUOTED = re.compile(rf"""(['"])(.{{{MAX_QUOTED + 1},}}?)\1(?=$|[\s,)])""")

COMMAND_MODULES = (
    "companion.commands.replay",
    "companion.commands.export",
    "companion.commands.history",
    "companion.commands.stats",
    "companion.commands.simulate",
    "companion.commands.backup",
    "ui.command",
    "hardware.commands",
    "camera.command",
)


class _Parser(argparse.ArgumentParser):
    """argparse repeats a bad argument in its message: at most a line of it, escaped."""

    def error(self, message: str) -> NoReturn:
        shorter = _LONG_QUOTED.sub(lambda m: quote(m.group(2)), message)
        super().error(one_line(shorter, 400))


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
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
    # the shared commands, then each game's own (its manifest's `commands`)
    games = tuple(m for m in (plugins.manifest(n).commands for n in plugins.names()) if m)
    for name in (*COMMAND_MODULES, *games):
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name is not None and name.startswith(exc.name):
                continue  # that part of the app is not installed here
            raise
        module.register(sub)
    return parser


class _ClosedOutput(io.TextIOBase):
    """Standing in for a closed standard output (`>&-`): every write fails with EBADF, so
    the command says "could not write the output" instead of losing it or a traceback."""

    def write(self, text: str) -> int:
        raise OSError(errno.EBADF, "standard output is closed")

    def fileno(self) -> int:
        return 1


def main(argv: Sequence[str] | None = None) -> int:
    if sys.stdout is None:
        sys.stdout = _ClosedOutput()
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
    except Exception as exc:  # a bug: one sentence, the traceback only when asked for
        if os.environ.get(TRACEBACK_ENV):
            raise
        print(f"sorry-companion: an internal error stopped the command ({type(exc).__name__}: "
              f"{one_line(str(exc), 120)}); please report it with the command you ran (set "
              f"{TRACEBACK_ENV}=1 to see the details)", file=sys.stderr)
        return 70


if __name__ == "__main__":
    sys.exit(main())
