"""The UI tests' fixtures (app_fixtures.py, shared with each game's own tests): the real
app offscreen (`driver`) and gpiozero's mock pins (`mock_pins`)."""

from app_fixtures import driver, mock_pins  # noqa: F401
