"""Issue 13: the status line says how the hardware is in a few words of the current
language, never a pin, a USB id or an environment variable; Menu > Hardware shows every
detail, from the doctor's checks, with a way to fix it. The real app, gpiozero's mock
pin factory, no LED board plugged in."""

from __future__ import annotations

import re

import pytest
from kivy.uix.label import Label
from ui_helpers import setup_by_touch

from companion.config import Config, GpioConfig, LedBoardConfig

DETAIL_MARKS = re.compile(r"GPIO\d|USB|[0-9a-f]{4}:[0-9a-f]{4}|\[|=|--|_|/")
MIN_TEXT_PX = 14
MIN_TARGET_PX = 48


@pytest.fixture
def mock_pins(monkeypatch):
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    from gpiozero import Device

    yield
    if Device.pin_factory is not None:
        Device.pin_factory.reset()
    Device.pin_factory = None


def short(status: str) -> None:
    """A status line in words: no detail of the Hardware page's."""
    assert not DETAIL_MARKS.search(status), status
    assert len(status) <= 60, status


def test_status_words_in_english_and_french(driver, mock_pins):
    # No board plugged in: the LED board is looked for by its USB ids.
    d = driver(config=Config(ledboard=LedBoardConfig(enabled=True)), start_hardware=True)
    want_en = "Buttons: ready  ·  LED board: not found"
    d.wait_for(lambda: d.app.status == want_en, f"{want_en!r}, not {d.app.status!r}")
    short(d.app.status)
    setup_by_touch(d, ["Ana", "Ben"], pawns=4, variant="standard")
    assert d.label("table", "status_label") == want_en
    d.app.set_language("fr")
    d.frames(2)
    want_fr = "Boutons : prêts  ·  Panneau LED : introuvable"
    assert d.label("table", "status_label") == want_fr
    short(want_fr)


def test_status_words_when_the_parts_are_off_or_not_started(driver):
    d = driver(config=Config(gpio=GpioConfig(enabled=False),
                             ledboard=LedBoardConfig(enabled=False)), start_hardware=True)
    d.wait_for(lambda: d.app.status == "Buttons: off  ·  LED board: off", "both parts off")
    d.app.set_language("fr")
    assert d.app.status == "Boutons : éteints  ·  Panneau LED : éteint"
    d.stop()
    touch_only = driver(start_hardware=False, language="fr")  # `run --no-hardware`
    assert touch_only.app.status == "Matériel : éteint"
    short(touch_only.app.status)


def page_texts(d) -> list[str]:
    rows = d.app.screen("hardware").ids.hardware_list.children
    return [w.text for row in reversed(rows) for w in row.walk() if isinstance(w, Label)]


def test_the_hardware_page_under_menu_shows_the_details_and_how_to_fix(driver, mock_pins):
    d = driver(config=Config(ledboard=LedBoardConfig(enabled=True)), start_hardware=True)
    d.wait_for(lambda: "LED board: not found" in d.app.status, "the board's status")
    setup_by_touch(d, ["Ana", "Ben"], pawns=4, variant="standard")
    d.tap_id("table", "menu_button")
    assert d.screen == "menu"
    d.tap_id("menu", "menu_hardware")
    assert d.screen == "hardware"
    text = "\n".join(page_texts(d))
    # the details the status line leaves out: pin factory and pins, the USB ids looked for
    assert "mock pins" in text and "GPIO17" in text
    assert "no USB board with id" in text
    # and a way to fix each part that does not work
    assert "plug it in with its USB cable" in text
    assert "To fix: plug the board in" in text
    for name in ("Configuration", "SORRY! buttons", "LED board", "Voice", "Display"):
        assert name in text

    # Everything readable and touchable at 800x480, nothing spilling out of its box.
    for w in d.widgets():
        if isinstance(w, Label) and w.text.strip() and d.visible(w):
            assert w.font_size >= MIN_TEXT_PX, (w.text, w.font_size)
    for wid in ("hardware_again", "hardware_back"):
        button = d.app.screen("hardware").ids[wid]
        assert min(button.size) >= MIN_TARGET_PX, (wid, button.size)
    assert d.overflowing_labels() == []

    d.app.set_language("fr")
    d.frames(2)
    french = "\n".join(page_texts(d))
    assert "Boutons SORRY!" in french and "Panneau LED" in french
    assert "branchez son câble USB" in french and "Fonctionne" in french
    # the doctor's details and fixes too, from the same catalogue (issue 20)
    assert "aucun panneau USB d'identifiant 2E8A:0005 n'est branché" in french
    assert "branchez le panneau, ou réglez [ledboard] port" in french
    assert "no USB board" not in french and "plug the board" not in french

    d.tap_id("hardware", "hardware_again")
    assert d.screen == "hardware" and "GPIO17" in "\n".join(page_texts(d))
    d.tap_id("hardware", "hardware_back")
    assert d.screen == "menu"


def test_without_hardware_the_page_says_how_it_was_started_and_how_to_change_it(driver):
    d = driver(start_hardware=False)  # `run --no-hardware`, no configuration object
    assert d.app.status == "Hardware: off"
    d.app.show("hardware")
    d.frames(2)
    texts = page_texts(d)
    text = "\n".join(texts)
    assert "started with --no-hardware" in text
    assert "start the app without --no-hardware" in text
    for part in ("SORRY! buttons", "LED board"):  # each row: its name, then its state
        assert texts[texts.index(part) + 1] == "Off"


def test_known_names_the_screen_cannot_show_are_not_offered(tmp_path):
    import json

    from ui.prefs import Choices

    (tmp_path / "choices.json").write_text(json.dumps(
        {"players": ["Ana", "Ben 😀"], "known_names": ["Zoé", "李雷", "J" * 17, "J" * 16]}),
        encoding="utf-8")
    choices = Choices.load(tmp_path)
    assert choices.players == ["Ana"]
    assert choices.known_names == ["Zoé", "J" * 16]
