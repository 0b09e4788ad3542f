"""Issue 33: the command line's catch-all ("an internal error stopped the command", exit 70)
is one sentence for a family, but under the tests it re-raises (tests/conftest.py), so a
bug it would have hidden fails the test that ran into it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from companion.cli import TRACEBACK_ENV

REPO = Path(__file__).resolve().parents[2]
# the real console script's main, with a command whose run is a bug
BROKEN_COMMAND = """
import sys
from companion import cli
real = cli.build_parser
def broken():
    parser = real()
    parser.set_defaults(run=lambda args: 1 / 0)
    return parser
cli.build_parser = broken
sys.exit(cli.main([]))
"""


def run_broken(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", BROKEN_COMMAND], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=120)


def test_the_suite_runs_with_the_catch_all_re_raising() -> None:
    assert os.environ.get(TRACEBACK_ENV) == "1"


def test_under_the_tests_a_bug_in_a_command_shows_its_traceback_and_fails() -> None:
    done = run_broken(dict(os.environ))  # what every subprocess of the suite inherits
    assert done.returncode == 1, done.stderr
    assert "Traceback" in done.stderr and "ZeroDivisionError" in done.stderr
    assert "an internal error stopped the command" not in done.stderr


def test_for_a_family_the_same_bug_is_one_sentence_and_exit_70() -> None:
    env = {k: v for k, v in os.environ.items() if k != TRACEBACK_ENV}
    done = run_broken(env)
    assert done.returncode == 70, done.stderr
    assert done.stderr.strip().splitlines() == [
        "sorry-companion: an internal error stopped the command (ZeroDivisionError: division "
        f"by zero); please report it with the command you ran (set {TRACEBACK_ENV}=1 to see "
        "the details)"]
