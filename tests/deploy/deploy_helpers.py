"""Paths and helpers shared by the Raspberry Pi deployment tests (fixtures: conftest.py)."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
DEPLOY = REPO / "deploy"
INSTALL = DEPLOY / "install.sh"
UNINSTALL = DEPLOY / "uninstall.sh"

# Paths on the Pi, as install.sh and the unit name them.
UNIT = "/etc/systemd/system/sorry-companion.service"
UDEV_RULE = "/etc/udev/rules.d/99-sorry-ledboard.rules"
MODULES_LOAD = "/etc/modules-load.d/sorry-companion.conf"
BACKLIGHT_RULE = "/etc/udev/rules.d/70-sorry-companion-backlight.rules"
STICK_RULE = "/etc/udev/rules.d/70-sorry-companion-usb-stick.rules"
CONFIG = "/etc/sorry-companion/config.toml"
DATA_DIR = "/var/lib/sorry-companion"
OPT_DIR = "/opt/sorry-companion"
EXEC_START = "/opt/sorry-companion/current/venv/bin/sorry-companion"
POLKIT_RULE = "/etc/polkit-1/rules.d/50-sorry-companion-poweroff.rules"
COMMAND = "/usr/local/bin/sorry-companion"
SWITCH = "/usr/local/lib/sorry-companion/release-switch"
LOCK = DEPLOY / "requirements-pi.lock"
SWITCH_SCRIPT = DEPLOY / "release-switch.sh"
COMMAND_SCRIPT = DEPLOY / "command.sh"

# Every command that a real run may call and a dry run must not.
GUARDED_COMMANDS = (
    "apt-get", "apt-cache", "apt", "dpkg", "useradd", "usermod", "userdel", "groupadd",
    "systemctl", "udevadm", "pip", "pip3", "python3", "python", "chown", "getent",
    "dpkg-query", "runuser", "sudo", "modprobe",
)


@dataclass
class Run:
    returncode: int
    stdout: str
    stderr: str
    calls: list[str]


class Scripts:
    """Runs install.sh and uninstall.sh with every guarded command replaced by a stub
    that records its call, so a dry run that ran any of them is caught."""

    def __init__(self, tmp: Path) -> None:
        self.bin = tmp / "stub-bin"
        self.bin.mkdir()
        self.log = tmp / "stub-calls.log"
        for name in GUARDED_COMMANDS:
            stub = self.bin / name
            stub.write_text(f'#!/bin/sh\necho "{name} $*" >> "{self.log}"\nexit 0\n')
            stub.chmod(0o755)

    def run(self, script: Path, *args: str | Path) -> Run:
        if self.log.exists():
            self.log.unlink()
        env = {**os.environ, "PATH": f"{self.bin}:{os.environ['PATH']}"}
        result = subprocess.run(
            ["bash", str(script), *map(str, args)],
            capture_output=True, text=True, env=env, check=False, timeout=60,
        )
        calls = self.log.read_text().splitlines() if self.log.exists() else []
        return Run(result.returncode, result.stdout, result.stderr, calls)

    def install(self, root: Path, *args: str) -> Run:
        return self.run(INSTALL, "--dry-run", "--root", root, *args)

    def uninstall(self, root: Path, *args: str) -> Run:
        return self.run(UNINSTALL, "--dry-run", "--root", root, *args)


def under(root: Path, pi_path: str) -> Path:
    return root / pi_path.lstrip("/")


def snapshot(root: Path) -> dict[str, tuple[str, int, int]]:
    """Every file and folder under root: content hash, mtime in ns, mode."""
    tree: dict[str, tuple[str, int, int]] = {}
    for path in sorted(root.rglob("*")):
        st = path.lstat()
        digest = hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else "dir"
        tree[str(path.relative_to(root))] = (digest, st.st_mtime_ns, st.st_mode)
    return tree


def write_sums(tree: Path) -> None:
    """SHA256SUMS as dist.sh writes it: every file, './name', sorted."""
    lines = [f"{hashlib.sha256(path.read_bytes()).hexdigest()}  ./{path.relative_to(tree)}"
             for path in sorted(tree.rglob("*"), key=lambda p: str(p.relative_to(tree)))
             if path.is_file() and path.name != "SHA256SUMS"]
    (tree / "SHA256SUMS").write_text("\n".join(lines) + "\n")


class SigningKey:
    """A release signing key made for the tests: a GnuPG home in a short temporary folder
    (gpg-agent's socket path must stay short), its agent stopped when it is removed."""

    def __init__(self) -> None:
        self.home = Path(tempfile.mkdtemp(prefix="sckey."))
        self.home.chmod(0o700)
        done = subprocess.run(
            ["gpg", "--homedir", str(self.home), "--batch", "--passphrase", "",
             "--quick-generate-key", "Test releases <test@sorry-companion.invalid>",
             "ed25519", "sign", "never"], capture_output=True, text=True, check=False,
            timeout=120)
        assert done.returncode == 0, done.stderr
        self.public = self.home / "release-key.gpg"
        self.public.write_bytes(subprocess.run(
            ["gpg", "--homedir", str(self.home), "--batch", "--export"],
            capture_output=True, check=True, timeout=60).stdout)

    def sign(self, path: Path) -> Path:
        signature = path.with_name(path.name + ".sig")
        subprocess.run(["gpg", "--homedir", str(self.home), "--batch", "--yes",
                        "--detach-sign", "--output", str(signature), str(path)],
                       capture_output=True, check=True, timeout=60)
        return signature

    def remove(self) -> None:
        subprocess.run(["gpgconf", "--homedir", str(self.home), "--kill", "gpg-agent"],
                       capture_output=True, check=False, timeout=60)
        shutil.rmtree(self.home, ignore_errors=True)


def fake_release(tmp_path: Path, wheel_tags: list[str], release: str = "0.1.0-0123abcd") -> Path:
    """An unpacked archive as make dist lays it out (this deploy/ folder, RELEASE, a
    release key, SHA256SUMS), with empty Kivy wheels of these tags."""
    source = tmp_path / f"sorry-companion-{release}"
    shutil.copytree(DEPLOY, source / "deploy", ignore=shutil.ignore_patterns("__pycache__"))
    (source / "RELEASE").write_text(release + "\n")
    wheels = source / "wheels"
    wheels.mkdir()
    (wheels / "sorry_companion-0.1.0-py3-none-any.whl").write_bytes(b"")
    for tag in wheel_tags:
        (wheels / f"Kivy-2.3.1-{tag}.whl").write_bytes(b"")  # as PyPI names it
    (source / "deploy" / "release-key.gpg").write_bytes(b"a public key")
    write_sums(source)
    return source
