"""Benchmarks for `make bench`: each benchmark module (the shared ones here, each game's in
its folder's bench/, bench/__main__.py finds them) has `rows()` giving measured rows, and
`child(mode, *args)` giving one measurement (a dict of figures) in a child process.

Every figure is measured in child processes (`python -m bench child MODULE MODE ...`),
RUNS times under each condition of bench.pi ("normal" and "pi"), the two interleaved so a
busy moment of the machine hits both alike; a row shows the median of its runs with the
lowest and highest, and the load average over each condition's runs.

Every figure is what was measured, as it was: a rate is the units done per wall-clock
second (under the Pi model's quota too: never divided by the share of a core the child
got), and beside it the CPU time each unit took (`clocked`), which the host's load moves
less.
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import camera  # noqa: F401  (OpenCV's image limits, set before any bench module loads cv2)

RUNS = int(os.environ.get("BENCH_RUNS", "3"))


@dataclass(frozen=True)
class Row:
    """One line of the benchmark table: what, the figure on this machine and under the Pi
    model, the goal, whether it is met (on the runs' medians), and the load average (1 min)
    while it was measured."""

    metric: str
    figure: str
    pi: str = ""
    goal: str = ""
    met: bool | None = None
    load: str = ""


def clocked(work: Callable[[], float]) -> dict[str, float]:
    """Run `work` (it returns the units it did): {"rate": units per wall-clock second,
    "cpu_us": the process's CPU microseconds per unit}."""
    start, cpu = time.perf_counter(), time.process_time()
    units = work()
    wall, used = time.perf_counter() - start, time.process_time() - cpu
    return {"rate": units / wall, "cpu_us": used / units * 1e6}


def percentile(samples: Sequence[float], q: float) -> float:
    """The q-th percentile (0-100) by nearest rank; samples need not be sorted."""
    ordered = sorted(samples)
    k = max(0, min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1))))
    return ordered[k]


@dataclass
class Measured:
    """A child's figures over its runs, per condition (none: the condition is missing)."""

    runs: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    loads: dict[str, list[float]] = field(default_factory=dict)  # at each run's start and end

    def values(self, condition: str, key: str | Callable[[dict[str, Any]], float]
               ) -> list[float] | None:
        found = self.runs.get(condition)
        if not found:
            return None
        return [float(key(r) if callable(key) else r[key]) for r in found]

    def median(self, condition: str, key: str | Callable[[dict[str, Any]], float]
               ) -> float | None:
        values = self.values(condition, key)
        return None if values is None else statistics.median(values)

    def cell(self, condition: str, key: str | Callable[[dict[str, Any]], float],
             fmt: str = "{:,.1f}", unit: str = "") -> str:
        """"median (min-max) unit" over the runs; "" when not measured."""
        values = self.values(condition, key)
        if values is None:
            return ""
        mid = fmt.format(statistics.median(values))
        if len(values) == 1:
            return f"{mid}{unit}"
        return f"{mid} ({fmt.format(min(values))}-{fmt.format(max(values))}){unit}"

    def pair(self, condition: str, low: str, high: str, unit: str = " ms") -> str:
        """"p50 / p99 unit" of two keys (each as `cell` gives it); "" when not measured."""
        if not self.runs.get(condition):
            return ""
        return f"{self.cell(condition, low)} / {self.cell(condition, high)}{unit}"

    def rate(self, condition: str, unit: str, key: str = "", fmt: str = "{:,.0f}") -> str:
        """"N units/s; M us CPU per unit" of a `clocked` figure ("rate" and "cpu_us",
        or "<key>_rate" and "<key>_cpu_us"); "" when not measured."""
        if not self.runs.get(condition):
            return ""
        prefix = f"{key}_" if key else ""
        return (f"{self.cell(condition, prefix + 'rate', fmt)} {unit}s/s; "
                f"{self.cell(condition, prefix + 'cpu_us', '{:,.1f}')} us CPU per {unit}")

    @property
    def load(self) -> str:
        """The load average (1 min) over each condition's runs, this machine's first."""
        names = {"normal": "this machine", "pi": "Pi model"}
        return "; ".join(f"{min(v):.1f}-{max(v):.1f} ({names.get(c, c)})"
                         for c, v in self.loads.items() if v)


def measure(module: str, mode: str, *args: str, env: dict[str, str] | None = None,
            runs: int = RUNS, timeout: float = 900) -> Measured:
    """Run `module`'s child `mode` `runs` times under each condition, interleaved."""
    from bench import pi

    out = Measured()
    conditions = [c for c in pi.CONDITIONS if pi.available(c)]
    print(f"  {module} {mode}: {runs} runs x {', '.join(conditions)}", file=sys.stderr,
          flush=True)
    for _ in range(runs):
        for condition in conditions:
            loads = out.loads.setdefault(condition, [])
            loads.append(os.getloadavg()[0])
            text = pi.run(["-m", "bench", "child", module, mode, *args], condition, env=env,
                          timeout=timeout)
            loads.append(os.getloadavg()[0])
            out.runs.setdefault(condition, []).append(json.loads(text.strip().splitlines()[-1]))
    return out


def figures(measured: Measured, text: Callable[[str], str]) -> tuple[str, str]:
    """A row's two figures, this machine's and the Pi model's: `text(condition)`, or ""
    where `measured` has no run under that condition."""
    normal, pi = (text(c) if measured.runs.get(c) else "" for c in ("normal", "pi"))
    return normal, pi


def met(measured: Measured, key: str | Callable[[dict[str, Any]], float],
        ok: Callable[[float], bool], conditions: Sequence[str] = ("normal", "pi")) -> bool:
    """Whether the median of every measured condition among `conditions` meets `ok`."""
    medians = [measured.median(c, key) for c in conditions]
    return all(ok(m) for m in medians if m is not None)
