"""Issue 18: Menu > Back up (to a USB stick: a real tmpfs mounted where a stick would be),
Menu > Turn off (asks first; `systemctl poweroff` stands in as companion.system.poweroff,
the one call the app makes), and the version on the menu. By touch on the real app."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from ui_helpers import setup_by_touch, to_board_setup, type_name

from companion import __version__, system
from companion.config import BackupConfig, Config, LedBoardConfig
from companion.restore import read_backup
from ui import menu_actions
from ui.i18n import tr


def mounted(folder: Path, size: str) -> None:
    folder.mkdir(parents=True)
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder)],
                          capture_output=True, check=False)
    if done.returncode != 0:
        pytest.skip("cannot mount a tmpfs here (needs root): no stand-in for a USB stick")


@pytest.fixture
def media(tmp_path: Path) -> Iterator[Path]:
    """A /media of our own; a test mounts "sticks" in it (tmpfs), all unmounted after."""
    root = tmp_path / "media"
    root.mkdir()
    yield root
    for folder in sorted([*root.glob("*/*"), *root.glob("*")], reverse=True):
        if folder.is_mount():
            subprocess.run(["umount", str(folder)], capture_output=True, check=False)


def app_on(driver, tmp_path: Path, media: Path, lang: str = "en"):
    config = Config(ledboard=LedBoardConfig(enabled=False),
                    backup=BackupConfig(usb_folders=(f"{media}/*/*", f"{media}/*")))
    d = driver(tmp_path / "data", language=lang, config=config)
    setup_by_touch(d, ["Ana", "Ben"], pawns=2, variant="standard")
    d.tap_code("7")
    d.tap_id("table", "menu_button")
    assert d.screen == "menu"
    return d


def note(d) -> str:
    return d.app.screen("menu").note


def test_back_up_says_when_no_stick_is_there_then_writes_to_the_stick(driver, tmp_path, media):
    d = app_on(driver, tmp_path, media, lang="fr")
    d.tap_id("menu", "menu_backup")
    assert note(d) == tr("backup_no_stick", "fr")
    stick = media / "sorry" / "STICK"
    mounted(stick, "4m")
    d.tap_id("menu", "menu_backup")
    d.wait_for(lambda: note(d).startswith("Sauvegarde écrite"), "the backup's result")
    (written,) = stick.glob("sorry-companion-backup-*.sqlite3")
    assert note(d) == f"Sauvegarde écrite : {written} (1 partie)."
    summary, files = read_backup(written)
    assert (summary.games, summary.events) == (1, 1)
    assert "choices.json" in files


def test_a_full_stick_is_one_sentence_and_the_game_goes_on(driver, tmp_path, media):
    stick = media / "FULL"
    mounted(stick, "64k")
    with pytest.raises(OSError):
        (stick / "filler").write_bytes(b"\0" * 128 * 1024)
    d = app_on(driver, tmp_path, media)
    d.tap_id("menu", "menu_backup")
    d.wait_for(lambda: note(d).startswith("The backup failed"), "the backup's result")
    assert "No space left on device" in note(d) and "\n" not in note(d)
    assert not list(stick.glob("*.partial"))  # no half file left on the stick
    d.tap_id("menu", "menu_back")
    d.tap_code("5")
    assert d.app.session.state.total == 12


def test_turn_off_on_a_desktop_says_it_cannot(driver, tmp_path, media, monkeypatch):
    monkeypatch.setattr(menu_actions, "on_raspberry_pi", lambda: False)
    d = app_on(driver, tmp_path, media)
    d.tap_id("menu", "menu_power")
    assert note(d) == tr("power_not_pi", "en")


def test_turn_off_asks_first_then_powers_off_once(driver, tmp_path, media, monkeypatch):
    calls: list[str] = []
    monkeypatch.setattr(menu_actions, "on_raspberry_pi", lambda: True)
    monkeypatch.setattr(system, "poweroff", lambda: calls.append("poweroff"))
    d = app_on(driver, tmp_path, media)
    d.tap_id("menu", "menu_power")
    d.tap(d.button(code="confirm_keep"))
    assert calls == [] and d.screen == "menu"
    d.tap_id("menu", "menu_power")
    d.tap(d.button(code="confirm_give_up"))
    assert calls == ["poweroff"]
    assert note(d) == tr("power_going", "en")
    stored = d.app.journal.load(d.app.session.game_id)  # the last card was on disk first
    assert [e["type"] for e in stored.events] == ["setup", "play"]


def test_turn_off_off_a_pi_drawing_straight_on_the_screen_asks_then_powers_off(
    driver, tmp_path, media, monkeypatch
):
    """The installed service on a machine that is not a Pi (make pi-vm's emulated arm64
    machine) has no window to close: Turn off must ask and power off there too."""
    calls: list[str] = []
    monkeypatch.setattr(menu_actions, "on_raspberry_pi", lambda: False)
    monkeypatch.setenv("SDL_VIDEODRIVER", "kmsdrm")  # as deploy/sorry-companion.service sets
    monkeypatch.setattr(system, "poweroff", lambda: calls.append("poweroff"))
    d = app_on(driver, tmp_path, media)
    d.tap_id("menu", "menu_power")
    d.tap(d.button(code="confirm_give_up"))
    assert calls == ["poweroff"]
    assert note(d) == tr("power_going", "en")


def test_a_refused_power_off_is_one_sentence(driver, tmp_path, media, monkeypatch):
    def refuse() -> None:
        raise system.PowerOffError("the system refused to turn the table off (access denied)")

    monkeypatch.setattr(menu_actions, "on_raspberry_pi", lambda: True)
    monkeypatch.setattr(system, "poweroff", refuse)
    d = app_on(driver, tmp_path, media)
    d.tap_id("menu", "menu_power")
    d.tap(d.button(code="confirm_give_up"))
    assert note(d).startswith("The table cannot turn itself off: the system refused")


def test_the_menu_shows_the_running_version(driver, tmp_path, media):
    d = app_on(driver, tmp_path, media, lang="fr")
    assert d.label("menu", "menu_version") == f"Version {__version__}"


def test_the_board_games_menu_backs_up_and_turns_off_too(driver, tmp_path, media, monkeypatch):
    calls: list[str] = []
    monkeypatch.setattr(menu_actions, "on_raspberry_pi", lambda: True)
    monkeypatch.setattr(system, "poweroff", lambda: calls.append("poweroff"))
    config = Config(ledboard=LedBoardConfig(enabled=False),
                    backup=BackupConfig(usb_folders=(f"{media}/*",)))
    d = driver(tmp_path / "data", config=config)
    d.tap_id("start", "count_2")
    for i, name in enumerate(["Ana", "Ben"]):
        type_name(d, f"slot{i}", name)
    to_board_setup(d)
    d.tap_id("board_setup", "board_start")
    assert d.screen == "board"
    d.tap_id("board", "board_menu_button")
    menu = d.app.screen("board_menu")
    mounted(media / "STICK", "4m")
    d.tap_id("board_menu", "board_menu_backup")
    d.wait_for(lambda: menu.note.startswith("Backup written"), "the backup's result")
    assert len(list((media / "STICK").glob("sorry-companion-backup-*.sqlite3"))) == 1
    d.tap_id("board_menu", "board_menu_power")
    d.tap(d.button(code="confirm_give_up"))
    assert calls == ["poweroff"]
