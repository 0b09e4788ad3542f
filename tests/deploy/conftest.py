"""Fixtures for the Raspberry Pi deployment tests: shellcheck, systemd-analyze, dry-run trees."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from deploy_helpers import Scripts, SigningKey

# Another apt-get (an engineer's install, `make pi-vm`'s) may hold dpkg's lock: wait for it
# rather than fail the suite on a busy machine.
APT_LOCK_WAIT_S = 600


def _apt_get(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["apt-get", "-o", f"DPkg::Lock::Timeout={APT_LOCK_WAIT_S}", *args],
        capture_output=True, text=True, check=False,
        env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"},
    )


@pytest.fixture(scope="session")
def shellcheck() -> str:
    """The shellcheck binary, installed from Debian's packages when it is missing."""
    found = shutil.which("shellcheck")
    if found:
        return found
    if os.geteuid() != 0 or shutil.which("apt-get") is None:
        pytest.fail("shellcheck is missing and cannot be installed here (that needs root "
                    "and apt-get): run `sudo apt-get install -y shellcheck`.")
    result = _apt_get("install", "-y", "shellcheck")
    if result.returncode != 0:  # perhaps no package lists yet
        _apt_get("update")
        result = _apt_get("install", "-y", "shellcheck")
    found = shutil.which("shellcheck")
    if result.returncode != 0 or not found:
        last = (result.stderr.strip().splitlines() or ["no output"])[-1]
        pytest.fail(f"shellcheck is missing and `apt-get install -y shellcheck` failed: {last}")
    return found


@pytest.fixture(scope="session")
def systemd_analyze() -> str:
    found = shutil.which("systemd-analyze")
    if not found:
        pytest.fail("systemd-analyze is missing: install Debian's `systemd` package.")
    return found


@pytest.fixture(scope="session")
def signing_key() -> Iterator[SigningKey]:
    """One release signing key for the session's tests (dist.sh's, the updates')."""
    key = SigningKey()
    yield key
    key.remove()


@pytest.fixture(scope="session")
def other_key() -> Iterator[SigningKey]:
    """A key that is not the release key: what a stranger would sign with."""
    key = SigningKey()
    yield key
    key.remove()


@pytest.fixture
def scripts(tmp_path: Path) -> Scripts:
    return Scripts(tmp_path)


@pytest.fixture
def installed(scripts: Scripts, tmp_path: Path) -> Path:
    """A dry-run install tree."""
    root = tmp_path / "root"
    result = scripts.install(root)
    assert result.returncode == 0, result.stderr
    return root
