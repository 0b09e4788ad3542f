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

# Each shared command module and the commands it registers, in the help's order. Running
# a command imports its module only: a start of the command line spent about 0.4 s of CPU
# here importing all nine, 0.12-0.27 s with one. The games' own commands (their
# manifests') are looked for in the games' command modules, which are small. The names
# only choose what to import: a name not here, --help, no command, or any error the
# parser meets builds the whole command line, so what is printed stays the same
# (tests/companion/test_cli_lazy.py checks the names against what each module registers).
COMMAND_MODULES: dict[str, tuple[str, ...]] = {
    "companion.commands.replay": ("replay",),
    "companion.commands.export": ("export",),
    "companion.commands.history": ("history",),
    "companion.commands.stats": ("stats",),
    "companion.commands.simulate": ("simulate",),
    "companion.commands.backup": ("backup", "restore"),
    "ui.command": ("run",),
    "hardware.commands": ("doctor", "ledboard", "ledboard-sim"),
    "camera.command": ("camera",),
}


class _Parser(argparse.ArgumentParser):
    """argparse repeats a bad argument in its message: at most a line of it, escaped."""

    def error(self, message: str) -> NoReturn:
        shorter = _LONG_QUOTED.sub(lambda m: quote(m.group(2)), message)
        super().error(one_line(shorter, 400))


class _Reparse(Exception):
    """A parser of one command's module met something the whole command line must answer."""


class _OneCommandParser(_Parser):
    """The command line with one command's module: an error is not printed but handed to
    the whole command line, whose message names every command."""

    def error(self, message: str) -> NoReturn:
        raise _Reparse(message)


def _add_options(parser: argparse.ArgumentParser) -> None:
    """The options before the command (beside --help and --version)."""
    parser.add_argument("--config", metavar="FILE",
                        help="configuration file (default: $SORRY_COMPANION_CONFIG, "
                             "~/.config/sorry-companion/config.toml, "
                             "/etc/sorry-companion/config.toml)")
    parser.add_argument("--data", metavar="DIR", help="folder of the game journal "
                        "(default: the config's data_dir, else ~/.local/share/sorry-companion)")


def command_named(argv: Sequence[str]) -> str | None:
    """The command `argv` runs, read past the options before it; None for --help,
    --version, an option the command line does not know or no command at all."""
    peek = _OneCommandParser(add_help=False)
    peek.add_argument("-h", "--help", action="store_true")
    peek.add_argument("--version", action="store_true")
    _add_options(peek)
    peek.add_argument("words", nargs=argparse.REMAINDER)
    try:
        known, unknown = peek.parse_known_args(argv)
    except _Reparse:
        return None
    if known.help or known.version or unknown or not known.words:
        return None
    return str(known.words[0])


def _modules_for(command: str | None) -> tuple[str, ...]:
    """The command modules to import: the one registering `command`, else the games' own
    when it is no shared command's name; every module for None."""
    games = tuple(m for m in (plugins.manifest(n).commands for n in plugins.names()) if m)
    if command is None:
        return (*COMMAND_MODULES, *games)
    shared = tuple(m for m, names in COMMAND_MODULES.items() if command in names)
    return shared or games


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The whole command line; given `command`, one holding only the module of that command
    (it raises _Reparse where the whole one would print an error)."""
    parser = (_Parser if command is None else _OneCommandParser)(
        prog="sorry-companion",
        description="Table companion for the Sorry! Revenge card game.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    _add_options(parser)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    # the shared commands, then each game's own (its manifest's `commands`)
    for name in _modules_for(command):
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name is not None and name.startswith(exc.name):
                continue  # that part of the app is not installed here
            raise
        module.register(sub)
    return parser


def parse(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """`argv` parsed with only its command's module imported where that is enough, else
    with the whole command line (which prints help and errors and exits)."""
    words = sys.argv[1:] if argv is None else list(argv)
    command = command_named(words)
    if command is not None:
        try:
            return build_parser(command).parse_args(words)
        except _Reparse:
            pass  # the whole command line says it, naming every command
    return build_parser().parse_args(words)


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
    args = parse(argv)
    if getattr(args, "run", None) is None:
        build_parser().print_help()
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
