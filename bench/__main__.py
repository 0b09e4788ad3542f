"""`make bench`: run every benchmark module and print one Markdown table.

The table is pasted into the README as it is. Its modules are found stage by stage
(STAGES): a stage's shared modules here, then each game's for that stage, in the
registry's order (a game's manifest names them: its `bench` package's MODULES). One that
cannot run here (a missing optional part) prints its reason instead of rows.
BENCH_MODULES (module names, comma-separated) runs only those, in the table's order.
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

# The table's stages, in its order, each with its shared modules (run before the games')
STAGES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("core", ()),
    ("ui", ()),
    ("hardware", ()),
    ("camera", ("bench.camera", "bench.camera_table")),
)
SELECTED = "BENCH_MODULES"  # the environment variable naming the modules to run


def modules() -> list[str]:
    """Every benchmark module, in the table's order: each stage's shared ones, then each
    game's for that stage."""
    from companion import plugins  # here: a child (the Kivy hello's cold start) needs none

    out: list[str] = []
    for stage, shared in STAGES:
        out += shared
        for game in plugins.names():
            parts = plugins.layer(game, "bench")
            found: dict[str, str] = {} if parts is None else parts.MODULES
            if stage in found:
                out.append(found[stage])
    return out


def selected(every: list[str], wanted: str | None) -> list[str]:
    """The modules BENCH_MODULES names (all when it is unset or empty), in the table's
    order; a name that is no benchmark module is refused in one sentence."""
    names = [n.strip() for n in (wanted or "").split(",") if n.strip()]
    if unknown := [n for n in names if n not in every]:
        raise SystemExit(f"{SELECTED} names {', '.join(unknown)}, not a benchmark module: "
                         f"the modules are {', '.join(every)}")
    return [n for n in every if n in names] if names else every


def child(module: str, mode: str, *args: str) -> int:
    """One measurement: the module's figures as one JSON line on stdout."""
    figures = importlib.import_module(module).child(mode, *args)
    print(json.dumps(figures), flush=True)
    return 0


def main() -> int:
    rows: list[Row] = []
    load_before = os.getloadavg()
    for name in selected(modules(), os.environ.get(SELECTED)):
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
