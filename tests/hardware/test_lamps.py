"""Lamps in the buttons: real gpiozero LEDs on mock pins, following the real session."""

from __future__ import annotations

import queue

import pytest
from hw_helpers import wait_until

from games.revenge.rules import Card, Play, Press
from hardware.lamps import LampState, SeatLamps, lamps_for
from hardware.pinplan import plan_pins

LAMPS = (5, 6, 13, 19)


@pytest.fixture
def shown() -> queue.Queue[LampState]:
    return queue.Queue()


@pytest.fixture
def lamps(factory, shown):
    uses = plan_pins(pins=(17, 27, 22, 23), lamps=LAMPS)
    with SeatLamps(uses, pin_factory=factory, on_shown=shown.put) as lamps:
        yield lamps


def lit(factory) -> list[bool]:
    return [factory.pin(p).state for p in LAMPS]


def await_shown(shown: queue.Queue[LampState], lamps: LampState) -> None:
    while shown.get(timeout=10) != lamps:
        pass


def test_lamps_light_for_whoever_may_press_now(lamps, factory, session, shown):
    lamps.follow(session)
    await_shown(shown, LampState(frozenset()))
    assert lit(factory) == [False] * 4
    session.submit(Play(Card.parse("slide:21")))  # Ana reached 21: the others may call SORRY!
    await_shown(shown, LampState(frozenset({1, 2, 3})))
    assert lit(factory) == [False, True, True, True]
    session.submit(Press("Di", session.clock()))  # Di called: only Ana may answer Don't Be SORRY!
    await_shown(shown, LampState(frozenset({0})))
    assert lit(factory) == [True, False, False, False]
    session.close_window()
    await_shown(shown, LampState(frozenset()))
    assert lit(factory) == [False] * 4


def test_the_winners_lamp_flashes(lamps, factory, session, shown):
    lamps.follow(session)
    while session.state.winner is None:  # Ana takes rounds until she wins
        while session.state.turn != 0:
            session.submit(Play(Card.parse("0")))
        session.submit(Play(Card.parse("slide:21")))
        session.close_window()
    assert session.state.winner == 0
    await_shown(shown, LampState(frozenset(), winner=0))
    pin = factory.pin(LAMPS[0])
    changes = len(pin.states)
    assert wait_until(lambda: len(pin.states) >= changes + 3)  # on, off, on: flashing
    assert lit(factory)[1:] == [False] * 3


def test_lamp_modes():
    lamps = LampState(frozenset({1}), winner=2)
    assert [lamps.mode(s) for s in range(3)] == ["off", "on", "blink"]
    assert lamps_for(None) == LampState(frozenset())
