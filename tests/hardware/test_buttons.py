"""SORRY! buttons: real gpiozero Buttons on gpiozero's MockFactory, through the real Session."""

from __future__ import annotations

import random

import pytest
from gpiozero.pins.mock import MockFactory
from hw_helpers import PLAYERS, ClockedMockFactory, ScriptedClock

from companion.game import ResultKind
from companion.session import Session, Update
from games.revenge.rules import Awaiting, Card, Happening, Play, Setup
from hardware.buttons import ButtonPanel, ButtonPress, GpioSetupError
from hardware.edgeclock import EdgeClock
from hardware.lockout import Lockout
from hardware.pinplan import PinPlanError, PinUse, plan_pins
from hardware.presses import PressRouter

PINS = (17, 27, 22, 23)


@pytest.fixture
def presses() -> list[ButtonPress]:
    return []


@pytest.fixture
def panel(factory: ClockedMockFactory, clock: ScriptedClock, presses: list[ButtonPress]):
    with ButtonPanel(plan_pins(pins=PINS, undo_pin=24, close_pin=25), on_press=presses.append,
                     pin_factory=factory, clock=clock) as panel:
        yield panel


def tap(pin, t: float, hold: float = 0.2) -> None:
    """A clean press at t and its release `hold` seconds later (active low)."""
    pin.drive_low_at(t)
    pin.drive_high_at(t + hold)


# --- lockout and edge times ---


def test_chatter_of_20_edges_in_5_ms_counts_once_at_the_first_edge(panel, clock, presses):
    pin = panel.pin(0)
    t0 = clock.advance(1.0)
    for i in range(20):  # low, high, low, ... every 0.25 ms: contact bounce
        edge = t0 + i * 0.00025
        pin.drive_low_at(edge) if i % 2 == 0 else pin.drive_high_at(edge)
    assert [(p.use.seat, p.t) for p in presses] == [(0, t0)]
    assert panel.lockouts[0].swallowed == 9


def test_a_second_press_after_the_lockout_counts(panel, clock, presses):
    pin = panel.pin(1)
    t0 = clock.advance(1.0)
    tap(pin, t0, hold=0.03)
    pin.drive_low_at(t0 + 0.030 + 0.049)  # 49 ms after the release edge: still bounce
    pin.drive_high_at(t0 + 0.080)
    pin.drive_low_at(t0 + 0.080 + 0.051)  # 51 ms of quiet: a real second press
    assert [p.t for p in presses] == [t0, pytest.approx(t0 + 0.131)]


def test_the_release_chatter_of_a_long_press_is_not_a_new_press(panel, clock, presses):
    pin = panel.pin(2)
    t0 = clock.advance(1.0)
    pin.drive_low_at(t0)
    for i in range(6):  # released after 0.5 s, bouncing for 1.5 ms
        edge = t0 + 0.5 + i * 0.0003
        pin.drive_high_at(edge) if i % 2 == 0 else pin.drive_low_at(edge)
    assert len(presses) == 1


def test_lockout_is_per_pin(panel, clock, presses):
    t0 = clock.advance(1.0)
    panel.pin(0).drive_low_at(t0)
    panel.pin(1).drive_low_at(t0 + 0.001)
    assert [p.use.seat for p in presses] == [0, 1]


def test_lockout_zero_still_counts_only_presses():
    lockout = Lockout(0.0)
    assert [lockout.edge(t, p) for t, p in ((1.0, True), (1.0, False), (1.1, True))] == [
        True, False, True]
    with pytest.raises(ValueError, match="0 s or more"):
        Lockout(-1)


def test_unscripted_mock_edges_carry_their_own_monotonic_time():
    """gpiozero's plain MockPin stamps edges with time.monotonic(): used as they are."""
    import time
    presses: list[ButtonPress] = []
    with ButtonPanel(plan_pins(pins=[5]), on_press=presses.append,
                     pin_factory=MockFactory()) as panel:
        before = time.monotonic()
        panel.pin(0).drive_low()
        after = time.monotonic()
    assert before <= presses[0].t <= after


def test_the_edge_time_not_the_callback_time_is_used(panel, clock, presses):
    clock.now = 50.0  # the callback runs late, at 50.0 s
    panel.pin(3).drive_low_at(49.987)
    assert presses[0].t == pytest.approx(49.987)


@pytest.mark.parametrize(("ticks", "expected"), [
    (99.990, 99.990),  # the factory's own time base (mock, native, rpigpio)
    (1_700_000_000.0 - 0.004, 100.0 - 0.004),  # wall-clock ticks (lgpio on some kernels)
    (5.0, 100.0),  # fits no base: counted as now rather than trusted
    (100.5, 100.0),  # "in the future": not trusted either
    (None, 100.0),
])
def test_edge_clock_places_ticks_of_either_time_base(ticks, expected):
    factory = ClockedMockFactory(ScriptedClock(100.0))
    try:
        edge_clock = EdgeClock(factory, clock=lambda: 100.0, wall=lambda: 1_700_000_000.0)
        assert edge_clock.to_monotonic(ticks) == pytest.approx(expected)
    finally:
        factory.close()


# --- through the real session and engine ---


def route(panel: ButtonPanel, session: Session) -> list[str]:
    refusals: list[str] = []
    panel.on_press = PressRouter(session, on_refused=lambda r: refusals.append(str(r)))
    return refusals


def test_10000_shuffled_races_are_always_won_by_the_earliest_edge(panel, session, clock):
    """Edges delivered in random order: the block window's caller is the earliest edge."""
    route(panel, session)
    rng = random.Random(20240)
    for race in range(10_000):
        scorer = rng.randrange(4)
        session.new_game(Setup.create(list(PLAYERS), first=PLAYERS[scorer]))
        base = clock.advance(1.0)
        session.submit(Play(Card.parse("slide:21")))
        assert session.state.awaiting is Awaiting.STEAL and session.state.window.scorer == scorer
        callers = rng.sample([s for s in range(4) if s != scorer], rng.randint(1, 3))
        edges = {seat: base + rng.uniform(0, 0.02) for seat in callers}
        order = list(callers)
        rng.shuffle(order)
        clock.now = base + 0.05  # callbacks run after every edge happened
        for seat in order:
            panel.pin(seat).drive_low_at(edges[seat])
        for seat in callers:
            panel.pin(seat).drive_high_at(base + 0.2)
        window = session.state.window
        earliest = min(callers, key=edges.__getitem__)
        assert window.kind is Awaiting.BLOCK, race
        assert window.caller == earliest, (race, edges, order)
        assert window.caller_t == edges[earliest]


def test_a_replaced_caller_is_reported_with_the_margin(panel, session, clock):
    route(panel, session)
    heard: list[Update] = []
    session.subscribe(heard.append)
    session.submit(Play(Card.parse("slide:21")))  # Ana reached 21
    clock.now = 2000.0
    panel.pin(2).drive_low_at(1999.950)  # Cy's callback first...
    panel.pin(1).drive_low_at(1999.938)  # ...but Ben's edge was 12 ms earlier
    replaced = [o for o in heard[-1].result.outcomes if o.what is Happening.CALLER_REPLACED]
    assert replaced and replaced[0].seat == 1 and replaced[0].other == 2
    assert replaced[0].value == pytest.approx(0.012)


def test_a_press_with_no_window_open_changes_nothing(panel, session, clock):
    route(panel, session)
    session.submit(Play(Card.parse("7")))
    heard: list[Update] = []
    session.subscribe(heard.append)
    before = session.state
    tap(panel.pin(1), clock.advance(1.0))
    assert session.state is before
    assert [u.result.kind for u in heard] == [ResultKind.IGNORED]


def test_the_scorer_cannot_steal_their_own_21_but_can_block_the_steal(panel, session, clock):
    route(panel, session)
    session.submit(Play(Card.parse("slide:21")))  # Ana
    tap(panel.pin(0), clock.advance(1.0))
    assert session.state.awaiting is Awaiting.STEAL  # Ana's own press: ignored
    tap(panel.pin(3), clock.advance(1.0))  # Di calls SORRY!
    tap(panel.pin(0), clock.advance(1.0))  # Ana answers Don't Be SORRY!
    assert session.state.window is None and session.state.progress[0] == 1


def test_undo_and_close_buttons(panel, session, clock):
    route(panel, session)
    session.submit(Play(Card.parse("slide:21")))
    tap(panel.pin(1), clock.advance(1.0))
    assert session.state.awaiting is Awaiting.BLOCK
    tap(panel.pin(4), clock.advance(1.0))  # undo: the call is taken back
    assert session.state.awaiting is Awaiting.STEAL
    tap(panel.pin(5), clock.advance(1.0))  # close: nobody called, Ana keeps her 21
    assert session.state.window is None and session.state.progress == (1, 0, 0, 0)


def test_refusals_are_one_sentence_and_never_reach_the_gpio_thread(panel, clock):
    empty = Session(clock=clock)
    refusals = route(panel, empty)
    tap(panel.pin(0), clock.advance(1.0))
    tap(panel.pin(4), clock.advance(1.0))
    assert refusals == ["seat 1 button: no game is open; start a new game first",
                        "undo button: no game is open; start a new game first"]


def test_a_seat_without_a_player_is_refused(panel, clock):
    two = Session(clock=clock)
    two.new_game(Setup.create(["Ana", "Ben"]))
    refusals = route(panel, two)
    two.submit(Play(Card.parse("slide:21")))
    tap(panel.pin(3), clock.advance(1.0))
    assert refusals == ["seat 4 button: only 2 play, so this seat is empty"]
    assert two.state.awaiting is Awaiting.STEAL


def test_a_handler_that_raises_does_not_break_the_pin(panel, clock, presses):
    calls: list[ButtonPress] = []

    def flaky(press: ButtonPress) -> None:
        calls.append(press)
        raise RuntimeError("boom")

    panel.on_press = flaky
    tap(panel.pin(0), clock.advance(1.0))
    tap(panel.pin(0), clock.advance(1.0))
    assert len(calls) == 2


# --- setup problems: one sentence, naming the pin and the fix ---


def test_a_pin_used_twice_is_named_with_both_roles():
    with pytest.raises(PinPlanError) as err:
        plan_pins(pins=[17, 27], lamps=[5, 17])
    assert str(err.value) == ("GPIO17 is used twice, for the seat 1 button and the seat 2 "
                              "lamp; give each its own pin in [gpio]")


@pytest.mark.parametrize(("kwargs", "words"), [
    ({"pins": [17, 40]}, "pin 40 for the seat 2 button is not a GPIO pin"),
    ({"pins": []}, "lists no pins"),
    ({"pins": [1, 2, 3, 4, 5]}, "at most 4 seats"),
    ({"pins": [1, 2], "lamps": [3]}, "one lamp pin per seat"),
    ({"pins": [1], "undo_pin": True}, "undo button"),
])
def test_bad_pin_plans(kwargs, words):
    with pytest.raises(PinPlanError, match=words):
        plan_pins(**kwargs)


def test_a_pin_taken_by_another_device_is_named():
    factory = MockFactory()
    try:
        with (ButtonPanel(plan_pins(pins=[17]), on_press=print, pin_factory=factory),
              pytest.raises(GpioSetupError) as err):
            ButtonPanel(plan_pins(pins=[22, 17]), on_press=print, pin_factory=factory)
        assert str(err.value).startswith("GPIO17 (seat 2 button) is already in use")
        assert "choose another pin in [gpio]" in str(err.value)
    finally:
        factory.close()


def test_a_pin_the_board_does_not_have_is_named():
    factory = MockFactory()
    try:
        beyond = PinUse(28, "seat 1 button", "button", 0)  # plan_pins would refuse it first
        with pytest.raises(GpioSetupError, match=r"GPIO28 \(seat 1 button\) does not exist"):
            ButtonPanel([beyond], on_press=print, pin_factory=factory)
    finally:
        factory.close()


def test_an_i2c_pin_cannot_pull_down():
    factory = MockFactory()
    try:
        with pytest.raises(GpioSetupError, match=r"GPIO2 .* fixed pull-up"):
            ButtonPanel(plan_pins(pins=[2]), on_press=print, pull_up=False, pin_factory=factory)
    finally:
        factory.close()


def test_a_failed_panel_frees_the_pins_it_had_taken():
    factory = MockFactory()
    try:
        with pytest.raises(GpioSetupError):
            ButtonPanel(plan_pins(pins=[17, 2]), on_press=print, pull_up=False,
                        pin_factory=factory)
        with ButtonPanel(plan_pins(pins=[17]), on_press=print, pin_factory=factory) as panel:
            assert panel.describe() == "mock pins, buttons seat 1 GPIO17"
    finally:
        factory.close()
