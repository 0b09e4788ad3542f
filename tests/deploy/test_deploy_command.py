"""/usr/local/bin/sorry-companion (deploy/command.sh): the app's commands as the service user
with the installed config; hardware commands stop and restart the service and say so.

The wrapper runs for real against a temporary prefix (SORRY_COMPANION_ROOT); runuser,
systemctl and sudo are small programs on PATH that record their calls (runuser then runs
the command it was given), and the "app" prints what it received."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from deploy_helpers import COMMAND_SCRIPT


class Pi:
    def __init__(self, tmp: Path, *, active: bool, app_status: int = 0) -> None:
        self.root = tmp / "root"
        self.log = tmp / "calls.log"
        app = self.root / "opt/sorry-companion/current/venv/bin/sorry-companion"
        app.parent.mkdir(parents=True)
        app.write_text(f'#!/bin/sh\necho "app $* config=$SORRY_COMPANION_CONFIG '
                       f'lg_wd=$LG_WD" >> "{self.log}"\nexit {app_status}\n')
        app.chmod(0o755)
        self.bin = tmp / "bin"
        self.bin.mkdir()
        self._stub("runuser", 'shift 3\nexec "$@"')  # runuser -u sorry -- CMD...
        self._stub("sudo", "exit 0")
        is_active = 0 if active else 3
        self._stub("systemctl", f'[ "$1" = is-active ] && exit {is_active}\nexit 0')

    def _stub(self, name: str, body: str) -> None:
        stub = self.bin / name
        stub.write_text(f'#!/bin/sh\necho "{name} $*" >> "{self.log}"\n{body}\n')
        stub.chmod(0o755)

    def run(self, *args: str) -> tuple[subprocess.CompletedProcess[str], list[str]]:
        env = {**os.environ, "PATH": f"{self.bin}:{os.environ['PATH']}",
               "SORRY_COMPANION_ROOT": str(self.root)}
        result = subprocess.run(["bash", str(COMMAND_SCRIPT), *args], capture_output=True,
                                text=True, env=env, check=False, timeout=30)
        calls = self.log.read_text().splitlines() if self.log.exists() else []
        return result, calls


pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="the wrapper's root path")


def test_a_plain_command_runs_as_the_service_user_with_the_installed_config(tmp_path):
    pi = Pi(tmp_path, active=True)
    result, calls = pi.run("history", "--limit", "3")
    assert result.returncode == 0, result.stderr
    config = f"{pi.root}/etc/sorry-companion/config.toml"
    assert calls[0].startswith("runuser -u sorry -- env ")
    assert calls[1] == (f"app history --limit 3 config={config} "
                        f"lg_wd={pi.root}/var/lib/sorry-companion")
    assert not any(c.startswith("systemctl") for c in calls)  # the game keeps running
    assert result.stderr == ""


@pytest.mark.parametrize("args", [["doctor", "--buttons"], ["doctor"],
                                  ["--config", "/x.toml", "ledboard", "flash"]])
def test_a_hardware_command_stops_the_game_and_starts_it_again(tmp_path, args):
    pi = Pi(tmp_path, active=True)
    result, calls = pi.run(*args)
    assert result.returncode == 0, result.stderr
    steps = [c for c in calls if c.startswith(("systemctl", "app"))]
    assert steps[0] == "systemctl is-active --quiet sorry-companion.service"
    assert steps[1] == "systemctl stop sorry-companion.service"
    assert steps[2].startswith(f"app {' '.join(args)} ")
    assert steps[3] == "systemctl start --no-block sorry-companion.service"
    assert "stopping the game (sorry-companion.service)" in result.stderr
    assert "starting the game again" in result.stderr


def test_the_game_comes_back_even_when_the_hardware_command_fails(tmp_path):
    pi = Pi(tmp_path, active=True, app_status=3)
    result, calls = pi.run("doctor", "--buttons")
    assert result.returncode == 3
    assert calls[-1] == "systemctl start --no-block sorry-companion.service"


def test_a_stopped_service_is_left_stopped(tmp_path):
    pi = Pi(tmp_path, active=False)
    result, calls = pi.run("doctor")
    assert result.returncode == 0
    assert [c for c in calls if c.startswith("systemctl")] == [
        "systemctl is-active --quiet sorry-companion.service"]
    assert "stopping" not in result.stderr


@pytest.mark.parametrize("args", [["ledboard-sim"], ["history", "doctor"],
                                  ["--data", "doctor", "history"]])
def test_only_the_command_word_decides(tmp_path, args):
    pi = Pi(tmp_path, active=True)
    result, calls = pi.run(*args)
    assert result.returncode == 0
    assert not any(c.startswith("systemctl stop") for c in calls), args


def test_without_the_app_installed_it_says_so_in_one_sentence(tmp_path):
    pi = Pi(tmp_path, active=True)
    (pi.root / "opt/sorry-companion/current/venv/bin/sorry-companion").unlink()
    result, _ = pi.run("history")
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "the app is not installed" in lines[0]
    assert lines[0].endswith("run install.sh from a release archive.")


def test_update_runs_the_installed_checker_as_root_never_the_app(tmp_path):
    """`sorry-companion update ARCHIVE` goes to the checker the previous install put in
    /usr/local/lib (release_update.py), as root, not to the app as 'sorry'."""
    pi = Pi(tmp_path, active=True)
    checker = pi.root / "usr/local/lib/sorry-companion/release-update"
    checker.parent.mkdir(parents=True)
    checker.write_text(f'import sys\nopen("{pi.log}", "a").write("checker " + '
                       '" ".join(sys.argv[1:]) + "\\n")\n')
    result, calls = pi.run("update", "/home/pi/sorry-companion-0.2.0-1a2b3c4d.tar.gz",
                           "--camera")
    assert result.returncode == 0, result.stderr
    assert calls == ["checker /home/pi/sorry-companion-0.2.0-1a2b3c4d.tar.gz --camera"]
