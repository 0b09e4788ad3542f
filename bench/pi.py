"""The two conditions `make bench` measures every row under, each in child processes:

- "normal": this machine as it is;
- "pi": a model of a Raspberry Pi 4 running the app: one core at 25 % under a fine-grained
  CPU quota (1 ms of CPU in every 4 ms period, so every step, short or long, runs about 4
  times slower, as on a slower core; a 100 ms period would let any step shorter than
  25 ms run at full speed and only stall the longer ones), and every fsync/fdatasync
  delayed SYNC_DELAY_MS first (a slow SD card), through an LD_PRELOAD shim compiled here
  with the C compiler (`make bench` installs gcc from Debian's packages when it can).

Both kinds of child run in sibling cgroups with the same high CPU weight (WEIGHT_V2, and
WEIGHT_V1 shares: 100 times a plain process's), so neither column gets more of the
machine than the other, and other work on a busy host (at the default weight) moves
both columns less: a plain column at the default weight measured the host's load, not
the code. cgroup v2 `cpu.max` "1000 4000" and v1
`cpu.cfs_period_us` 4000 with `cpu.cfs_quota_us` 1000 are the same model; whichever this
machine lets us write is used. A condition that cannot be set up says why instead of
giving figures.
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SYNC_DELAY_MS = 30
QUOTA_PERCENT = 25
PERIOD_US = 4_000
QUOTA_US = PERIOD_US * QUOTA_PERCENT // 100
REPO = Path(__file__).resolve().parents[1]
CGROUP_PREFIX = f"sorry-bench-{os.getpid()}"
CONDITIONS = ("normal", "pi")
WEIGHT_V2 = 10_000  # cgroup v2 cpu.weight: its highest, 100 times the default 100
WEIGHT_V1 = 102_400  # cgroup v1 cpu.shares: 100 times the default 1024

SHIM_C = r"""
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <time.h>

static void delay(void) {
    const char *ms = getenv("SORRY_BENCH_SYNC_DELAY_MS");
    long n = ms ? atol(ms) : 30;
    struct timespec ts = { n / 1000, (n % 1000) * 1000000L };
    while (nanosleep(&ts, &ts) != 0) {}
}
int fsync(int fd) {
    static int (*real)(int);
    if (!real) real = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
    delay();
    return real(fd);
}
int fdatasync(int fd) {
    static int (*real)(int);
    if (!real) real = (int (*)(int))dlsym(RTLD_NEXT, "fdatasync");
    delay();
    return real(fd);
}
"""


@dataclass(frozen=True)
class Conditions:
    shim: Path | None  # the LD_PRELOAD library, or None
    sync_note: str  # how the delay is made, or why it is not
    procs: dict[str, Path]  # condition -> its cgroup's procs file (none: not set up)
    quota_note: str
    cpu: int  # the core a Pi child is pinned to


def _build_shim(folder: Path) -> tuple[Path | None, str]:
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        return None, ("no sync delay: no C compiler (make bench tried `apt-get install gcc`; "
                      "install gcc and run it again)")
    src, lib = folder / "slow_sync.c", folder / "slow_sync.so"
    src.write_text(SHIM_C)
    done = subprocess.run([cc, "-shared", "-fPIC", "-O2", "-o", str(lib), str(src), "-ldl"],
                          capture_output=True, text=True)
    if done.returncode != 0:
        return None, f"no sync delay: the shim did not compile ({done.stderr.strip()[:200]})"
    return lib, (f"fsync/fdatasync delayed {SYNC_DELAY_MS} ms each by an LD_PRELOAD shim "
                 f"built with {Path(cc).name}")


def _cgroup_files() -> list[tuple[str, Path, dict[str, dict[str, str]]]]:
    """(name, parent folder, condition -> files to write) for each cgroup kind here."""
    root = Path("/sys/fs/cgroup")
    tries = []
    v2 = root / "cgroup.controllers"
    if v2.exists() and "cpu" in v2.read_text().split():
        tries.append(("v2 cpu.max", root, {
            "normal": {"cpu.weight": str(WEIGHT_V2), "cpu.max": f"max {PERIOD_US}"},
            "pi": {"cpu.weight": str(WEIGHT_V2), "cpu.max": f"{QUOTA_US} {PERIOD_US}"}}))
    for v1 in (root / "cpu", root / "cpu,cpuacct"):
        if (v1 / "cpu.cfs_quota_us").exists():
            tries.append(("v1 cpu.cfs_quota_us", v1, {
                "normal": {"cpu.shares": str(WEIGHT_V1), "cpu.cfs_period_us": str(PERIOD_US),
                           "cpu.cfs_quota_us": "-1"},
                "pi": {"cpu.shares": str(WEIGHT_V1), "cpu.cfs_period_us": str(PERIOD_US),
                       "cpu.cfs_quota_us": str(QUOTA_US)}}))
            break
    return tries


def _cgroups() -> tuple[dict[str, Path], str]:
    why = "no cgroup v2 cpu controller and no v1 cpu hierarchy"
    for name, parent, conditions in _cgroup_files():
        made: dict[str, Path] = {}
        try:
            for condition, files in conditions.items():
                folder = parent / f"{CGROUP_PREFIX}-{condition}"
                folder.mkdir()
                atexit.register(_remove_cgroup, folder)
                for file, value in files.items():
                    (folder / file).write_text(value)
                made[condition] = folder / "cgroup.procs"
        except OSError as exc:
            why = f"cannot set up a {name} cgroup ({exc.strerror})"
            continue
        return made, (f"one core at {QUOTA_PERCENT} % ({name} {QUOTA_US} us of CPU every "
                      f"{PERIOD_US} us, pinned to one CPU); both columns' cgroups at CPU "
                      f"weight {WEIGHT_V2 if name.startswith('v2') else WEIGHT_V1} "
                      "(100x a plain process's)")
    return {}, f"no CPU quota: {why} (run make bench as root on a cgroup-enabled kernel)"


def _remove_cgroup(folder: Path) -> None:
    with contextlib.suppress(OSError):
        folder.rmdir()


@functools.cache
def conditions() -> Conditions:
    folder = Path(tempfile.mkdtemp(prefix="sorry-bench-pi-"))
    atexit.register(shutil.rmtree, folder, True)
    shim, sync_note = _build_shim(folder)
    procs, quota_note = _cgroups()
    cpus = sorted(os.sched_getaffinity(0))
    return Conditions(shim, sync_note, procs, quota_note, cpus[-1])


def available(condition: str) -> bool:
    """The normal column always runs; the Pi column needs its quota and its sync delay."""
    c = conditions()
    return condition == "normal" or ("pi" in c.procs and c.shim is not None)


def note() -> str:
    c = conditions()
    return f"{c.quota_note}; {c.sync_note}"


def short_note(*, with_pi: bool) -> str:
    """A row's conditions in a few words: the CPU weight of both columns' cgroups and,
    when the row has a Pi column, the model."""
    c = conditions()
    if not c.procs:
        return "no cgroups: this machine as it is"
    weight = f"weight {WEIGHT_V2 if 'v2' in c.quota_note else WEIGHT_V1} (both columns)"
    if not with_pi:
        return weight
    sync = f", fsync +{SYNC_DELAY_MS} ms" if c.shim is not None else ""
    return f"{weight}; Pi: 1 CPU, {QUOTA_US} of every {PERIOD_US} us{sync}"


def child_env(condition: str, env: dict[str, str] | None = None) -> dict[str, str]:
    env = dict(os.environ if env is None else env)
    env["PYTHONPATH"] = str(REPO)
    c = conditions()
    if condition == "pi" and c.shim is not None:
        env["LD_PRELOAD"] = f"{c.shim} {env.get('LD_PRELOAD', '')}".strip()
        env["SORRY_BENCH_SYNC_DELAY_MS"] = str(SYNC_DELAY_MS)
    return env


def preexec(condition: str) -> Callable[[], None] | None:
    """What a child under `condition` runs before exec: join its cgroup (a Pi child is
    also pinned to one core)."""
    c = conditions()
    procs = c.procs.get(condition)
    if procs is None:
        return None
    cpu = c.cpu

    def join() -> None:
        procs.write_text(str(os.getpid()))
        if condition == "pi":
            os.sched_setaffinity(0, {cpu})

    return join


def popen(cmd: list[str], condition: str, **kwargs: Any) -> subprocess.Popen[bytes]:
    """Start `cmd` under `condition` (its cgroup; the caller gives the env)."""
    started: subprocess.Popen[bytes] = subprocess.Popen(
        cmd, preexec_fn=preexec(condition), cwd=REPO, **kwargs)
    return started


def run(args: list[str], condition: str, *, env: dict[str, str] | None = None,
        timeout: float = 900) -> str:
    """Run `python args...` under `condition` ("normal" or "pi"); its stdout."""
    done = subprocess.run([sys.executable, *args], env=child_env(condition, env),
                          cwd=REPO, capture_output=True, text=True, timeout=timeout,
                          preexec_fn=preexec(condition), check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{args} under {condition}: {done.stderr[-1500:]}")
    return done.stdout
