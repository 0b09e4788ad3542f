"""The whole table, end to end: the real app in the real Kivy window, gpiozero Buttons on
mock pins, and the LED board simulator (the firmware's own LedBoard) on a real pty.

A game with a steal made by a GPIO button press: the simulator must end up showing, LED
by LED, the HOME pawns the session counts, the stealer's included. tests/hardware's
test_end_to_end.py plays the same parts without the screen.
"""

from __future__ import annotations

from ui_helpers import press_gpio, setup_by_touch

from companion.config import Config, LedBoardConfig
from hardware.firmware.ledboard import OFF, SEAT_RGB, TURN_LED0, scaled
from hardware.firmware.pawnled import PAWNS
from hardware.simulator import SimulatedLedBoard

BOARD_UID = "UIE2E"
BRIGHTNESS = 255  # the seats' colours at full strength: every pawn LED is plainly lit or off
LED_TIMEOUT = 10.0  # generous: the host sends on every change, the board answers in ms


def home_counts(d) -> tuple[int, ...]:
    state = d.app.session.state
    return tuple(state.home(seat) for seat in range(len(state.setup.players)))


def pawn_pixels(d, home: tuple[int, ...]) -> list[tuple[int, int, int]]:
    """The 16 pawn LEDs for these HOME counts: seat by seat, in the seat's colour."""
    colors = [c.value[0] for c in d.app.session.state.setup.colors]
    out = []
    for seat in range(TURN_LED0 // PAWNS):
        lit = home[seat] if seat < len(home) else 0
        rgb = scaled(SEAT_RGB[colors[seat]], BRIGHTNESS) if seat < len(colors) else OFF
        out += [rgb] * lit + [OFF] * (PAWNS - lit)
    return out


def test_a_steal_by_gpio_button_ends_with_the_right_home_leds_on_the_board(driver, monkeypatch):
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    from gpiozero import Device

    board = SimulatedLedBoard(uid=BOARD_UID)
    config = Config(ledboard=LedBoardConfig(port=board.path, brightness=BRIGHTNESS))
    d = None
    try:
        d = driver(config=config, start_hardware=True)
        d.wait_for(
            lambda: "LED board: connected" in d.label("table", "status_label"),
            "the connected board in the status line",
        )
        assert "Buttons: ready" in d.label("table", "status_label")
        # the board's uid is a detail: on the Hardware page, not on the status line
        assert BOARD_UID not in d.label("table", "status_label")
        assert any(BOARD_UID in c["detail"] for c in d.app.link.checks("en"))
        setup_by_touch(d, ["Ana", "Ben", "Cy"], pawns=4, variant="standard")

        # Round 1: Cy reaches 21; Ben's GPIO button steals it; nobody blocks.
        for card in ("10", "10", "1"):
            d.tap_code(card)
        assert "Cy reached 21" in d.label("table", "window_title")
        press_gpio(Device.pin_factory.pin(config.gpio.pins[1]))
        d.wait_for(
            lambda: d.label("table", "window_title") == "Ben called SORRY! on Cy",
            "Ben's GPIO call on screen",
        )
        assert d.app.session.state.window.caller == 1
        d.tap_id("table", "window_close")
        assert "Ben stole the round from Cy" in d.label("table", "message_label")
        assert d.app.session.state.progress == (0, 1, 0)  # the stealer's pawn, not Cy's

        # Round 2 (Ana starts, after Cy): Cy busts, Ana and Ben each turn a pawn HOME.
        for card in ("10", "10", "5"):
            d.tap_code(card)
        assert "Cy busts at 25" in d.label("table", "message_label")
        home = home_counts(d)
        assert home == (1, 2, 0)

        def shows_home(sim: SimulatedLedBoard) -> bool:
            s = sim.state
            return (
                s is not None
                and s.home == home
                and sim.pixels()[:TURN_LED0] == pawn_pixels(d, home)
            )

        shown = board.wait_for(shows_home, timeout=LED_TIMEOUT)
        sim_state = board.state
        assert shown, f"the board shows {sim_state} {board.pixels()[:TURN_LED0]}, not {home}"
        assert (sim_state.players, sim_state.home, sim_state.bri) == (3, home, BRIGHTNESS)
        pixels = board.pixels()
        lit = [sum(p != OFF for p in pixels[s * PAWNS : (s + 1) * PAWNS]) for s in range(4)]
        assert lit == [1, 2, 0, 0]  # Ben, the stealer, has 2 HOME LEDs; Cy, who made 21, none
        status = d.app.screen("table").ids.status_label
        assert d.screen == "table" and d.visible(status)
        assert "LED board: connected" in status.text
    finally:
        if d is not None:
            d.stop()  # closes the buttons and the board host before the board goes away
        board.close()
        if Device.pin_factory is not None:
            Device.pin_factory.reset()
        Device.pin_factory = None


def test_a_refused_gpio_press_is_said_on_the_screen_in_one_sentence(driver, mock_pins):
    """A seat button with nobody in that seat: the game refuses it, and the table's message
    line says why (before, the refusal was only logged), in the screen's language."""
    config = Config(ledboard=LedBoardConfig(enabled=False))
    d = driver(config=config, start_hardware=True)
    d.wait_for(lambda: "Buttons: ready" in d.label("table", "status_label"),
               "the buttons ready in the status line")
    setup_by_touch(d, ["Ana", "Ben"], pawns=4, variant="standard")
    steps = len(d.app.session.update.steps)
    press_gpio(mock_pins.pin_factory.pin(config.gpio.pins[3]))  # seat 4: nobody sits there
    d.wait_for(lambda: d.label("table", "message_label") != "", "the refusal on screen")
    assert d.label("table", "message_label") == "Only 2 play, so this seat is empty."
    assert len(d.app.session.update.steps) == steps  # refused: nothing happened
