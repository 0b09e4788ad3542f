"""start_table_hardware: the one call the app makes, with every part working or not."""

from __future__ import annotations

import queue

import pytest
from gpiozero import LED, Device

from companion.config import Config, GpioConfig, LedBoardConfig
from hardware import Status, StatusKind, start_table_hardware
from hardware.simulator import SimulatedLedBoard


@pytest.fixture
def sim():
    with SimulatedLedBoard(uid="TABLE1") as board:
        yield board


@pytest.fixture
def heard() -> queue.Queue[Status]:
    return queue.Queue()


def wait_for(heard: queue.Queue[Status], part: str, kind: StatusKind) -> Status:
    while True:
        status = heard.get(timeout=10)
        if status.part == part and status.kind is kind:
            return status


def config(**parts) -> Config:
    return Config(gpio=parts.get("gpio", GpioConfig()),
                  ledboard=parts.get("ledboard", LedBoardConfig()))


def test_everything_starts_and_says_which_factory_and_pins(session, factory, sim, heard):
    cfg = config(gpio=GpioConfig(lamps=(5, 6, 13, 19), undo_pin=24),
                 ledboard=LedBoardConfig(port=sim.path))
    with start_table_hardware(session, cfg, on_status=heard.put, pin_factory=factory) as hw:
        buttons = hw.statuses["buttons"]
        assert buttons.ok and str(buttons) == (
            "ready: mock pins, buttons seat 1 GPIO17, seat 2 GPIO27, seat 3 GPIO22, "
            "seat 4 GPIO23, undo GPIO24; lamps GPIO5, GPIO6, GPIO13, GPIO19")
        assert str(wait_for(heard, "ledboard", StatusKind.CONNECTED)) == "connected TABLE1"
        assert hw.statuses["ledboard"].ok
        assert sim.wait_for(lambda s: s.state is not None and s.state.players == 4)
        hw.set_brightness(99)
        assert sim.wait_for(lambda s: s.state.bri == 99)
    assert hw.buttons is None and hw.ledboard is None


def test_bad_pins_mean_touch_only_and_the_board_still_works(session, factory, sim, heard):
    cfg = config(gpio=GpioConfig(pins=(17, 27), lamps=(27, 5)),
                 ledboard=LedBoardConfig(port=sim.path))
    with start_table_hardware(session, cfg, on_status=heard.put, pin_factory=factory) as hw:
        assert str(hw.statuses["buttons"]) == (
            "touch only: GPIO27 is used twice, for the seat 2 button and the seat 1 lamp; "
            "give each its own pin in [gpio]")
        assert not hw.statuses["buttons"].ok and hw.buttons is None
        wait_for(heard, "ledboard", StatusKind.CONNECTED)


def test_no_pin_factory_means_touch_only_with_the_fix(session, monkeypatch):
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "nosuchfactory")
    monkeypatch.setattr(Device, "pin_factory", None)
    cfg = config(ledboard=LedBoardConfig(enabled=False))
    with start_table_hardware(session, cfg) as hw:
        assert str(hw.statuses["buttons"]) == (
            "touch only: no GPIO pin factory works here; on a Raspberry Pi install "
            "python3-lgpio (sudo apt install python3-lgpio), elsewhere set "
            "GPIOZERO_PIN_FACTORY=mock")
        assert str(hw.statuses["ledboard"]) == "off: [ledboard] enabled = false"


def test_parts_switched_off_stay_off_but_a_board_port_given_at_start_wins(session, sim, heard):
    cfg = config(gpio=GpioConfig(enabled=False), ledboard=LedBoardConfig(enabled=False))
    with start_table_hardware(session, cfg, ledboard_port=sim.path, on_status=heard.put) as hw:
        assert str(hw.statuses["buttons"]) == "off: [gpio] enabled = false: touch buttons only"
        assert hw.statuses["buttons"].ok
        wait_for(heard, "ledboard", StatusKind.CONNECTED)


def test_lamps_that_fail_leave_the_buttons_working(session, factory, heard):
    with LED(6, pin_factory=factory):  # GPIO6 is taken by something else
        cfg = config(gpio=GpioConfig(lamps=(5, 6, 13, 19)), ledboard=LedBoardConfig(enabled=False))
        with start_table_hardware(session, cfg, pin_factory=factory) as hw:
            status = hw.statuses["buttons"]
            assert status.kind is StatusKind.READY and hw.buttons is not None and hw.lamps is None
            assert "; lamps off: GPIO6 (seat 2 lamp) is already in use" in status.detail


def test_closing_frees_the_pins_for_the_next_start(session, factory):
    cfg = config(ledboard=LedBoardConfig(enabled=False))
    start_table_hardware(session, cfg, pin_factory=factory).close()
    with start_table_hardware(session, cfg, pin_factory=factory) as hw:
        assert hw.statuses["buttons"].kind is StatusKind.READY


def test_a_status_callback_that_raises_does_not_stop_the_start(session, factory):
    def broken(status: Status) -> None:
        raise RuntimeError("UI not ready")

    cfg = config(ledboard=LedBoardConfig(enabled=False))
    with start_table_hardware(session, cfg, on_status=broken, pin_factory=factory) as hw:
        assert hw.statuses["buttons"].kind is StatusKind.READY
