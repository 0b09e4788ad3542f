"""Runs `sorry-companion camera ...` once per case, each in its own process forked from
this one (numpy, OpenCV and the app already loaded, so a case costs milliseconds, not a
second of imports), and prints one JSON line per case: its exit status, stdout, stderr,
wall seconds and the process's own peak memory (os.wait4). A case still running after
ALARM_S is killed by its alarm (status -14): a hang, which the test counts as a failure.

    python hostile_runner.py CASES.json   (a list of argument lists)
"""

from __future__ import annotations

import json
import os
import signal
import sys
import tempfile
import time
import traceback

ALARM_S = 60


def run_case(args: list[str], out: int, err: int) -> None:
    """In the forked child: the real main(), its output to `out` and `err`."""
    os.dup2(out, 1)
    os.dup2(err, 2)
    signal.alarm(ALARM_S)
    try:
        from companion.cli import main

        status = main(args)
    except SystemExit as exc:  # argparse
        status = exc.code if isinstance(exc.code, int) else 2
    except BaseException:
        traceback.print_exc()
        status = 99
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(status)


def main() -> None:
    import camera.command
    import companion.cli  # noqa: F401
    from camera.extra import require
    from camera.image_file import limits_in_force

    require()
    import camera.model
    import camera.teach
    import camera.watcher  # noqa: F401

    assert limits_in_force()
    with open(sys.argv[1]) as listing:
        cases = json.load(listing)
    for args in cases:
        with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
            sys.stdout.flush()
            start = time.monotonic()
            pid = os.fork()
            if pid == 0:
                run_case(args, out.fileno(), err.fileno())
            _pid, status, usage = os.wait4(pid, 0)
            seconds = time.monotonic() - start
            out.seek(0)
            err.seek(0)
            print(json.dumps({"args": args, "status": os.waitstatus_to_exitcode(status),
                              "stdout": out.read().decode(errors="replace"),
                              "stderr": err.read().decode(errors="replace"),
                              "seconds": seconds, "max_rss_mb": usage.ru_maxrss / 1024}),
                  flush=True)


if __name__ == "__main__":
    main()
