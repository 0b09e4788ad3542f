"""`make bench`: run every benchmark module and print one Markdown table.

The table is pasted into the README as it is. Modules are run in this order; one that
cannot run here (a missing optional part) prints its reason instead of rows.
"""

from __future__ import annotations

import importlib
import platform
import sys
import traceback

from bench import Row

MODULES = ("bench.core", "bench.board", "bench.ui", "bench.board_ui", "bench.hardware",
           "bench.camera")


def main() -> int:
    rows: list[Row] = []
    for name in MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name == name:
                continue
            raise
        print(f"running {name} ...", file=sys.stderr, flush=True)
        try:
            rows.extend(module.rows())
        except Exception:  # a broken benchmark must not hide the others
            traceback.print_exc()
            rows.append(Row(f"{name} failed", "see the error above"))
    from bench import pi

    print(f"Machine: {platform.machine()}, Python {platform.python_version()}, "
          f"{platform.system()} {platform.release()}")
    print(f"Pi conditions: {pi.note('sync')}; {pi.note('quota')}\n")
    print(f"| metric | figure | sync +{pi.SYNC_DELAY_MS} ms | 1 core at {pi.QUOTA_PERCENT} % "
          "| goal | met |")
    print("|---|---|---|---|---|---|")
    for row in rows:
        met = "" if row.met is None else ("yes" if row.met else "**no**")
        print(f"| {row.metric} | {row.figure} | {row.sync} | {row.quota} | {row.goal} | {met} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
