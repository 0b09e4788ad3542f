"""The buttons, lamps and LED board serve the card game and never trip over another game:
a press is refused in one sentence (the other game has no face: hardware.faces), the lamps stay
dark and the LED board is left alone (tests/conftest.py's `count_game`)."""

from __future__ import annotations

from gpiozero.pins.mock import MockFactory

from companion.session import Session
from hardware.buttons import ButtonPress
from hardware.lamps import LampState, SeatLamps
from hardware.ledboardhost import LedBoardHost
from hardware.pinplan import plan_pins
from hardware.presses import PressRouter


def started(count_game) -> Session:
    session = Session()
    session.new_game(Session.setup(count_game.SETUP))
    return session


def test_a_seat_button_in_another_game_is_refused_in_one_sentence(count_game):
    session = started(count_game)
    refused: list[str] = []
    router = PressRouter(session, on_refused=lambda r: refused.append(str(r)))
    uses = plan_pins(pins=[17, 27])
    assert router(ButtonPress(uses[1], 1.0)) is None
    assert refused == ["seat 2 button: the seat buttons have no use in the count game"]
    assert session.update is not None and session.update.steps == ()


def test_the_lamps_stay_dark_and_the_led_board_shows_nothing_for_another_game(count_game):
    session = started(count_game)
    lamps = SeatLamps(plan_pins(pins=[17, 27], lamps=[5, 6]), pin_factory=MockFactory())
    host = LedBoardHost(ports=list)  # never started: only what it is asked to show
    try:
        stop_lamps, stop_board = lamps.follow(session), host.follow(session)
        session.submit(count_game.parse_event({"type": "add", "n": 2}))
        assert lamps._latest.peek() == LampState(frozenset())
        assert host._latest.peek() is None
        stop_lamps()
        stop_board()
    finally:
        lamps.close()
        host.close()


def test_a_game_with_a_face_is_served_by_the_same_buttons_lamps_and_led_board(count_face):
    """Adding a game to the hardware is its face and one registry entry (hardware.faces)."""
    session = Session()
    session.new_game(Session.setup({"type": "setup", "game": "count", "players": ["Ana", "Ben"]}))
    refused: list[str] = []
    router = PressRouter(session, on_refused=lambda r: refused.append(str(r)))
    uses = plan_pins(pins=[17, 27], lamps=[5, 6])
    lamps = SeatLamps(uses, pin_factory=MockFactory())
    host = LedBoardHost(ports=list)  # never started: only what it is asked to show
    try:
        stop_lamps, stop_board = lamps.follow(session), host.follow(session)
        assert lamps._latest.peek() == LampState(frozenset({0}))
        assert router(ButtonPress(uses[1], 1.0)) is None  # Ben's button on Ana's turn
        assert refused == ["seat 2 button: it is Ana's turn"]
        assert router(ButtonPress(uses[0], 2.0)) is not None  # Ana adds 1
        assert session.state.count == 1
        assert lamps._latest.peek() == LampState(frozenset({1}))
        frame = host._latest.peek()
        assert frame is not None and frame.players == 2 and frame.turn == 1
        stop_lamps()
        stop_board()
    finally:
        lamps.close()
        host.close()
