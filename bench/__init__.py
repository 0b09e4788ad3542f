"""Benchmarks for `make bench`: each module here has `rows()` giving measured rows, and
`child(mode, *args)` giving one measurement (a dict of figures) in a child process.

Every figure is measured in child processes (`python -m bench child MODULE MODE ...`),
RUNS times under each condition of bench.pi ("normal" and "pi"), the two interleaved so a
busy moment of the machine hits both alike; a row shows the median of its runs with the
lowest and highest, and the load average over its runs.
"""

from __future__ import annotations

import json
import os
import statistics
import sys
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


def percentile(samples: Sequence[float], q: float) -> float:
    """The q-th percentile (0-100) by nearest rank; samples need not be sorted."""
    ordered = sorted(samples)
    k = max(0, min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1))))
    return ordered[k]


@dataclass
class Measured:
    """A child's figures over its runs, per condition (none: the condition is missing)."""

    runs: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    loads: list[float] = field(default_factory=list)

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

    @property
    def load(self) -> str:
        if not self.loads:
            return ""
        return f"{min(self.loads):.1f}-{max(self.loads):.1f}"


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
            out.loads.append(os.getloadavg()[0])
            text = pi.run(["-m", "bench", "child", module, mode, *args], condition, env=env,
                          timeout=timeout)
            out.runs.setdefault(condition, []).append(json.loads(text.strip().splitlines()[-1]))
    out.loads.append(os.getloadavg()[0])
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
