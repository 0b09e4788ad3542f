"""`make dist`: the archive a parent carries to the Pi holds everything install.sh needs.

Runs the real deploy/dist.sh once (it builds the wheel and downloads the aarch64 wheels
from PyPI, about half a minute), unpacks the archive, and checks it: contents, hashes
against the lock, that pip resolves every requirement for the Pi from the archive alone,
and that its install.sh reads the release."""

from __future__ import annotations

import hashlib
import os
import re
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest
from deploy_helpers import DEPLOY, LOCK, Scripts

CAMERA_LOCK = DEPLOY / "requirements-camera.lock"

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def release(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    done = subprocess.run(["bash", str(DEPLOY / "dist.sh"), "--out", str(out)],
                          capture_output=True, text=True, check=False, timeout=600,
                          env={**os.environ, "PYTHON": sys.executable})
    assert done.returncode == 0, done.stderr[-2000:]
    archive = Path(done.stdout.strip().splitlines()[-1])
    assert archive.parent == out and archive.name.endswith(".tar.gz")
    with tarfile.open(archive) as tar:
        tar.extractall(out, filter="data")
    return out / archive.name.removesuffix(".tar.gz")


def locked_hashes() -> dict[str, set[str]]:
    """The app's lock and the camera extra's (its wheels ride in the archive too)."""
    found: dict[str, set[str]] = {}
    for lock in (LOCK, CAMERA_LOCK):
        for name, block in re.findall(r"^([a-z0-9-]+)==\S+ \\\n((?:    --hash=.*\n)+)",
                                      lock.read_text(), re.MULTILINE):
            found[name] = set(re.findall(r"sha256:([0-9a-f]{64})", block))
    return found


def test_the_archive_is_named_after_its_release(release: Path):
    version = re.search(r'__version__ = "([^"]+)"',
                        (DEPLOY.parent / "companion" / "__init__.py").read_text())
    assert version is not None
    stated = (release / "RELEASE").read_text().strip()
    assert release.name == f"sorry-companion-{stated}"
    assert re.fullmatch(re.escape(version.group(1)) + r"-[0-9a-f]{8}", stated)


def test_the_archive_holds_the_installer_firmware_and_guides(release: Path):
    for path in ("deploy/install.sh", "deploy/uninstall.sh", "deploy/common.sh",
                 "deploy/release-switch.sh", "deploy/command.sh",
                 "deploy/sorry-companion.service", "deploy/99-sorry-ledboard.rules",
                 "deploy/sorry-companion-modules.conf",
                 "deploy/50-sorry-companion-poweroff.rules", "deploy/requirements-pi.lock",
                 "deploy/requirements-camera.lock",
                 "deploy/README.md", "hardware/README.md", "hardware/firmware/main.py",
                 "hardware/firmware/ledboard.py", "hardware/firmware/pawnled.py",
                 "companion/default_config.toml", "README.txt", "SHA256SUMS"):
        assert (release / path).is_file(), path
    assert os.access(release / "deploy" / "install.sh", os.X_OK)
    assert "<" not in (release / "README.txt").read_text()  # no placeholder left


def test_every_wheel_is_the_locked_one_for_the_pi(release: Path):
    wheels = sorted((release / "wheels").glob("*.whl"))
    app = [w for w in wheels if w.name.startswith("sorry_companion-")]
    assert len(app) == 1
    locked = locked_hashes()
    deps = [w for w in wheels if w not in app]
    assert len(deps) == len(locked)
    for wheel in deps:
        name = re.sub(r"[-_.]+", "-", wheel.name.split("-")[0]).lower()
        assert hashlib.sha256(wheel.read_bytes()).hexdigest() in locked[name], wheel.name
        assert wheel.name.endswith(("-none-any.whl", "aarch64.whl")), wheel.name


@pytest.mark.parametrize("lock, platform", [("requirements-pi.lock", "manylinux2014_aarch64"),
                                            ("requirements-camera.lock", "manylinux_2_28_aarch64")])
def test_pip_resolves_the_pi_from_the_archive_alone(release: Path, tmp_path: Path, lock: str,
                                                    platform: str):
    """What install.sh asks of pip on the Pi (with --camera too), resolved here for aarch64
    with no index."""
    done = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--dry-run", "--quiet", "--no-index",
         "--find-links", str(release / "wheels"), "--only-binary=:all:", "--ignore-installed",
         "--require-hashes", "-r", str(release / "deploy" / lock),
         "--platform", platform, "--python-version", "3.11",
         "--implementation", "cp", "--abi", "cp311", "--target", str(tmp_path / "t")],
        capture_output=True, text=True, check=False, timeout=300,
        env={**os.environ, "PIP_FIND_LINKS": "", "PIP_EXTRA_INDEX_URL": ""})
    assert done.returncode == 0, done.stderr[-2000:]


def test_the_sums_match_the_files(release: Path):
    done = subprocess.run(["sha256sum", "--check", "--quiet", "SHA256SUMS"], cwd=release,
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_archives_installer_reads_its_release(release: Path, tmp_path: Path):
    scripts = Scripts(tmp_path)
    result = scripts.run(release / "deploy" / "install.sh", "--dry-run", "--root",
                         tmp_path / "root")
    assert result.returncode == 0, result.stderr
    stated = (release / "RELEASE").read_text().strip()
    assert f"== release {stated} in /opt/sorry-companion/versions/{stated}" in result.stdout
    assert f"release-switch stage {stated}" in result.stdout
    app_wheel = next((release / "wheels").glob("sorry_companion-*.whl"))
    assert f"--no-deps {app_wheel}" in result.stdout


def test_the_app_wheel_carries_every_package_and_data_file_the_app_reads(release: Path):
    """A screen's .kv, a locale or a package missing from the wheel works in a checkout and
    fails only on the Pi (the card game's screens were once left out of it)."""
    import zipfile

    repo = DEPLOY.parent
    app_wheel = next((release / "wheels").glob("sorry_companion-*.whl"))
    carried = set(zipfile.ZipFile(app_wheel).namelist())
    needed = {str(p.relative_to(repo)) for top in ("companion", "hardware", "ui", "camera")
              for pattern in ("*.py", "*.kv", "*.json", "*.toml")
              for p in (repo / top).rglob(pattern)
              if "__pycache__" not in p.parts}
    assert sorted(needed - carried) == []
