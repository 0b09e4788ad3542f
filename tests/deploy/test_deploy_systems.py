"""install.sh and the systems it serves: Raspberry Pi OS Trixie first, Bookworm kept.

A dry run reads the target's /etc/os-release under --root, so each system is played by
the file it would have; a real run (as root, every system command a stub) checks the
Python it finds and stops before it changes anything."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from deploy_helpers import DEPLOY, UNIT, Scripts, fake_release, under

OS_RELEASES = {
    "trixie": 'PRETTY_NAME="Debian GNU/Linux 13 (trixie)"\nVERSION_CODENAME=trixie\n',
    "bookworm": 'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nVERSION_CODENAME=bookworm\n',
    "bullseye": 'PRETTY_NAME="Debian GNU/Linux 11 (bullseye)"\nVERSION_CODENAME=bullseye\n',
}


def target(tmp_path: Path, codename: str) -> Path:
    root = tmp_path / codename
    (root / "etc").mkdir(parents=True)
    (root / "etc" / "os-release").write_text(OS_RELEASES[codename])
    return root


def apt_install(stdout: str) -> list[str]:
    lines = [line for line in stdout.splitlines() if "apt-get install" in line]
    assert len(lines) == 1, stdout
    return lines[0].split()


def test_the_supported_systems_are_trixie_then_bookworm_with_their_pythons():
    lines = [line.split() for line in (DEPLOY / "supported-systems").read_text().splitlines()
             if line.strip() and not line.startswith("#")]
    assert lines == [["trixie", "3.13"], ["bookworm", "3.11"]]


@pytest.mark.parametrize(("codename", "renamed"), [
    ("trixie", {"libmtdev1t64", "libasound2t64"}), ("bookworm", {"libmtdev1", "libasound2"})])
def test_each_system_gets_its_own_package_names(scripts: Scripts, tmp_path: Path,
                                                codename: str, renamed: set[str]):
    """Trixie renamed libmtdev1 and libasound2 (64-bit time_t); dpkg-query never finds the
    old, virtual names installed, so asking for them there would mean the network at
    every update."""
    result = scripts.install(target(tmp_path, codename))
    assert result.returncode == 0, result.stderr
    packages = set(apt_install(result.stdout))
    assert renamed <= packages
    other = {"libmtdev1t64", "libasound2t64", "libmtdev1", "libasound2"} - renamed
    assert not other & packages
    python = dict(line.split() for line in (DEPLOY / "supported-systems").read_text()
                  .splitlines() if line.strip() and not line.startswith("#"))[codename]
    assert f"Python {python} on aarch64" in result.stdout


def test_an_unsupported_system_is_refused_in_one_sentence_before_any_file(
        scripts: Scripts, tmp_path: Path):
    root = target(tmp_path, "bullseye")
    result = scripts.install(root)
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        "install.sh: this is Debian GNU/Linux 11 (bullseye), and this release installs only "
        "on Raspberry Pi OS (64-bit) Trixie or Bookworm: flash Raspberry Pi OS Lite (64-bit) "
        "with Raspberry Pi Imager and run install.sh again."]
    assert not under(root, UNIT).exists()


def test_the_network_is_asked_for_only_for_missing_packages_and_said(
        scripts: Scripts, tmp_path: Path):
    result = scripts.install(target(tmp_path, "trixie"))
    assert "apt-get fetches them, which needs the Pi's network." in result.stdout
    # a list that could not be fetched must fail the update, not warn
    assert "would run: apt-get update --error-on=any" in result.stdout


def host_codename() -> str | None:
    try:
        text = Path("/etc/os-release").read_text()
    except OSError:
        return None
    found = [line.split("=", 1)[1].strip('"') for line in text.splitlines()
             if line.startswith("VERSION_CODENAME=")]
    return found[0] if found else None


@pytest.fixture
def real_run_here(scripts: Scripts) -> Scripts:
    """A real run reads this machine's /etc/os-release: it must be a supported system."""
    if os.geteuid() != 0:
        pytest.skip("a real run checks for root first")
    if host_codename() not in {"trixie", "bookworm"}:
        pytest.skip("a real run reads this machine's os-release, which is not Trixie or Bookworm")
    return scripts


def stub(scripts: Scripts, name: str, body: str) -> None:
    path = scripts.bin / name
    path.write_text(f"#!/bin/sh\n{body}\n")
    path.chmod(0o755)


def test_a_python_other_than_the_systems_is_refused_before_anything_changes(
        real_run_here: Scripts, tmp_path: Path):
    scripts = real_run_here
    stub(scripts, "python3", "echo 3.9")
    source = fake_release(tmp_path, ["cp313-cp313-manylinux2014_aarch64",
                                     "cp311-cp311-manylinux2014_aarch64"])
    result = scripts.run(source / "deploy" / "install.sh")
    assert result.returncode == 2, result.stdout
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith("install.sh: python3 here is 3.9, not 3.")
    assert [call for call in result.calls if not call.startswith(("apt-cache", "dpkg"))] == []


def test_an_archive_without_this_pythons_wheels_is_refused_in_one_sentence(
        real_run_here: Scripts, tmp_path: Path):
    """The defect of issue 31: an archive with cp311 wheels only went on, on Trixie, until
    pip stopped with 'No matching distribution'. Played here with a stub uname on
    aarch64 and the host's Python as the system's."""
    scripts = real_run_here
    python = {"trixie": "3.13", "bookworm": "3.11"}[host_codename() or ""]
    stub(scripts, "python3", f"echo {python}")
    stub(scripts, "uname", "echo aarch64")
    other = "cp311-cp311" if python == "3.13" else "cp313-cp313"
    source = fake_release(tmp_path, [f"{other}-manylinux2014_aarch64"])
    result = scripts.run(source / "deploy" / "install.sh")
    assert result.returncode == 2, result.stdout
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith(f"install.sh: this archive carries no wheels for Python {python} "
                           "on aarch64")
    assert result.calls == [] or all(c.startswith(("apt-cache", "dpkg")) for c in result.calls)


# --- the camera in the service (issue 31) ---

CAMERA_DROPIN = "/etc/systemd/system/sorry-companion.service.d/camera.conf"


def a_pi(root: Path) -> Path:
    """The dry run's target is a Raspberry Pi: its device tree says so."""
    model = root / "proc" / "device-tree" / "model"
    model.parent.mkdir(parents=True)
    model.write_bytes(b"Raspberry Pi 5 Model B Rev 1.0\0")
    return root


def pip_lines(stdout: str) -> list[str]:
    """The pip commands install.sh would run, the checkout's own path left out (a
    checkout at /work/wt/camera made every line name the camera)."""
    return [line.replace(str(DEPLOY.parent), "<checkout>") for line in stdout.splitlines()
            if line.startswith("would run:") and "pip install" in line]


def test_the_camera_drop_in_comes_with_camera_and_goes_without(scripts: Scripts,
                                                                tmp_path: Path):
    root = target(tmp_path, "trixie")
    assert scripts.install(root).returncode == 0
    assert not under(root, CAMERA_DROPIN).exists()
    assert scripts.install(root, "--camera").returncode == 0
    assert under(root, CAMERA_DROPIN).read_bytes() == (
        DEPLOY / "sorry-companion-camera.conf").read_bytes()
    result = scripts.install(root)
    assert f"removed: {CAMERA_DROPIN} (installed without --camera)" in result.stdout
    assert not under(root, CAMERA_DROPIN).exists()


def test_on_trixie_the_camera_keeps_the_systems_numpy_with_the_opencv_wheel(
        scripts: Scripts, tmp_path: Path):
    """picamera2's simplejpeg is built against the system's numpy; the venv must not bring
    its own (issue 31: Bookworm's picamera2 failed with a ValueError under numpy 2)."""
    result = scripts.install(a_pi(target(tmp_path, "trixie")), "--camera")
    assert result.returncode == 0, result.stderr
    packages = set(apt_install(result.stdout))
    assert {"python3-picamera2", "python3-numpy", "python3-lgpio"} <= packages
    assert "python3-opencv" not in packages
    camera = [line for line in pip_lines(result.stdout) if "camera" in line]
    assert len(camera) == 1 and "--no-deps" in camera[0] and "camera-opencv.lock" in camera[0]
    assert "numpy is Raspberry Pi OS's own" in result.stdout


def test_on_bookworm_the_camera_takes_debians_numpy_and_opencv(scripts: Scripts,
                                                               tmp_path: Path):
    """The OpenCV wheel requires numpy 2; Bookworm's picamera2 needs its numpy 1.24."""
    result = scripts.install(a_pi(target(tmp_path, "bookworm")), "--camera")
    assert result.returncode == 0, result.stderr
    assert {"python3-picamera2", "python3-numpy", "python3-opencv"} <= set(
        apt_install(result.stdout))
    assert not [line for line in pip_lines(result.stdout) if "camera" in line]
