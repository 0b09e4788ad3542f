"""Issue 9, finding 12: on a Pi 5 without /dev/gpiochip4 the app and `doctor` say so in
one sentence with the fix, instead of buttons that are silently dead."""

from __future__ import annotations

import pytest

from companion.config import GpioConfig
from hardware import buttons, gpiochip
from hardware.doctor import check_buttons


@pytest.fixture
def pi5(tmp_path, monkeypatch):
    model = tmp_path / "model"
    model.write_bytes(b"Raspberry Pi 5 Model B Rev 1.0\0")
    dev = tmp_path / "dev"
    dev.mkdir()
    monkeypatch.setattr(gpiochip, "MODEL", model)
    monkeypatch.setattr(gpiochip, "DEV", dev)
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "lgpio")  # what a Pi runs with
    return dev


def test_the_app_names_the_missing_link_in_one_sentence(pi5):
    with pytest.raises(buttons.GpioSetupError) as err:
        buttons.pin_factory_or_default(None)
    text = str(err.value)
    assert "Raspberry Pi 5 has no" in text and "gpiochip4" in text
    assert "raspberrypi-sys-mods" in text and "\n" not in text


def test_doctor_names_it_too(pi5):
    check, panel = check_buttons(GpioConfig())
    assert panel is None and check.result == "warn"
    assert "gpiochip4" in check.fix and "raspberrypi-sys-mods" in check.fix


def test_with_the_link_or_on_a_pi4_there_is_nothing_to_say(pi5, tmp_path, monkeypatch):
    (pi5 / "gpiochip0").touch()
    (pi5 / "gpiochip4").symlink_to("gpiochip0")
    assert gpiochip.pi5_gpiochip_problem() is None
    (pi5 / "gpiochip4").unlink()
    gpiochip.MODEL.write_bytes(b"Raspberry Pi 4 Model B Rev 1.5\0")
    assert gpiochip.pi5_gpiochip_problem() is None
