"""A whole game at a table: the real Session, mock GPIO buttons and the simulated board.

Everything is the product's own code on real parts: gpiozero Buttons on gpiozero's
MockFactory, the LED board host talking PAWNLED/1 over a real pseudo-terminal to the
firmware's LedBoard class. Only the screen is missing (the Kivy end-to-end test is the UI's).
"""

from __future__ import annotations

from hw_helpers import ClockedMockFactory, ScriptedClock

from companion.config import Config, GpioConfig, LedBoardConfig
from companion.session import Session
from games.revenge.rules import Card, Play, Setup
from hardware import StatusKind, start_table_hardware
from hardware.firmware.ledboard import OFF, SEAT_RGB, TURN_LED0, scaled
from hardware.simulator import SimulatedLedBoard

BRIGHTNESS = 255


def tap(factory: ClockedMockFactory, clock: ScriptedClock, pin: int, at: float) -> None:
    factory.pin(pin).drive_low_at(at)
    factory.pin(pin).drive_high_at(at + 0.15)
    clock.now = max(clock.now, at + 0.15)


def test_a_game_with_a_steal_a_bust_and_a_block_ends_with_the_right_home_leds(
        factory: ClockedMockFactory, clock: ScriptedClock):
    session = Session(clock=clock)
    session.new_game(Setup.create(["Ana", "Ben", "Cy", "Di"], pawns=3))
    ana, ben, cy, di, close = 17, 27, 22, 23, 25
    cfg = Config(gpio=GpioConfig(close_pin=close),
                 ledboard=LedBoardConfig(brightness=BRIGHTNESS))
    with SimulatedLedBoard(uid="E2E") as board, start_table_hardware(
            session, cfg, ledboard_port=board.path, pin_factory=factory) as hw:
        assert hw.statuses["buttons"].kind is StatusKind.READY

        # Round 1: Ana reaches 21, Ben steals it; the close button ends the window.
        session.submit(Play(Card.parse("slide:21")))
        tap(factory, clock, ben, clock.now + 1.0)
        tap(factory, clock, close, clock.now + 1.0)
        assert session.state.progress == (0, 1, 0, 0)

        # Round 2: Di busts: everyone else advances.
        for card in ("10", "10", "10"):
            session.submit(Play(Card.parse(card)))
        assert session.state.progress == (1, 2, 1, 0)

        # Round 3: Ana reaches 21; Di's callback runs first but Cy's edge was earlier;
        # Ana answers with Don't Be SORRY! on her own button and keeps the round.
        session.submit(Play(Card.parse("slide:21")))
        t = clock.now + 1.0
        clock.now = t + 0.1
        factory.pin(di).drive_low_at(t + 0.020)
        factory.pin(cy).drive_low_at(t + 0.008)
        assert session.state.window.caller == 2
        factory.pin(di).drive_high_at(t + 0.2)
        factory.pin(cy).drive_high_at(t + 0.2)
        tap(factory, clock, ana, t + 1.0)
        assert session.state.progress == (2, 2, 1, 0)

        # Round 4: Ben reaches 21, nobody calls: Ben has all 3 pawns HOME and wins.
        session.submit(Play(Card.parse("slide:21")))
        session.close_window()
        state = session.state
        assert state.winner == 1 and [state.home(s) for s in range(4)] == [2, 3, 1, 0]

        def shows_the_end(sim: SimulatedLedBoard) -> bool:
            s = sim.state
            return s is not None and (s.home, s.turn, s.alert) == ((2, 3, 1, 0), None, "win")

        assert board.wait_for(shows_the_end)
        assert board.wait_for(lambda sim: sim.pixels()[:TURN_LED0] == expected_pawns())


def expected_pawns() -> list[tuple[int, int, int]]:
    """Seat by seat: its HOME pawns in its colour, the rest off."""
    out = []
    for code, home in zip("rbyg", (2, 3, 1, 0), strict=True):
        rgb = scaled(SEAT_RGB[code], BRIGHTNESS)
        out += [rgb] * home + [OFF] * (4 - home)
    return out
