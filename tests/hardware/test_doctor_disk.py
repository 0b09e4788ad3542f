"""The doctor's free-space check: a full SD card stops games being saved, so it warns first
and says what to free."""

from __future__ import annotations

import shutil

from hardware import doctor


def test_enough_room_is_ok_and_says_how_much(tmp_path, monkeypatch):
    monkeypatch.setattr(doctor, "DISK_LOW_MB", 0)  # any free space is enough
    check = doctor.check_disk(tmp_path)
    assert check.name == "disk" and check.result == "ok" and check.fix == ""
    assert check.detail.endswith(f"MB free on the disk of {tmp_path}")


def test_little_room_warns_and_says_what_to_free(tmp_path, monkeypatch):
    free_mb = shutil.disk_usage(tmp_path).free // 2**20
    monkeypatch.setattr(doctor, "DISK_LOW_MB", free_mb + 1)  # this disk, counted as nearly full
    check = doctor.check_disk(tmp_path)
    assert check.result == "warn" and check.passed  # the game still runs
    assert check.detail.startswith("only ") and "games may soon stop being saved" in check.detail
    assert "sudo journalctl --vacuum-size=50M" in check.fix
    assert "When the SD card is full" in check.fix
    assert "journalctl" in check.fix_in("fr") and "Mo libres" in check.detail_in("fr")


def test_a_data_folder_not_made_yet_is_measured_on_the_disk_it_will_be_made_on(tmp_path):
    check = doctor.check_disk(tmp_path / "not" / "yet")
    assert check.result in ("ok", "warn") and check.code.startswith("disk_")
    assert str(tmp_path / "not" / "yet") in check.detail


def test_the_doctor_command_and_the_hardware_page_both_check_the_disk(tmp_path, capsys):
    from companion.cli import main
    from companion.config import Config

    assert "disk" in [c.name for c in doctor.app_checks(Config(), {})]
    config = tmp_path / "config.toml"
    config.write_text(f'data_dir = "{tmp_path}"\n[ledboard]\nenabled = false\n')
    main(["--config", str(config), "doctor"])
    rows = [line.split() for line in capsys.readouterr().out.splitlines()]
    assert any(row[:2] in (["disk", "ok"], ["disk", "warn"]) for row in rows if row)
