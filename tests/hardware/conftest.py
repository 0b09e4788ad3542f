"""Fixtures for the hardware tests: gpiozero's MockFactory with a scripted clock, games."""

from __future__ import annotations

import os

os.environ.setdefault("GPIOZERO_PIN_FACTORY", "mock")  # never touch real GPIO from tests

import pytest
from gpiozero import Device
from hw_helpers import PLAYERS, ClockedMockFactory, ScriptedClock

from companion.session import Session
from games.revenge.rules import Setup


@pytest.fixture
def clock() -> ScriptedClock:
    return ScriptedClock(1000.0)


@pytest.fixture
def factory(clock: ScriptedClock):
    """gpiozero's MockFactory whose pins stamp each edge with the scripted clock."""
    factory = ClockedMockFactory(clock)
    yield factory
    factory.reset()
    factory.close()
    Device.pin_factory = None


@pytest.fixture
def session(clock: ScriptedClock) -> Session:
    session = Session(clock=clock)
    session.new_game(Setup.create(list(PLAYERS)))
    return session
