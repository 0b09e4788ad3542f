"""Build one of tests/companion/native/*.c as an LD_PRELOAD shim, or skip the test: the
fsync-fault and power-cut tests share this (a C compiler is the only thing they need)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

NATIVE = Path(__file__).with_name("native")


def build_shim(tmp_path_factory: pytest.TempPathFactory, name: str, why: str) -> Path:
    """`native/<name>.c` compiled to a shared library in a temporary folder."""
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        pytest.skip(f"no C compiler to build the {why} shim")
    out = tmp_path_factory.mktemp("shim") / f"{name}.so"
    subprocess.run([cc, "-shared", "-fPIC", "-o", str(out), str(NATIVE / f"{name}.c"), "-ldl"],
                   check=True, timeout=120)
    return out
