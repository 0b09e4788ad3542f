"""A board game at a table with its hardware: the real Session and board engine, seat
buttons on gpiozero's MockFactory serving as "Draw", the undo button, and the LED board
simulator on a real pseudo-terminal showing whose turn it is and the HOME pawns."""

from __future__ import annotations

from hw_helpers import ClockedMockFactory, ScriptedClock

from companion.config import Config, GpioConfig, LedBoardConfig
from companion.session import Session
from games.board.rules import RULES, Draw, options
from hardware import start_table_hardware
from hardware.simulator import SimulatedLedBoard

SETUP = {"type": "setup", "game": "board", "edition": "classic", "players": ["Ana", "Ben"],
         "colors": ["green", "red"], "first": "Ana"}


def tap(factory: ClockedMockFactory, clock: ScriptedClock, pin: int) -> None:
    at = clock.now + 1.0
    factory.pin(pin).drive_low_at(at)
    factory.pin(pin).drive_high_at(at + 0.15)
    clock.now = at + 0.15


def test_seat_buttons_draw_the_undo_button_undoes_and_the_board_shows_the_game(
        factory: ClockedMockFactory, clock: ScriptedClock):
    session = Session(clock=clock)
    session.new_game(session.setup({**SETUP, "draws": "companion"}))
    ben, ana, undo = 17, 27, 24  # seats clockwise from red: Ben (red), then Ana (green)
    cfg = Config(gpio=GpioConfig(undo_pin=undo), ledboard=LedBoardConfig(brightness=255))
    with SimulatedLedBoard(uid="BRD") as board, start_table_hardware(
            session, cfg, ledboard_port=board.path, pin_factory=factory) as hw:
        assert hw.buttons is not None
        assert board.wait_for(lambda sim: sim.state is not None
                              and (sim.state.turn, sim.state.home) == (1, (0, 0)))
        tap(factory, clock, ben)  # not Ben's turn: nothing drawn
        assert len(session.update.steps) == 0
        tap(factory, clock, ana)  # Ana's button: the companion draws her card
        drawn = RULES.state_json(session.state)
        assert len(session.update.steps) == 1
        assert session.update.steps[0].event.to_json()["type"] == "draw"
        tap(factory, clock, undo)
        assert len(session.update.steps) == 0
        assert RULES.state_json(session.state)["remaining"] != drawn["remaining"]
        # Ana plays on by the session (the screen's taps) until Ben's turn
        session.submit(Draw("1"))
        session.submit(RULES.parse_event(options(session.state)[0].event))
        assert RULES.state_json(session.state)["turn"] == "Ben"
        assert board.wait_for(lambda sim: sim.state is not None and sim.state.turn == 0)
        assert board.wait_for(lambda sim: sim.state.colors == "rg")


def test_with_real_cards_a_seat_button_is_refused_in_one_sentence(
        factory: ClockedMockFactory, clock: ScriptedClock):
    """The setup says the table draws from its real deck: the button cannot know the card."""
    session = Session(clock=clock)
    session.new_game(session.setup(SETUP))
    refused: list[str] = []
    cfg = Config(ledboard=LedBoardConfig(enabled=False))
    with start_table_hardware(session, cfg, pin_factory=factory,
                              on_refused=lambda r: refused.append(str(r))):
        tap(factory, clock, 27)  # Ana's seat, on Ana's turn
    assert len(session.update.steps) == 0
    assert refused == ["seat 2 button: seat buttons draw only when the companion draws the "
                       "cards; tap the card drawn on the screen"]
