"""The UI tests' fixtures: the real app on a real SDL2 window rendered offscreen through
Mesa (`driver`), and gpiozero's MockFactory for its buttons (`mock_pins`). tests/ui's
conftest.py makes them that folder's; a game's own tests (games/<name>/tests/) make them
theirs the same way, with this folder on their path.

The environment must be set before Kivy is first imported, so it is done here at import
time. One Kivy window serves every test (Kivy has one per process); each test builds a
fresh app on a fresh data dir and takes it down again.
"""

from __future__ import annotations

import os
import tempfile

_KIVY_HOME = tempfile.mkdtemp(prefix="sorry-kivy-home-")
os.environ.update(
    {
        "SDL_VIDEODRIVER": "offscreen",
        "KIVY_NO_ARGS": "1",
        "KIVY_NO_CONSOLELOG": "1",
        "KIVY_NO_FILELOG": "1",
        "KIVY_USE_DEFAULTCONFIG": "1",
        "KIVY_HOME": _KIVY_HOME,
        # Leave sys.stderr and the root logger alone: other packages' tests share
        # this process under `make test`.
        "KIVY_LOG_MODE": "PYTHON",
    }
)

import pytest  # noqa: E402
from ui_helpers import _RUNNING, Driver, make_app  # noqa: E402


@pytest.fixture
def driver(tmp_path):
    """The real app on a fresh data dir, started and drawn, touch-only, voice off."""
    drivers: list[Driver] = []

    def start(data_dir=None, **kwargs) -> Driver:
        d = Driver(make_app(data_dir or tmp_path / "data", **kwargs))
        drivers.append(d)
        d.start()
        return d

    yield start
    for d in drivers:
        d.stop()


@pytest.fixture
def mock_pins(driver, monkeypatch):
    """gpiozero's MockFactory for the app's buttons (`start_hardware=True`); yields
    gpiozero's Device, whose `pin_factory.pin(n)` is a pin to drive. The pins are the
    process's: at the end every app still running is stopped (its buttons closed) and the
    factory reset, so the next test finds them free."""
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    from gpiozero import Device

    yield Device
    for running in list(_RUNNING):
        running.stop()
    if Device.pin_factory is not None:
        Device.pin_factory.reset()
    Device.pin_factory = None
