"""`make bench`: run every benchmark module and print one Markdown table.

The table is pasted into the README as it is. Modules are run in this order; one that
cannot run here (a missing optional part) prints its reason instead of rows.
`python -m bench child MODULE MODE ARGS...` is one measurement (bench/__init__.py).
"""

from __future__ import annotations

import importlib
import json
import os
import platform
import sys
import traceback

from bench import RUNS, Row

MODULES = ("bench.core", "bench.board", "bench.ui", "bench.board_ui", "bench.hardware",
           "bench.camera", "bench.camera_table", "games.board.camera.bench")


def child(module: str, mode: str, *args: str) -> int:
    """One measurement: the module's figures as one JSON line on stdout."""
    figures = importlib.import_module(module).child(mode, *args)
    print(json.dumps(figures), flush=True)
    return 0


def main() -> int:
    rows: list[Row] = []
    load_before = os.getloadavg()
    for name in MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name == name:
                continue
            raise
        print(f"running {name} ...", file=sys.stderr, flush=True)
        try:
            found = module.rows()
        except Exception:  # a broken benchmark must not hide the others
            traceback.print_exc()
            found = [Row(f"{name} failed", "see the error above")]
        rows.extend(found)
        for row in found:  # as they come: a long run's rows so far are never lost
            print(_line(row), file=sys.stderr, flush=True)
    from bench import pi

    load_after = os.getloadavg()
    print(f"Machine: {platform.machine()}, Python {platform.python_version()}, "
          f"{platform.system()} {platform.release()}, {os.cpu_count()} cores")
    print(f"Pi model: {pi.note()}")
    print(f"Each row: median (lowest-highest) of {RUNS} runs per column, each figure as "
          "measured (a rate per wall-clock second, the CPU per unit beside it); the "
          "conditions of its columns and the load average (1 min) over each column's "
          f"runs beside it; {load_before[0]:.1f} at the start, {load_after[0]:.1f} at the "
          "end.\n")
    print("| metric | this machine | Pi model | goal | met | conditions | load |")
    print("|---|---|---|---|---|---|---|")
    for row in rows:
        print(_line(row))
    return 0


def _line(row: Row) -> str:
    from bench import pi

    met = "" if row.met is None else ("yes" if row.met else "**no**")
    conditions = pi.short_note(with_pi=bool(row.pi)) if row.load else "in this process"
    return (f"| {row.metric} | {row.figure} | {row.pi} | {row.goal} | {met} | {conditions} "
            f"| {row.load} |")


if __name__ == "__main__":
    if sys.argv[1:2] == ["child"]:
        sys.exit(child(*sys.argv[2:]))
    sys.exit(main())
