"""Pi conditions for `make bench`, applied to benchmark child processes on this machine.

- sync delay: every fsync/fdatasync of the child sleeps SYNC_DELAY_MS first (a slow SD
  card), through an LD_PRELOAD shim compiled here with the C compiler (`make bench`
  installs gcc from Debian's packages when it is missing and it can);
- CPU quota: the child runs pinned to one core in a cgroup allowed QUOTA_PERCENT % of it
  (cgroup v2 `cpu.max`, else v1 `cpu.cfs_quota_us`, whichever this machine lets us write),
  about a Pi 4's speed for this code. The cgroup's weight is raised to the maximum, so on
  a machine shared with other work the child still gets its whole quota (and no more).

Each condition that cannot be set up says why instead of giving figures.
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
from dataclasses import dataclass
from pathlib import Path

SYNC_DELAY_MS = 30
QUOTA_PERCENT = 25
PERIOD_US = 100_000
REPO = Path(__file__).resolve().parents[1]
CGROUP_NAME = f"sorry-bench-{os.getpid()}"

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
    procs: Path | None  # the cgroup's procs file, or None
    quota_note: str
    cpu: int  # the core a quota child is pinned to


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


def _cgroup() -> tuple[Path | None, str]:
    quota = PERIOD_US * QUOTA_PERCENT // 100
    root = Path("/sys/fs/cgroup")
    tries = []
    v2 = root / "cgroup.controllers"
    if v2.exists() and "cpu" in v2.read_text().split():
        tries.append(("v2 cpu.max", root / CGROUP_NAME,
                      {"cpu.max": f"{quota} {PERIOD_US}", "cpu.weight": "10000"}))
    for v1 in (root / "cpu", root / "cpu,cpuacct"):
        if (v1 / "cpu.cfs_quota_us").exists():
            tries.append(("v1 cpu.cfs_quota_us", v1 / CGROUP_NAME,
                          {"cpu.cfs_period_us": str(PERIOD_US), "cpu.cfs_quota_us": str(quota),
                           "cpu.shares": "262144"}))
            break
    why = "no cgroup v2 cpu controller and no v1 cpu hierarchy"
    for name, folder, files in tries:
        try:
            folder.mkdir()
        except OSError as exc:
            why = f"cannot create a {name} cgroup ({exc.strerror})"
            continue
        try:
            for file, value in files.items():
                (folder / file).write_text(value)
        except OSError as exc:
            with contextlib.suppress(OSError):
                folder.rmdir()
            why = f"cannot write {name} ({exc.strerror})"
            continue
        atexit.register(_remove_cgroup, folder)
        return folder / "cgroup.procs", (f"one core at {QUOTA_PERCENT} % ({name} "
                                         f"{quota}/{PERIOD_US} us, pinned to one CPU)")
    return None, f"no CPU quota: {why} (run make bench as root on a cgroup-enabled kernel)"


def _remove_cgroup(folder: Path) -> None:
    with contextlib.suppress(OSError):
        folder.rmdir()


@functools.cache
def conditions() -> Conditions:
    folder = Path(tempfile.mkdtemp(prefix="sorry-bench-pi-"))
    atexit.register(shutil.rmtree, folder, True)
    shim, sync_note = _build_shim(folder)
    procs, quota_note = _cgroup()
    cpus = sorted(os.sched_getaffinity(0))
    return Conditions(shim, sync_note, procs, quota_note, cpus[-1])


def available(condition: str) -> bool:
    c = conditions()
    return (c.shim if condition == "sync" else c.procs) is not None


def note(condition: str) -> str:
    c = conditions()
    return c.sync_note if condition == "sync" else c.quota_note


def child_env(condition: str, env: dict[str, str] | None = None) -> dict[str, str]:
    env = dict(os.environ if env is None else env)
    env["PYTHONPATH"] = str(REPO)
    c = conditions()
    if condition == "sync" and c.shim is not None:
        env["LD_PRELOAD"] = f"{c.shim} {env.get('LD_PRELOAD', '')}".strip()
        env["SORRY_BENCH_SYNC_DELAY_MS"] = str(SYNC_DELAY_MS)
    return env


def run(args: list[str], condition: str | None, *, env: dict[str, str] | None = None,
        timeout: float = 600) -> str:
    """Run `python args...` under `condition` ("sync", "quota" or None); its stdout."""
    c = conditions()
    preexec = None
    if condition == "quota" and c.procs is not None:
        procs, cpu = c.procs, c.cpu

        def preexec() -> None:
            procs.write_text(str(os.getpid()))
            os.sched_setaffinity(0, {cpu})

    done = subprocess.run([sys.executable, *args], env=child_env(condition or "", env),
                          cwd=REPO, capture_output=True, text=True, timeout=timeout,
                          preexec_fn=preexec, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{args} under {condition}: {done.stderr[-1500:]}")
    return done.stdout
