"""Issue 36: running one command imports that command's module only (the command line
imported all nine at every start), while `--help`, errors and every command's own help
print what the whole command line prints."""

from __future__ import annotations

import argparse
import importlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

from companion import cli, plugins

REPO = Path(__file__).resolve().parents[2]


def registered(module: str) -> set[str]:
    """The commands `module`'s register adds."""
    sub = argparse.ArgumentParser().add_subparsers()
    importlib.import_module(module).register(sub)
    return set(sub.choices)


def commands(parser: argparse.ArgumentParser) -> set[str]:
    (sub,) = (a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return set(sub.choices)


@pytest.mark.parametrize("module", list(cli.COMMAND_MODULES))
def test_each_module_registers_the_commands_the_table_gives_it(module: str) -> None:
    assert registered(module) == set(cli.COMMAND_MODULES[module])


def test_the_table_and_the_games_own_commands_are_the_whole_command_line() -> None:
    games = [m for m in (plugins.manifest(n).commands for n in plugins.names()) if m]
    assert games, "the board game has its own command"
    shared = {name for names in cli.COMMAND_MODULES.values() for name in names}
    own = set().union(*(registered(m) for m in games))
    assert commands(cli.build_parser()) == shared | own and not shared & own


@pytest.mark.parametrize("command", ["replay", "restore", "run", "ledboard-sim", "board"])
def test_a_command_builds_a_command_line_of_its_module_only(command: str) -> None:
    module = next((m for m, names in cli.COMMAND_MODULES.items() if command in names), None)
    want = set(cli.COMMAND_MODULES[module]) if module else {"board"}
    assert commands(cli.build_parser(command)) == want


@pytest.mark.parametrize(("argv", "command"), [
    (["replay", "--json"], "replay"), (["--data", "history", "stats"], "stats"),
    (["--dat", "d", "--config=c", "history"], "history"), (["board", "options"], "board"),
    (["camera", "--help"], "camera"),
])
def test_the_command_is_read_past_the_options_before_it(argv: list[str], command: str) -> None:
    assert cli.command_named(argv) == command


@pytest.mark.parametrize("argv", [
    [], ["--help"], ["-h", "replay"], ["--version", "replay"], ["--data"], ["--bogus", "stats"],
])
def test_help_version_bad_options_and_no_command_name_no_command(argv: list[str]) -> None:
    assert cli.command_named(argv) is None


def test_a_command_run_as_the_family_runs_it_does_not_import_the_others(tmp_path) -> None:
    probe = ("import sys; from companion import cli; cli.parse(sys.argv[1:]); "
             "print(__import__('json').dumps(sorted(m for m in cli.COMMAND_MODULES "
             "if m in sys.modules)))")
    done = subprocess.run([sys.executable, "-c", probe, "board", "options", "-",
                           "--card", "1", "--color", "red"], cwd=REPO,
                          capture_output=True, text=True, timeout=120, check=True)
    assert json.loads(done.stdout) == []
    done = subprocess.run([sys.executable, "-c", probe, "run"], cwd=REPO,
                          capture_output=True, text=True, timeout=120, check=True)
    assert json.loads(done.stdout) == ["ui.command"]


def printed(run, capsys) -> tuple[object, str, str]:
    """What `run()` returned (or the exit status it stopped with) and printed."""
    try:
        status: object = run()
    except SystemExit as stop:
        status = stop.code
    out, err = capsys.readouterr()
    return (status if isinstance(status, int | str | None) else "parsed"), out, err


@pytest.mark.parametrize("argv", [
    ["replay", "--help"], ["restore", "-h"], ["board", "options", "--help"],
    ["camera", "teach-board", "--help"], ["--help"], ["-h", "replay"], ["--version"], [],
    ["nosuch"], ["replay"], ["history", "--bogus"], ["--bogus", "history"], ["--data"],
    ["simulate", "--games"], ["camera", "watch-board"], ["ledboard", "flash", "-x"],
])
def test_help_and_errors_are_the_whole_command_lines(argv: list[str], capsys) -> None:
    lazy = printed(lambda: cli.parse(argv), capsys)
    whole = printed(lambda: cli.build_parser().parse_args(argv), capsys)
    assert lazy == whole and (lazy[1] or lazy[2] or argv == []), argv
