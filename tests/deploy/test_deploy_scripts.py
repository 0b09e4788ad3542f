"""install.sh and uninstall.sh: lint, the dry-run tree, idempotence, and what survives."""

from __future__ import annotations

import dataclasses
import fnmatch
import os
import re
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest
from deploy_helpers import (
    BACKLIGHT_RULE,
    COMMAND,
    COMMAND_SCRIPT,
    CONFIG,
    DATA_DIR,
    DEPLOY,
    INSTALL,
    LOCK,
    MODULES_LOAD,
    OPT_DIR,
    POLKIT_RULE,
    STICK_RULE,
    SWITCH,
    SWITCH_SCRIPT,
    UDEV_RULE,
    UNINSTALL,
    UNIT,
    Scripts,
    snapshot,
    under,
)

SCRIPTS = sorted(DEPLOY.glob("*.sh"))  # including common.sh, which the two scripts source


def test_deploy_has_both_scripts():
    assert {INSTALL, UNINSTALL} <= set(SCRIPTS)


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_script_passes_shellcheck(shellcheck: str, script: Path):
    result = subprocess.run([shellcheck, "--severity=style", "--external-sources",
                             "--source-path=SCRIPTDIR", str(script)],
                            capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize("script", [INSTALL, UNINSTALL], ids=lambda p: p.name)
def test_script_is_strict_and_executable(script: Path):
    assert "\nset -euo pipefail\n" in script.read_text()
    assert os.access(script, os.X_OK)


def test_dry_run_writes_every_file_and_runs_nothing(scripts: Scripts, tmp_path: Path):
    root = tmp_path / "root"
    result = scripts.install(root)
    assert result.returncode == 0, result.stderr
    assert result.calls == [], "a dry run ran real commands"
    for pi_path in (UNIT, UDEV_RULE, MODULES_LOAD, BACKLIGHT_RULE, STICK_RULE, CONFIG,
                    POLKIT_RULE, COMMAND, SWITCH):
        assert under(root, pi_path).is_file(), pi_path
    for pi_path, source in ((UNIT, DEPLOY / "sorry-companion.service"),
                            (UDEV_RULE, DEPLOY / "99-sorry-ledboard.rules"),
                            (MODULES_LOAD, DEPLOY / "sorry-companion-modules.conf"),
                            (BACKLIGHT_RULE, DEPLOY / "70-sorry-companion-backlight.rules"),
                            (STICK_RULE, DEPLOY / "70-sorry-companion-usb-stick.rules"),
                            (POLKIT_RULE, DEPLOY / "50-sorry-companion-poweroff.rules"),
                            (COMMAND, COMMAND_SCRIPT), (SWITCH, SWITCH_SCRIPT)):
        assert under(root, pi_path).read_bytes() == source.read_bytes(), pi_path
    for pi_path in (COMMAND, SWITCH):
        assert os.access(under(root, pi_path), os.X_OK), pi_path
    # ... and says what it would have run.
    would = [line for line in result.stdout.splitlines() if line.startswith("would run:")]
    for command in ("apt-get install", "espeak-ng", "libmtdev1", "polkitd", "useradd",
                    "--system-site-packages", "pip install", "systemctl enable",
                    "release-switch stage checkout", "modprobe -a cdc_acm usbserial"):
        assert any(command in line for line in would), command
    for group in ("gpio", "dialout", "video", "render", "input"):
        assert any(f"--groups {group} sorry" in line for line in would), group


def test_no_sdl2_packages_the_kivy_wheel_does_not_use(installed: Path, scripts: Scripts):
    result = scripts.install(installed)
    apt = [line for line in result.stdout.splitlines() if "apt-get install" in line]
    assert apt and "libsdl2" not in " ".join(apt)


def test_off_a_pi_the_pi_only_steps_are_named_as_skipped(scripts: Scripts, tmp_path: Path):
    result = scripts.install(tmp_path / "root")
    assert "skipped (not a Raspberry Pi): python3-lgpio" in result.stdout
    assert "skipped (not a Raspberry Pi): quiet boot" in result.stdout
    apt = [line for line in result.stdout.splitlines() if "apt-get install" in line]
    assert "python3-lgpio" not in " ".join(apt)


def test_pip_installs_the_release_from_the_lock_with_hashes_and_no_index(
        installed: Path, scripts: Scripts):
    """Every package comes from the archive's wheels, checked against the lock's hashes,
    into the release's own venv, never into the running one."""
    result = scripts.install(installed)
    pip_lines = [line for line in result.stdout.splitlines()
                 if line.startswith("would run:") and "pip install" in line]
    assert len(pip_lines) == 2
    deps, app = pip_lines
    for flag in ("--no-index", "--require-hashes", "--only-binary=:all:",
                 f"-r {LOCK}", f"--find-links {DEPLOY.parent}/wheels"):
        assert flag in deps, flag
    assert "--no-index" in app and "--no-deps" in app and "sorry_companion-" in app
    venv = "/opt/sorry-companion/versions/checkout/venv"
    assert all(f"{venv}/bin/python -m pip" in line for line in pip_lines)
    assert f"would run: {venv}/bin/sorry-companion --version" in result.stdout


def test_camera_adds_its_locked_wheels_and_the_pi_camera_package_only_when_asked(
        scripts: Scripts, tmp_path: Path):
    plain = scripts.install(tmp_path / "plain")
    assert "requirements-camera.lock" not in plain.stdout and "picamera2" not in plain.stdout
    result = scripts.install(tmp_path / "camera", "--camera")
    assert result.returncode == 0, result.stderr
    pip_lines = [line for line in result.stdout.splitlines()
                 if line.startswith("would run:") and "pip install" in line]
    assert len(pip_lines) == 3
    camera = pip_lines[1]
    for flag in ("--no-index", "--require-hashes", "--only-binary=:all:",
                 f"-r {DEPLOY}/requirements-camera.lock"):
        assert flag in camera, flag
    # off a Pi there is no libcamera: said, not installed (a USB webcam needs only OpenCV)
    assert "skipped (not a Raspberry Pi): python3-picamera2" in result.stdout
    apt = [line for line in result.stdout.splitlines() if "apt-get install" in line]
    assert "picamera2" not in " ".join(apt)


def test_the_camera_lock_pins_the_extra_for_both_pythons_and_platforms():
    pins = {line.split("==")[0].strip().lower(): line.split("#")[0].strip()
            for line in (DEPLOY.parent / "requirements.txt").read_text().splitlines()
            if "==" in line and not line.startswith("#")}
    text = (DEPLOY / "requirements-camera.lock").read_text()
    entries = re.findall(r"^([a-z0-9-]+)==(\S+) \\\n((?:    --hash=sha256:[0-9a-f]{64}.*\n)+)",
                         text, re.MULTILINE)
    assert sorted(name for name, _v, _h in entries) == ["numpy", "opencv-python-headless"]
    counts = {name: hashes.count("--hash=") for name, _v, hashes in entries}
    for name, version, _hashes in entries:
        assert f"{name}=={version}" == pins[name]
    # numpy: one wheel per Python (Trixie's 3.13, Bookworm's 3.11) and platform; OpenCV's
    # wheels are abi3, one per platform for every Python
    assert counts == {"numpy": 4, "opencv-python-headless": 2}


def test_lock_pins_every_runtime_requirement_with_hashes_for_both_pythons_and_platforms():
    pins = {line.split("==")[0].strip().lower(): line.strip()
            for line in (DEPLOY.parent / "requirements.txt").read_text().splitlines()
            if "==" in line and not line.startswith("#")}
    text = LOCK.read_text()
    entries = re.findall(r"^([a-z0-9-]+)==(\S+) \\\n((?:    --hash=sha256:[0-9a-f]{64}.*\n)+)",
                         text, re.MULTILINE)
    locked = {name: (version, hashes.count("--hash=")) for name, version, hashes in entries}
    assert len(locked) == text.count("==")
    for name in ("kivy", "gpiozero", "pyserial", "mpremote"):
        assert f"{name}=={locked[name][0]}" == pins[name]
    # Kivy's and gpiozero's own dependencies are pinned too.
    for name in ("colorzero", "requests", "docutils", "pygments", "filetype", "kivy-garden"):
        assert name in locked, name
    # Compiled packages carry one hash per Python (3.13 for Trixie, 3.11 for Bookworm) and
    # platform (aarch64 and x86_64).
    assert locked["kivy"][1] == 4 and locked["charset-normalizer"][1] == 4
    assert locked["gpiozero"][0] >= "2.0.1.post3"


def test_second_run_changes_nothing(installed: Path, scripts: Scripts):
    before = snapshot(installed)
    result = scripts.install(installed)
    assert result.returncode == 0, result.stderr
    assert snapshot(installed) == before
    assert "installed:" not in result.stdout


def test_owner_edits_survive_a_rerun(installed: Path, scripts: Scripts):
    config = under(installed, CONFIG)
    config.write_text('data_dir = "/srv/games"\n')
    journal = under(installed, DATA_DIR) / "journal.sqlite3"
    journal.write_bytes(b"games so far")

    result = scripts.install(installed)
    assert result.returncode == 0, result.stderr
    assert config.read_text() == 'data_dir = "/srv/games"\n'
    assert journal.read_bytes() == b"games so far"


def test_a_changed_unit_is_refreshed_by_a_rerun(installed: Path, scripts: Scripts):
    unit = under(installed, UNIT)
    unit.write_text("[Service]\nExecStart=/bin/false\n")
    result = scripts.install(installed)
    assert result.returncode == 0, result.stderr
    assert unit.read_bytes() == (DEPLOY / "sorry-companion.service").read_bytes()


def test_config_is_the_apps_defaults_but_data_dir_and_fullscreen(installed: Path):
    """The real config module reads the installed file: everything is the default
    except what the Pi needs."""
    from companion.config import game_sections, load_config

    config = load_config(under(installed, CONFIG))
    defaults = load_config("/dev/null")
    assert config.data_dir == Path(DATA_DIR)
    assert config.display.fullscreen is True
    for field in dataclasses.fields(config):
        if field.name not in {"data_dir", "display", "source", "games"}:
            assert getattr(config, field.name) == getattr(defaults, field.name), field.name
    tables = game_sections()
    assert tables and set(config.games) == set(tables)  # each game's table, all defaults
    for table in tables:
        assert config.section(table) == defaults.section(table), table


def test_config_keeps_every_default_line_commented_in_its_section(installed: Path):
    from companion.default_config import default_config_text

    shipped = default_config_text().splitlines()  # the app's tables, then each game's
    installed_lines = under(installed, CONFIG).read_text().splitlines()
    assert [line for line in shipped if line.startswith("[")] == [
        line for line in installed_lines if line.startswith("[")]
    assert "# pins = [17, 27, 22, 23]" in installed_lines
    assert 'data_dir = "/var/lib/sorry-companion"' in installed_lines


def _fake_checkout(tmp_path: Path, requirements: str, defaults: str | None) -> Path:
    source = tmp_path / "checkout"
    shutil.copytree(DEPLOY, source / "deploy")
    (source / "requirements.txt").write_text(requirements)
    (source / "companion").mkdir()
    if defaults is not None:
        (source / "companion" / "default_config.toml").write_text(defaults)
    return source


def _install_from(source: Path, tmp_path: Path, scripts: Scripts) -> Path:
    root = tmp_path / "root"
    result = scripts.run(source / "deploy" / "install.sh", "--dry-run", "--root", root)
    assert result.returncode == 0, result.stderr
    return under(root, CONFIG)


REQUIREMENTS = (DEPLOY.parent / "requirements.txt").read_text()


def test_config_template_places_the_pi_keys_in_their_tables(tmp_path: Path,
                                                            scripts: Scripts):
    defaults = ('# intro\nlanguage = "en"\n\n[buttons]\npins = [\n  17,\n  27,\n]\n\n'
                '[display]\nfullscreen = false\nrotation = 0\n')
    text = _install_from(_fake_checkout(tmp_path, REQUIREMENTS, defaults),
                         tmp_path, scripts).read_text()
    assert tomllib.loads(text) == {"data_dir": DATA_DIR, "buttons": {},
                                   "display": {"fullscreen": True}}
    for line in ("# intro", '# language = "en"', "# pins = [", "#   17,", "# ]",
                 "# rotation = 0"):
        assert line in text.splitlines()
    # Uncommenting the defaults puts each back in its own table.
    settings = {line for line in defaults.splitlines() if line and not line.startswith("#")}
    uncommented = "\n".join(line[2:] if line[2:] in settings else line
                            for line in text.splitlines())
    assert tomllib.loads(uncommented) == {
        "data_dir": DATA_DIR, "language": "en", "buttons": {"pins": [17, 27]},
        "display": {"fullscreen": True, "rotation": 0}}


def test_config_template_without_defaults_in_the_checkout(tmp_path: Path, scripts: Scripts):
    text = _install_from(_fake_checkout(tmp_path, REQUIREMENTS, None),
                         tmp_path, scripts).read_text()
    assert tomllib.loads(text) == {"data_dir": DATA_DIR, "display": {"fullscreen": True}}


def test_a_checkout_without_the_lock_stops_the_install_with_one_sentence(
        tmp_path: Path, scripts: Scripts):
    source = _fake_checkout(tmp_path, REQUIREMENTS, None)
    (source / "deploy" / "requirements-pi.lock").unlink()
    root = tmp_path / "root"
    result = scripts.run(source / "deploy" / "install.sh", "--dry-run", "--root", root)
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        f"install.sh: no deploy/requirements-pi.lock in {source}: run this script from an "
        "unpacked release archive."]
    assert not under(root, UNIT).exists()


def test_a_checkout_is_refused_for_a_real_install(tmp_path: Path, scripts: Scripts):
    """Without a RELEASE file only a dry run goes on; a real run says how to make one.
    (Run as root, the real run stops at this check, before any system change.)"""
    if os.geteuid() != 0:
        pytest.skip("the real run checks for root first")
    source = _fake_checkout(tmp_path, REQUIREMENTS, None)
    result = scripts.run(source / "deploy" / "install.sh")
    assert result.returncode == 2
    assert "is a checkout, not a release: build one with 'make dist'" in result.stderr
    assert [call for call in result.calls if not call.startswith("apt-cache")] == []


@pytest.mark.parametrize("script", [INSTALL, UNINSTALL], ids=lambda p: p.name)
@pytest.mark.parametrize("args", [["--bogus"], ["--dry-run", "--root"],
                                  ["--root", "/tmp/somewhere"]])
def test_bad_options_get_one_sentence(scripts: Scripts, script: Path, args: list[str]):
    result = scripts.run(script, *args)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"{script.name}: "), result.stderr
    assert lines[0].endswith(".")
    assert result.calls == []


@pytest.mark.parametrize("script", [INSTALL, UNINSTALL], ids=lambda p: p.name)
def test_help_names_the_dry_run(scripts: Scripts, script: Path):
    result = scripts.run(script, "--help")
    assert result.returncode == 0
    assert "--dry-run" in result.stdout and "--root DIR" in result.stdout


def test_uninstall_keeps_data_and_config(installed: Path, scripts: Scripts):
    journal = under(installed, DATA_DIR) / "journal.sqlite3"
    journal.write_bytes(b"games so far")
    result = scripts.uninstall(installed)
    assert result.returncode == 0, result.stderr
    assert result.calls == []
    for gone in (UNIT, UDEV_RULE, MODULES_LOAD, BACKLIGHT_RULE, STICK_RULE, OPT_DIR,
                 POLKIT_RULE, COMMAND, SWITCH):
        assert not under(installed, gone).exists(), gone
    assert journal.read_bytes() == b"games so far"
    assert under(installed, CONFIG).is_file()
    assert "would run: systemctl disable --now sorry-companion.service" in result.stdout
    assert "userdel" not in result.stdout


def test_uninstall_purge_removes_data_config_and_user(installed: Path, scripts: Scripts):
    result = scripts.uninstall(installed, "--purge")
    assert result.returncode == 0, result.stderr
    assert result.calls == []
    for gone in (UNIT, UDEV_RULE, OPT_DIR, DATA_DIR, CONFIG):
        assert not under(installed, gone).exists(), gone
    assert "would run: userdel sorry" in result.stdout


def test_reinstall_after_uninstall_finds_the_old_data(installed: Path, scripts: Scripts):
    journal = under(installed, DATA_DIR) / "journal.sqlite3"
    journal.write_bytes(b"games so far")
    assert scripts.uninstall(installed).returncode == 0
    assert scripts.install(installed).returncode == 0
    assert under(installed, UNIT).is_file()
    assert journal.read_bytes() == b"games so far"


def test_udev_rule_names_the_pico_ledboard():
    rules = [line for line in (DEPLOY / "99-sorry-ledboard.rules").read_text().splitlines()
             if line.strip() and not line.startswith("#")]
    assert len(rules) == 1
    pairs = re.findall(r'([A-Z_]+(?:\{[^}]+\})?)(==|\+=|=)"([^"]*)"', rules[0])
    # Every comma-separated clause is a well-formed udev key-operator-value.
    assert len(pairs) == len(rules[0].split(", "))
    rule = {(key, op): value for key, op, value in pairs}
    assert rule == {
        ("SUBSYSTEM", "=="): "tty",
        ("ATTRS{idVendor}", "=="): "2e8a",  # sysfs spells USB ids in lower case
        ("ATTRS{idProduct}", "=="): "0005",
        ("SYMLINK", "+="): "sorry-ledboard",
        ("GROUP", "="): "dialout",
        ("MODE", "="): "0660",
        ("ENV{ID_MM_DEVICE_IGNORE}", "="): "1",
    }


def test_no_kivy_config_ini_is_installed(installed: Path):
    """The app sets the Kivy settings it needs at every start (ui/kivy_settings.py), so
    the install ships no copy of Kivy's config.ini to drift."""
    assert not (under(installed, DATA_DIR) / "kivy" / "config.ini").exists()


def _rule_lines(name: str) -> list[str]:
    return [line for line in (DEPLOY / name).read_text().splitlines()
            if line and not line.startswith("#")]


def test_backlight_rule_gives_the_service_users_group_write_access():
    """ui/backlight.py writes brightness only where os.access says it may: the rule's group
    must be one the installer puts the service user in."""
    (rule,) = _rule_lines("70-sorry-companion-backlight.rules")
    group = re.search(r"chgrp (\w+) /sys%p/brightness", rule)
    assert group and 'SUBSYSTEM=="backlight"' in rule and "chmod g+w /sys%p/brightness" in rule
    groups = re.search(r"APP_GROUPS=\(([^)]*)\)", INSTALL.read_text())
    assert groups and group.group(1) in groups.group(1).split()


def test_usb_sticks_are_mounted_where_menu_back_up_looks_and_owned_by_the_service_user():
    from companion.config import BackupConfig

    rules = _rule_lines("70-sorry-companion-usb-stick.rules")
    assert {re.search(r'ID_FS_TYPE}=="(\w+)"', rule).group(1) for rule in rules} == {
        "vfat", "exfat"}
    for rule in rules:
        assert "systemd-mount --no-block" in rule  # udev's own mounts stay in its namespace
        assert "uid=sorry,gid=sorry" in rule
        folder = rule.rsplit(" ", 1)[1].rstrip('"').replace("%k", "sda1")
        assert any(fnmatch.fnmatch(folder, pattern) for pattern in BackupConfig().usb_folders)
