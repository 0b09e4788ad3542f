"""Benchmarks for `make bench`: each module here has `rows()` giving measured rows."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Row:
    """One line of the benchmark table: what, the figure, the goal, and whether it is met.

    `sync` and `quota` are the same figure under the Pi conditions (bench.pi): the journal's
    syncs delayed, and one core at a CPU quota; `met` covers every figure the goal names.
    """

    metric: str
    figure: str
    goal: str = ""
    met: bool | None = None
    sync: str = ""
    quota: str = ""


def percentile(samples: list[float], q: float) -> float:
    """The q-th percentile (0-100) by nearest rank; samples need not be sorted."""
    ordered = sorted(samples)
    k = max(0, min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1))))
    return ordered[k]
