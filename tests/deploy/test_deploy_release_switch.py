"""release-switch.sh: versioned releases, one atomic link per switch, and the way back.

The real script runs against a temporary install folder (SORRY_COMPANION_OPT); each
release's "app" is a small program that either gets ready or fails, and the service's
start loop is played as the unit describes it (ExecStartPre, the app, ExecStartPost on
READY, restart until StartLimitBurst)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from deploy_helpers import DEPLOY, SWITCH_SCRIPT

UNIT = DEPLOY / "sorry-companion.service"


def switch(opt: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["bash", str(SWITCH_SCRIPT), *args], capture_output=True, text=True,
                          env={**os.environ, "SORRY_COMPANION_OPT": str(opt)}, check=False,
                          timeout=30)


def release(opt: Path, name: str, *, works: bool = True) -> None:
    app = opt / "versions" / name / "venv" / "bin" / "sorry-companion"
    app.parent.mkdir(parents=True)
    app.write_text("#!/bin/sh\nexit 0\n" if works else "#!/bin/sh\nexit 1\n")
    app.chmod(0o755)


def link(opt: Path, name: str) -> str | None:
    path = opt / name
    return os.readlink(path) if path.is_symlink() else None


def unit_number(key: str) -> int:
    return int(next(line.split("=", 1)[1] for line in UNIT.read_text().splitlines()
                    if line.startswith(f"{key}=")))


def service_start(opt: Path) -> tuple[bool, int]:
    """One start as systemd makes it, then restarts until ready or the start limit; the
    number of starts it took."""
    for attempt in range(1, unit_number("StartLimitBurst") + 1):
        pre = switch(opt, "start")
        if pre.returncode != 0:
            continue
        app = opt / os.readlink(opt / "current") / "venv" / "bin" / "sorry-companion"
        if subprocess.run([str(app)], check=False).returncode == 0:  # READY=1
            assert switch(opt, "ready").returncode == 0
            return True, attempt
    return False, unit_number("StartLimitBurst")


def running_then_broken_staged(opt: Path) -> None:
    """Release 1.0 runs (it got ready); 1.1, whose app fails at start, is staged."""
    release(opt, "1.0-aaaa")
    switch(opt, "stage", "1.0-aaaa")
    service_start(opt)
    release(opt, "1.1-bad0", works=False)
    switch(opt, "stage", "1.1-bad0")


@pytest.fixture
def opt(tmp_path: Path) -> Path:
    folder = tmp_path / "opt"
    (folder / "versions").mkdir(parents=True)
    return folder


def test_first_install_is_staged_then_started_and_kept(opt: Path):
    release(opt, "1.0-aaaa")
    staged = switch(opt, "stage", "1.0-aaaa")
    assert staged.returncode == 0, staged.stderr
    assert link(opt, "next") == "versions/1.0-aaaa" and link(opt, "current") is None
    assert service_start(opt) == (True, 1)
    assert link(opt, "current") == "versions/1.0-aaaa"
    assert link(opt, "next") is None and not (opt / "trial").exists()


def test_an_update_switches_at_the_next_start_and_the_old_one_stays_as_previous(opt: Path):
    release(opt, "1.0-aaaa")
    switch(opt, "stage", "1.0-aaaa")
    service_start(opt)
    release(opt, "1.1-bbbb")
    switch(opt, "stage", "1.1-bbbb")
    assert link(opt, "current") == "versions/1.0-aaaa"  # the running one is untouched
    assert service_start(opt) == (True, 1)
    assert link(opt, "current") == "versions/1.1-bbbb"
    assert link(opt, "previous") == "versions/1.0-aaaa"
    status = switch(opt, "status").stdout
    assert "current   1.1-bbbb" in status and "previous  1.0-aaaa" in status


def test_a_release_that_never_gets_ready_is_rolled_back_within_the_start_limit(opt: Path):
    running_then_broken_staged(opt)
    ready, starts = service_start(opt)
    assert ready, "the service never got ready again"
    assert starts == 3 < unit_number("StartLimitBurst")  # two tries, then the way back
    assert link(opt, "current") == "versions/1.0-aaaa"
    assert not (opt / "trial").exists()
    # The failed release is gone once the old one is ready again; the old one stays.
    assert sorted(p.name for p in (opt / "versions").iterdir()) == ["1.0-aaaa"]


def test_the_rollback_is_said_in_the_log(opt: Path):
    running_then_broken_staged(opt)
    outputs = [switch(opt, "start").stdout for _ in range(3)]
    assert "starting release 1.1-bad0 on trial" in outputs[0]
    assert "start 2 of 2 (then back to release 1.0-aaaa)" in outputs[1]
    assert outputs[2].strip() == ("release-switch: release 1.1-bad0 did not get ready in 2 "
                                  "starts: back to release 1.0-aaaa.")
    assert (opt / "versions" / "1.1-bad0" / "FAILED").exists()


def test_a_first_release_that_does_not_get_ready_counts_its_starts_without_a_way_back(
        opt: Path):
    """No earlier release: no "start 3 of 2", and nothing is marked failed or switched."""
    release(opt, "1.0-bad0", works=False)
    switch(opt, "stage", "1.0-bad0")
    outputs = [switch(opt, "start").stdout.strip() for _ in range(4)]
    assert outputs[0] == ("release-switch: starting release 1.0-bad0, the first one installed "
                          "(there is no earlier release to go back to).")
    assert outputs[1:] == [
        f"release-switch: release 1.0-bad0 has not got ready yet: start {n} (there is no "
        "earlier release to go back to)." for n in (2, 3, 4)]
    assert link(opt, "current") == "versions/1.0-bad0"
    assert not (opt / "versions" / "1.0-bad0" / "FAILED").exists()


def test_every_link_is_a_relative_symlink_and_no_temporary_link_is_left(opt: Path):
    for name in ("1.0-aaaa", "1.1-bbbb"):
        release(opt, name)
        switch(opt, "stage", name)
        service_start(opt)
    for name in ("current", "previous"):
        assert (opt / name).is_symlink() and not os.readlink(opt / name).startswith("/")
    assert sorted(p.name for p in opt.iterdir()) == ["current", "previous", "versions"]


def test_staging_a_release_that_is_not_there_is_one_sentence(opt: Path):
    result = switch(opt, "stage", "9.9-none")
    assert result.returncode == 1
    assert result.stderr.strip().splitlines() == [
        f"release-switch: no release 9.9-none in {opt}/versions (its venv has no "
        "sorry-companion)."]
    assert link(opt, "next") is None


def test_starting_with_nothing_installed_is_one_sentence(opt: Path):
    result = switch(opt, "start")
    assert result.returncode == 1
    assert "no release is installed" in result.stderr


def test_old_releases_are_pruned_to_current_and_previous(opt: Path):
    for name in ("1.0-aaaa", "1.1-bbbb", "1.2-cccc"):
        release(opt, name)
        switch(opt, "stage", name)
        service_start(opt)
    assert sorted(p.name for p in (opt / "versions").iterdir()) == ["1.1-bbbb", "1.2-cccc"]
