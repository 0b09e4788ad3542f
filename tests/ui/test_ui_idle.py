"""Issue 18: the screen dims, then sleeps, after idle minutes; the touch, key or GPIO
button that wakes it does nothing else. The real app in the real offscreen window,
touched where a button is; gpiozero's mock pins for the button."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from kivy.core.image import Image as CoreImage
from ui_helpers import pixel_spread, press_gpio, setup_by_touch

from companion.config import Config, DisplayConfig, GpioConfig, LedBoardConfig
from games.revenge.rules import Press
from ui.backlight import Backlight, find_backlight
from ui.idle import ASLEEP, AWAKE, DIM, MIN_DIM_S, BacklightShade, OverlayShade, ScreenRest

MINUTE = 60.0
CONFIG = Config(display=DisplayConfig(dim_after=2, sleep_after=10),
                ledboard=LedBoardConfig(enabled=False))


def rest_on_manual_clock(d) -> ScreenRest:
    rest = d.app.rest
    assert rest is not None and rest.enabled
    rest.clock = d.clock  # the driver's manual clock: minutes pass when told
    rest.last_use = d.clock()
    return rest


def count_presses(d, monkeypatch) -> list[str]:
    """Every SORRY! press that reaches the session (keys and GPIO buttons both call it)."""
    pressed: list[str] = []
    real = d.app.session.submit

    def submit(event, by="touch"):
        if isinstance(event, Press):
            pressed.append(event.player)
        return real(event, by)

    monkeypatch.setattr(d.app.session, "submit", submit)
    return pressed


def idle(d, rest: ScreenRest, minutes: float) -> None:
    d.clock.advance(minutes * MINUTE)
    rest.tick()
    d.frames(2)


def test_the_waking_touch_does_not_log_a_card(driver):
    d = driver(config=CONFIG)
    setup_by_touch(d, ["Ana", "Ben"], pawns=4, variant="standard")
    rest = rest_on_manual_clock(d)
    idle(d, rest, 1.9)
    assert rest.state == AWAKE
    idle(d, rest, 0.2)
    assert rest.state == DIM
    assert isinstance(rest.shade, OverlayShade) and rest.shade.layer.parent is not None
    d.screenshot("idle-dim")
    seven = d.button(code="7")
    d.tap(seven)  # a finger on the dim screen, right on "7"
    assert rest.state == AWAKE and rest.shade.layer.parent is None
    assert d.app.session.state.total == 0, "the waking touch logged a card"
    d.tap(seven)  # the next touch acts
    assert d.app.session.state.total == 7

    idle(d, rest, 10)
    assert rest.state == DIM  # one look past both minutes: dim first (issue 35.9)
    idle(d, rest, MIN_DIM_S / MINUTE)
    assert rest.state == ASLEEP
    assert pixel_spread(d.screenshot("idle-asleep")) == 0  # all black
    d.tap(seven)
    assert rest.state == AWAKE and d.app.session.state.total == 7


def mean_grey(path: Path) -> float:
    import numpy as np  # the camera's extra, pinned in requirements.txt

    image = CoreImage.load(str(path), keep_data=True)
    data = np.frombuffer(image.image._data[0].data, dtype=np.uint8)
    step = 4 if image.image._data[0].fmt in ("rgba", "bgra") else 3
    pixels = data[: len(data) // step * step].reshape(-1, step)[:, :3]
    return float(pixels.mean())


def test_the_screen_stays_dim_a_while_and_readable_before_it_goes_dark(driver):
    """Issue 35.9: dimming went straight to black between two looks. A look at the idle
    time that comes past both minutes (a busy or suspended table) dims first; the screen
    stays dim MIN_DIM_S (2 min) at least, at half its brightness (it kept 35 %)."""
    d = driver(config=CONFIG)
    setup_by_touch(d, ["Ana", "Ben"], pawns=4, variant="standard")
    rest = rest_on_manual_clock(d)
    awake = mean_grey(d.screenshot("idle-awake"))
    idle(d, rest, 10.5)  # past the dim (2) and the dark (10) minutes in one look
    assert rest.state == DIM
    assert mean_grey(d.screenshot("idle-dim-late")) >= 0.45 * awake
    idle(d, rest, 1.9)
    assert rest.state == DIM
    idle(d, rest, 0.1)
    assert rest.state == ASLEEP
    d.tap(d.button(code="7"))  # the waking touch wakes only
    assert rest.state == AWAKE and d.app.session.state.total == 0


def test_a_key_wakes_without_acting_and_an_open_window_keeps_the_screen_on(driver,
                                                                           monkeypatch):
    d = driver(config=CONFIG)
    setup_by_touch(d, ["Ana", "Ben"], pawns=4, variant="standard")
    rest = rest_on_manual_clock(d)
    for card in ("10", "10", "1"):
        d.tap_code(card)
    assert d.app.session.state.window is not None  # Ben reached 21: a steal window
    idle(d, rest, 30)
    assert rest.state == AWAKE, "the screen rested while a SORRY! window was open"
    d.tap_id("table", "window_close")
    idle(d, rest, 3)
    assert rest.state == DIM
    from kivy.core.window import Window
    pressed = count_presses(d, monkeypatch)
    Window.dispatch("on_key_down", 0, 0, "1", [])  # Ana's SORRY! key on a laptop
    d.frames(2)
    assert rest.state == AWAKE and pressed == []
    Window.dispatch("on_key_down", 0, 0, "1", [])  # awake: the key is Ana's press again
    assert pressed == ["Ana"]


def test_a_gpio_button_wakes_without_calling(driver, mock_pins, monkeypatch):
    # no contact-bounce lockout: the two presses come a moment apart
    d = driver(config=replace(CONFIG, gpio=GpioConfig(lockout_ms=0)), start_hardware=True)
    setup_by_touch(d, ["Ana", "Ben", "Cy"], pawns=4, variant="standard")
    rest = rest_on_manual_clock(d)
    for card in ("10", "10", "1"):
        d.tap_code(card)
    d.tap_id("table", "window_close")  # no one called: the round is Cy's
    idle(d, rest, 3)
    assert rest.state == DIM
    pressed = count_presses(d, monkeypatch)
    pin = mock_pins.pin_factory.pin(CONFIG.gpio.pins[1])
    for _ in range(2):
        press_gpio(pin)
        if not pressed:  # the first press only woke the screen
            d.wait_for(lambda: rest.shade.layer.parent is None, "the screen to wake")
            assert rest.state == AWAKE
    assert pressed == ["Ben"]  # the second press, not the waking one


def test_a_backlight_is_dimmed_and_put_back(tmp_path: Path):
    folder = tmp_path / "backlight" / "10-0045"
    folder.mkdir(parents=True)
    (folder / "max_brightness").write_text("255\n")
    (folder / "brightness").write_text("200\n")
    backlight = find_backlight(tmp_path / "backlight")
    assert isinstance(backlight, Backlight)
    shown: list[str] = []

    class Layer:
        def show(self, state: str) -> None:
            shown.append(state)

    shade = BacklightShade(backlight, Layer())
    levels = []
    for state in (DIM, ASLEEP, AWAKE):
        shade.show(state)
        levels.append((folder / "brightness").read_text().strip())
    assert levels == ["100", "0", "200"] and shown == []  # dim: half (issue 35.9)
    (folder / "brightness").chmod(0o444)
    folder.chmod(0o555)
    try:
        shade.show(DIM)
        if shade.fallback is not None:  # the write was refused (not as root): the layer
            assert shown == [DIM]
    finally:
        folder.chmod(0o755)
        (folder / "brightness").chmod(0o644)
    assert find_backlight(tmp_path / "none") is None
