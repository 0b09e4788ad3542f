"""install.sh and uninstall.sh: lint, the dry-run tree, idempotence, and what survives."""

from __future__ import annotations

import dataclasses
import os
import re
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest
from deploy_helpers import (
    CONFIG,
    DATA_DIR,
    DEPLOY,
    INSTALL,
    OPT_DIR,
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
    for pi_path in (UNIT, UDEV_RULE, CONFIG):
        assert under(root, pi_path).is_file(), pi_path
    assert under(root, UNIT).read_bytes() == (DEPLOY / "sorry-companion.service").read_bytes()
    assert under(root, UDEV_RULE).read_bytes() == (DEPLOY / "99-sorry-ledboard.rules").read_bytes()
    # ... and says what it would have run.
    would = [line for line in result.stdout.splitlines() if line.startswith("would run:")]
    for command in ("apt-get install", "python3-lgpio", "espeak-ng", "libmtdev1", "useradd",
                    "--system-site-packages", "pip install", "systemctl enable"):
        assert any(command in line for line in would), command
    for group in ("gpio", "dialout", "video", "render", "input"):
        assert any(f"--groups {group} sorry" in line for line in would), group


def test_pip_installs_only_the_runtime_pins_from_requirements(installed: Path,
                                                              scripts: Scripts):
    result = scripts.install(installed)
    pip_lines = [line for line in result.stdout.splitlines()
                 if line.startswith("would run:") and "pip install" in line]
    pinned = {line.split("==")[0].strip().lower(): line.strip()
              for line in (DEPLOY.parent / "requirements.txt").read_text().splitlines()
              if "==" in line and not line.startswith("#")}
    runtime = " ".join(pip_lines)
    for name in ("kivy", "gpiozero", "pyserial"):
        assert pinned[name] in runtime
    for test_tool in ("pytest", "hypothesis", "ruff"):
        assert test_tool not in runtime
    exec_start = [line for line in under(installed, UNIT).read_text().splitlines()
                  if line.startswith("ExecStart=")]
    venv_bin = exec_start[0].split("=", 1)[1].split()[0].rsplit("/", 1)[0]
    assert all(f"{venv_bin}/python -m pip" in line for line in pip_lines)


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
    from companion.config import load_config

    config = load_config(under(installed, CONFIG))
    defaults = load_config("/dev/null")
    assert config.data_dir == Path(DATA_DIR)
    assert config.display.fullscreen is True
    for field in dataclasses.fields(config):
        if field.name not in {"data_dir", "display", "source"}:
            assert getattr(config, field.name) == getattr(defaults, field.name), field.name


def test_config_keeps_every_default_line_commented_in_its_section(installed: Path):
    shipped = (DEPLOY.parent / "companion" / "default_config.toml").read_text().splitlines()
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


def test_requirements_without_a_pin_stop_the_install_with_one_sentence(
        tmp_path: Path, scripts: Scripts):
    source = _fake_checkout(tmp_path, "kivy==2.3.1\npyserial==3.5\npytest==9\n", None)
    root = tmp_path / "root"
    result = scripts.run(source / "deploy" / "install.sh", "--dry-run", "--root", root)
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        "install.sh: requirements.txt pins no version of gpiozero "
        "(expected a line like 'gpiozero==1.2.3')."]
    assert not under(root, UNIT).exists()


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
    for gone in (UNIT, UDEV_RULE, OPT_DIR):
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
