"""The systemd unit: systemd accepts it, its exposure is low, it sets what the app needs."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from deploy_helpers import (
    DATA_DIR,
    DEPLOY,
    EXEC_START,
    SWITCH,
    UNIT,
    Scripts,
    under,
)

UNIT_SOURCE = DEPLOY / "sorry-companion.service"
MODULES_SOURCE = DEPLOY / "sorry-companion-modules.conf"
# The kernel module that puts each USB serial device group into /proc/devices.
SERIAL_DRIVERS = {"ttyACM": "cdc_acm", "ttyUSB": "usbserial"}
EXPOSURE_LIMIT = 3.0


def directives(text: str) -> list[tuple[str, str]]:
    return [tuple(line.split("=", 1)) for line in text.splitlines()
            if line and not line.startswith(("#", ";", "[")) and "=" in line]


def unit_values(key: str) -> list[str]:
    return [value for k, value in directives(UNIT_SOURCE.read_text()) if k == key]


def unit_value(key: str) -> str:
    values = unit_values(key)
    assert len(values) == 1, f"{key}= appears {len(values)} times"
    return values[0]


def environment() -> dict[str, str]:
    return dict(item.split("=", 1) for item in unit_values("Environment"))


def verify(systemd_analyze: str, unit: Path) -> str:
    result = subprocess.run([systemd_analyze, "verify", str(unit)], capture_output=True,
                            text=True, check=False, timeout=60)
    return f"exit {result.returncode}\n{result.stdout}{result.stderr}".strip()


def test_systemd_verify_accepts_the_installed_unit(systemd_analyze: str, installed: Path,
                                                   tmp_path: Path):
    """`verify` checks syntax, every key and value, the dependencies it can load from this
    machine, and that ExecStart's binary is executable. The unit's binary exists only on a
    Pi, so this verifies a copy whose ExecStart points into the dry-run tree, where a stub
    stands for the console script; everything else is byte for byte the installed unit."""
    binary = under(installed, EXEC_START)
    binary.parent.mkdir(parents=True)
    binary.write_text("#!/bin/sh\n")
    binary.chmod(0o755)
    installed_unit = under(installed, UNIT).read_text()
    assert f"\nExecStart={EXEC_START} run\n" in installed_unit
    assert f"\nExecStartPre=+{SWITCH} start\n" in installed_unit
    assert f"\nExecStartPost=+{SWITCH} ready\n" in installed_unit
    copy = tmp_path / "verify" / "sorry-companion.service"
    copy.parent.mkdir()
    copy.write_text(installed_unit.replace(f"ExecStart={EXEC_START}", f"ExecStart={binary}")
                    .replace(f"+{SWITCH}", f"+{under(installed, SWITCH)}"))

    # verify exits 0 even when it warns, so its silence is what counts.
    assert verify(systemd_analyze, copy) == "exit 0"


def test_systemd_verify_would_catch_a_bad_key(systemd_analyze: str, tmp_path: Path):
    """The control for the test above: verify does speak up about a wrong unit."""
    unit = tmp_path / "broken.service"
    unit.write_text("[Service]\nExecStart=/bin/true\nProtectSystem=very\nFooBar=1\n")
    report = verify(systemd_analyze, unit)
    assert "broken.service:3: Failed to parse protect system value" in report
    assert "broken.service:4: Unknown key 'FooBar'" in report


def measured_exposure(systemd_analyze: str) -> float:
    result = subprocess.run([systemd_analyze, "security", "--offline=yes", str(UNIT_SOURCE)],
                            capture_output=True, text=True, check=False, timeout=60)
    found = re.search(r"Overall exposure level for sorry-companion\.service: (\d+\.\d+)",
                      result.stdout)
    assert found, f"no exposure figure in:\n{result.stdout}{result.stderr}"
    return float(found.group(1))


def test_exposure_is_at_most_three(systemd_analyze: str):
    assert measured_exposure(systemd_analyze) <= EXPOSURE_LIMIT


def test_readme_records_the_measured_exposure(systemd_analyze: str):
    readme = (DEPLOY / "README.md").read_text()
    recorded = re.findall(r"exposure level of \*\*(\d+\.\d+)\*\*", readme)
    assert recorded == [f"{measured_exposure(systemd_analyze):.1f}"]


def test_unit_runs_the_console_script_as_the_unprivileged_user():
    assert unit_value("ExecStart") == f"{EXEC_START} run"
    assert unit_value("User") == "sorry"
    assert unit_value("Restart") in {"always", "on-failure"}
    assert unit_value("WantedBy") == "multi-user.target"


def test_unit_gives_kivy_the_display_and_its_config():
    env = environment()
    assert env["KIVY_WINDOW"] == "sdl2"
    assert env["SDL_VIDEODRIVER"] == "kmsdrm"
    assert env["KIVY_NO_ARGS"] == "1"
    assert env["SORRY_COMPANION_CONFIG"] == "/etc/sorry-companion/config.toml"
    assert env["KIVY_HOME"].startswith(f"{DATA_DIR}/")  # Kivy's own files stay in the state folder
    assert env["KCFG_GRAPHICS_SHOW_CURSOR"] == "0"


def test_the_working_folder_is_the_writable_state_folder():
    """lgpio makes its notification pipe in the working folder (or $LG_WD)."""
    assert unit_value("StateDirectory") == "sorry-companion"
    assert unit_value("WorkingDirectory") == DATA_DIR
    assert environment()["LG_WD"] == DATA_DIR
    assert unit_value("ProtectSystem") == "strict"


def test_unit_allows_only_the_devices_the_table_uses():
    assert unit_value("DevicePolicy") == "closed"
    assert set(unit_values("DeviceAllow")) == {
        "char-drm rw", "char-input r", "char-gpiochip rw", "char-ttyACM rw",
        "char-ttyUSB rw", "char-alsa rw",
    }


CAMERA_DROPIN = DEPLOY / "sorry-companion-camera.conf"


def test_the_camera_drop_in_allows_exactly_the_camera_devices():
    """With --camera: V4L2 (/dev/video*, the Pi's /dev/v4l-subdev* too), the media
    controller (/dev/media*, where libcamera finds the pipeline) and the DMA heaps
    (/dev/dma_heap/*, its buffers), by their /proc/devices names; the unit itself allows
    none of them (issue 31: the camera could not work in the service as shipped)."""
    allowed = [value for key, value in directives(CAMERA_DROPIN.read_text())
               if key == "DeviceAllow"]
    assert allowed == ["char-video4linux rw", "char-media rw", "char-dma_heap rw"]
    assert [key for key, _ in directives(CAMERA_DROPIN.read_text())] == ["DeviceAllow"] * 3
    assert not {value.split()[0] for value in unit_values("DeviceAllow")} & {
        "char-video4linux", "char-media", "char-dma_heap"}
    assert "video" in re.search(r"APP_GROUPS=\(([^)]*)\)",
                                (DEPLOY / "install.sh").read_text()).group(1).split()


def test_systemd_accepts_the_unit_with_the_camera_drop_in(systemd_analyze: str,
                                                          tmp_path: Path):
    """The drop-in as systemd merges it (a second [Service] section): verify stays silent
    about it, and the exposure stays under the limit."""
    merged = tmp_path / "sorry-companion.service"
    merged.write_text(UNIT_SOURCE.read_text().replace(
        "ExecStart=", "ExecStart=/bin/true\n#", 1).replace("ExecStartPre=+", "#").replace(
        "ExecStartPost=+", "#") + "\n" + CAMERA_DROPIN.read_text())
    assert verify(systemd_analyze, merged) == "exit 0"
    result = subprocess.run([systemd_analyze, "security", "--offline=yes", str(merged)],
                            capture_output=True, text=True, check=False, timeout=60)
    found = re.search(r"Overall exposure level for sorry-companion\.service: (\d+\.\d+)",
                      result.stdout)
    assert found and float(found.group(1)) <= EXPOSURE_LIMIT


def test_the_usb_serial_drivers_the_unit_allows_are_loaded_at_boot():
    """systemd looks DeviceAllow=char-<group> up in /proc/devices when the service starts;
    a driver loaded later (the board plugged in, or enumerated, after that) leaves the
    port refused until a restart (found with make pi-vm)."""
    groups = {value.split()[0].removeprefix("char-") for value in unit_values("DeviceAllow")}
    loaded = {line.strip() for line in MODULES_SOURCE.read_text().splitlines()
              if line.strip() and not line.startswith("#")}
    assert {SERIAL_DRIVERS[group] for group in groups & SERIAL_DRIVERS.keys()} == loaded
    assert groups >= SERIAL_DRIVERS.keys()


@pytest.mark.parametrize(("key", "value"), [
    ("NoNewPrivileges", "yes"), ("ProtectHome", "yes"), ("PrivateTmp", "yes"),
    ("PrivateNetwork", "yes"), ("RestrictAddressFamilies", "AF_UNIX AF_NETLINK"),
    ("CapabilityBoundingSet", ""), ("ProtectKernelTunables", "yes"),
    ("ProtectKernelModules", "yes"), ("ProtectControlGroups", "yes"),
    ("RestrictNamespaces", "yes"), ("LockPersonality", "yes"),
    ("SystemCallArchitectures", "native"),
])
def test_unit_hardening(key: str, value: str):
    assert unit_value(key) == value


def test_unit_allows_writable_executable_memory_for_mesa():
    """MemoryDenyWriteExecute stays off: Mesa's software renderer (llvmpipe, the fallback
    when the GPU cannot be used) compiles shaders to W+X memory, and Kivy then dies with
    SIGSEGV instead of drawing slowly (seen with PR_SET_MDWE; see deploy/README.md)."""
    assert unit_values("MemoryDenyWriteExecute") == []


def test_unit_lets_sdl_open_its_udev_monitor():
    """SDL's kmsdrm driver opens a netlink socket (its udev monitor) in SDL_CreateWindow;
    with RestrictAddressFamilies=AF_UNIX alone, SDL 2.30 (Kivy 2.3.1's aarch64 wheel) died
    there with SIGSEGV under systemd on the emulated Pi, five starts in a row, while the
    same window opened as the same user outside the sandbox (make pi-vm, issue 18). The
    socket has no network to reach: PrivateNetwork stays on."""
    assert "AF_NETLINK" in unit_value("RestrictAddressFamilies").split()
    assert unit_value("PrivateNetwork") == "yes"
    assert unit_value("IPAddressDeny") == "any"


def test_unit_leaves_usb_sticks_and_the_backlight_writable():
    """ProtectSystem=strict and ProtectKernelTunables=yes make /media and /sys read-only:
    Menu > Back up writes to /media/usb-*, the idle screen to the backlight's brightness
    (/sys/class/backlight/* link into /sys/devices/platform on a Pi's DSI displays)."""
    assert set(unit_value("ReadWritePaths").split()) == {"-/media", "-/sys/devices/platform"}
    assert unit_value("ProtectKernelTunables") == "yes"


def test_installer_and_unit_agree_on_paths(scripts: Scripts, tmp_path: Path):
    """The unit starts `current`, the link release-switch points at the release folder in
    which install.sh builds the venv."""
    result = scripts.install(tmp_path / "root")
    current = EXEC_START.split("/current/", 1)[0] + "/current"
    venv = EXEC_START.replace("/current/", "/versions/checkout/").rsplit("/bin/", 1)[0]
    assert current == "/opt/sorry-companion/current"
    assert f"would run: python3 -m venv --system-site-packages {venv}" in result.stdout


def test_unit_waits_for_ready_and_has_a_start_limit():
    """Type=notify: the start counts only once the app says READY=1; a start limit, so a
    broken table does not restart for ever; long enough to start on a slow card."""
    assert unit_value("Type") == "notify"
    assert unit_value("NotifyAccess") == "main"
    assert 0 < int(unit_value("StartLimitBurst")) <= 10
    assert int(unit_value("StartLimitIntervalSec")) > 0
    assert int(unit_value("TimeoutStartSec")) >= 60
