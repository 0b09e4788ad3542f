"""Driving the real app by touch: find a widget on screen, touch its centre, let frames
render, wait for conditions (never for time). Also the screen checks: no blank frame,
no text larger than its box.

Pacing: the touch guard (ui.touchguard) ignores a touch within 350 ms of a layer change,
so the Driver gives it a manual clock and every `tap` first moves it on by a human pace
(1 s): ordinary tests never meet the guard; `tap(w, after=0.15)` is a fast second tap.
"""

from __future__ import annotations

import os
import struct
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from ui.launch import prepare_kivy

prepare_kivy(fullscreen=False)

from kivy.app import App  # noqa: E402
from kivy.base import EventLoop  # noqa: E402
from kivy.clock import Clock  # noqa: E402
from kivy.config import Config  # noqa: E402
from kivy.core.image import Image as CoreImage  # noqa: E402
from kivy.core.window import Window  # noqa: E402
from kivy.tests.common import UnitTestTouch  # noqa: E402
from kivy.uix.label import Label  # noqa: E402
from kivy.uix.widget import Widget  # noqa: E402

from companion.journal import Journal  # noqa: E402
from ui.app import CompanionApp  # noqa: E402
from ui.prefs import UiSettings  # noqa: E402
from ui.voice import Voice  # noqa: E402
from ui.widgets import TapButton  # noqa: E402

LONG_WINDOW = 3600.0  # windows never expire on their own during a test
HUMAN_PACE = 1.0  # seconds between two taps of a scorekeeper in no hurry
WAIT_SECONDS = 20.0
TABLE_FPS = Config.getint("graphics", "maxfps")  # the app's frame rate (Kivy's setting)
REPO = Path(__file__).resolve().parents[2]
SCREENSHOTS = REPO / "screenshots"


def make_app(
    data_dir: Path,
    *,
    language: str = "en",
    voice: Voice | None = None,
    steal_seconds: float = LONG_WINDOW,
    block_seconds: float = LONG_WINDOW,
    config: Any = None,
    start_hardware: bool = False,
    board_door: Any = None,
) -> CompanionApp:
    """The app as `sorry-companion run` makes it, with long windows; voice off unless a
    Voice is given; hardware only when asked (with a gpiozero mock pin factory)."""
    data_dir = Path(data_dir)
    data_dir.mkdir(parents=True, exist_ok=True)
    settings = UiSettings(
        language=language,
        steal_seconds=steal_seconds,
        block_seconds=block_seconds,
        voice=voice is not None,
    )
    settings = settings.overlaid(data_dir)
    return CompanionApp(
        settings=settings,
        data_dir=data_dir,
        journal=Journal.open(data_dir),
        config=config,
        start_hardware=start_hardware,
        voice=voice or Voice("no-such-speech-command", enabled=False),
        scripts={"board": board_door} if board_door is not None else None,
    )


class ManualClock:
    """The touch guard's clock in tests: it moves only when told (`advance`)."""

    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        assert seconds >= 0, seconds
        self.now += seconds


_RUNNING: list[Driver] = []  # started and not stopped, oldest first


class Driver:
    """One running app in the test's window."""

    def __init__(self, app: CompanionApp) -> None:
        self.app = app
        self.stopped = False
        self.clock = ManualClock()

    # --- life ---

    def start(self) -> None:
        _RUNNING.append(self)
        self.app.guard.clock = self.clock  # the app's own touch guard, on the test's clock
        if Window not in EventLoop.event_listeners:
            Window.register()
        Window.initialized = True
        Clock._max_fps = 0  # frames as fast as they render: no sleeping in tests
        EventLoop.touches.clear()
        self.app._run_prepare()
        self.frames(3)

    def stop(self) -> None:
        if self.stopped:
            return
        self.stopped = True
        app = self.app
        app.dispatch("on_stop")
        if app.root is not None and app.root.parent is not None:
            Window.remove_widget(app.root)
        if app.journal is not None:
            app.journal.close()
        EventLoop.touches.clear()
        if self in _RUNNING:  # the newest app still running is the running app again
            _RUNNING.remove(self)
        App._running_app = _RUNNING[-1].app if _RUNNING else None

    # --- frames and waiting ---

    def frames(self, n: int = 2) -> None:
        for _ in range(n):
            Window.canvas.ask_update()
            EventLoop.idle()

    def wait_for(
        self, condition: Callable[[], Any], what: str, timeout: float = WAIT_SECONDS
    ) -> Any:
        """Run the app's frames until `condition()` is true; fail naming `what` after
        `timeout`. They run as on the table (`table_frame`): a wait for a thread, a timer
        or another process costs next to no CPU, where frames drawn flat out kept a core
        busy for as long as it lasted."""
        deadline = time.monotonic() + timeout
        while True:
            value = condition()
            if value:
                return value
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out waiting for {what}")
            self.table_frame()

    def table_frame(self) -> None:
        """One frame as the app's main loop runs it on the table: Kivy's clock waits for
        the frame's turn at the table's frame rate, and the window is drawn only when
        something on it changed."""
        Clock._max_fps = TABLE_FPS
        try:
            EventLoop.idle()
        finally:
            Clock._max_fps = 0

    # --- finding and touching ---

    @property
    def screen(self) -> str:
        return self.app.root.current

    def widgets(self) -> Iterator[Widget]:
        """Every widget in the window now, with its visibility (opacity all the way up)."""
        stack: list[Widget] = list(Window.children)
        while stack:
            w = stack.pop()
            yield w
            stack.extend(w.children)

    @staticmethod
    def visible(w: Widget) -> bool:
        node: Any = w
        while node is not None and node is not Window:
            if getattr(node, "opacity", 1) == 0 or getattr(node, "disabled", False):
                return False
            node = node.parent
        return w.width > 0 and w.height > 0

    def buttons(self, *, code: str | None = None, text: str | None = None) -> list[TapButton]:
        found = []
        for w in self.widgets():
            if not isinstance(w, TapButton) or not self.visible(w):
                continue
            if code is not None and w.code != code:
                continue
            if text is not None and w.text != text:
                continue
            found.append(w)
        return found

    def button(self, *, code: str | None = None, text: str | None = None) -> TapButton:
        found = self.buttons(code=code, text=text)
        assert len(found) == 1, f"expected one visible button {code or text!r}, found {found}"
        return found[0]

    def tap(self, widget: Widget, after: float = HUMAN_PACE, frames: int = 2) -> None:
        """A finger down and up on the widget's centre, in window coordinates, `after`
        seconds (on the guard's clock) after whatever happened last."""
        assert widget.get_root_window() is not None, f"{widget} is not on screen"
        self.tap_at(*widget.to_window(*widget.center), after=after, frames=frames)

    def tap_at(self, x: float, y: float, after: float = HUMAN_PACE, frames: int = 2) -> None:
        """A finger down and up at a window position, whatever is there now; then
        `frames` frames drawn (0: the next tap lands before the screen is drawn again)."""
        self.clock.advance(after)
        touch = UnitTestTouch(x, y)
        touch.touch_down()
        touch.touch_up()
        self.frames(frames)

    def double_tap(self, widget: Widget, gap: float = 0.15) -> tuple[float, float]:
        """Tap the widget, then tap the same screen position again `gap` seconds later
        (on whatever replaced it); returns the position."""
        assert widget.get_root_window() is not None, f"{widget} is not on screen"
        x, y = widget.to_window(*widget.center)
        self.tap_at(x, y)
        self.tap_at(x, y, after=gap)
        return x, y

    def tap_code(self, code: str) -> None:
        self.tap(self.button(code=code))

    def tap_text(self, text: str) -> None:
        self.tap(self.button(text=text))

    def tap_id(self, screen: str, wid: str) -> None:
        self.tap(self.app.screen(screen).ids[wid])

    def label(self, screen: str, wid: str) -> str:
        return self.app.screen(screen).ids[wid].text

    # --- checks on what is drawn ---

    def overflowing_labels(self) -> list[str]:
        """Visible labels whose rendered text is larger than the label."""
        bad = []
        for w in self.widgets():
            if not isinstance(w, Label) or not w.text.strip() or not self.visible(w):
                continue
            w.texture_update()
            tw, th = w.texture_size
            limit_w, limit_h = w.width, w.height
            if w.text_size[0] is not None:
                limit_w = min(limit_w, w.text_size[0] + 1)
            if tw > limit_w + 1 or th > limit_h + 1:
                bad.append(f"{type(w).__name__} {w.text!r}: text {tw}x{th} in {w.size}")
        return bad

    def screenshot(self, name: str) -> Path:
        """Draw a frame and save it as screenshots/<name>.png (800x480)."""
        SCREENSHOTS.mkdir(exist_ok=True)
        # a tapped button stays lit for Kivy's min_state_time: let it go out first
        self.wait_for(
            lambda: not any(b.state == "down" for b in self.buttons()),
            "tapped buttons to be released",
        )
        self.frames(2)
        target = SCREENSHOTS / f"{name}.png"
        written = Window.screenshot(str(SCREENSHOTS / f"{name}_.png"))
        os.replace(written, target)
        return target


def type_name(d: Driver, slot: str, name: str) -> None:
    """Name a seat of the start screen with the on-screen keyboard."""
    start = d.app.screen("start")
    d.tap(start.ids[slot].ids.name_button)
    assert d.screen == "name"
    for letter in name.upper():
        # a key acts at once and the keys stay put: the keyboard is drawn once the name
        # is typed, not after every letter (the name keyboard's own tests type with
        # frames between the letters, type_exact)
        d.tap(d.button(code=letter), frames=0)
    d.frames(2)
    assert d.app.screen("name").text.casefold() == name.casefold(), "a key was missed"
    d.tap_id("name", "name_ok")
    assert d.screen == "start"


def to_board_setup(d: Driver) -> None:
    """The first screen's board game, then its other choices ("More choices"), by touch."""
    d.tap(d.button(code="game:board"))
    d.tap(d.app.screen("start").form("board").ids.board_more)
    assert d.screen == "board_setup", d.app.screen("start").message


def name_seats(d: Driver, names: list[str]) -> None:
    """Name the start screen's seats as the name screen's OK does, without its keyboard:
    for the tests whose subject comes after the names (typing three names by touch cost
    about 0.5 s of CPU a test, in some hundred tests). The keyboard's own tests, the first
    screen's, the board setup's and the whole card game type them (type_name)."""
    start = d.app.screen("start")
    for i, name in enumerate(names):
        start.set_name(i, name)
    d.frames(2)
    assert start.names[: len(names)] == names


def setup_by_touch(d: Driver, names: list[str], *, pawns: int, variant: str,
                   typed: bool = False) -> None:
    """Fill in the start screen and start the game by touch; the names typed on the name
    screen's keyboard when `typed`, else set as its OK sets them (name_seats)."""
    d.tap_id("start", f"count_{len(names)}")
    if typed:
        for i, name in enumerate(names):
            type_name(d, f"slot{i}", name)
    else:
        name_seats(d, names)
    d.tap(d.button(code="game:revenge"))
    form = d.app.screen("start").form("revenge")
    d.tap(form.ids[f"pawns_{pawns}"])
    d.tap(form.ids[f"variant_{variant}"])
    d.tap_id("start", "start_button")
    assert d.screen == "table", d.app.screen("start").message


def pixel_spread(path: Path) -> float:
    """Standard deviation of the grey levels of a PNG: near 0 for a blank image."""
    import numpy as np  # the camera's extra, pinned in requirements.txt: a pixel loop in
    # Python took a quarter of the screen test's time

    image = CoreImage.load(str(path), keep_data=True)
    data = np.frombuffer(image.image._data[0].data, dtype=np.uint8)
    step = 4 if image.image._data[0].fmt in ("rgba", "bgra") else 3
    starts = np.arange(0, len(data) - step, step * 7)  # every 7th pixel
    greys = (data[starts].astype(np.float64) + data[starts + 1] + data[starts + 2]) / 3
    return float(greys.std())


def holds_colour(path: Path, rgba: tuple[float, ...], least: int = 20) -> bool:
    """Whether at least `least` pixels of a PNG are `rgba` (each channel within one
    level of 255): a colour the tests reason about is the one drawn."""
    image = CoreImage.load(str(path), keep_data=True)
    data = image.image._data[0].data
    step = 4 if image.image._data[0].fmt in ("rgba", "bgra") else 3
    order = (2, 1, 0) if image.image._data[0].fmt.startswith("bgr") else (0, 1, 2)
    want = [round(v * 255) for v in rgba[:3]]
    found = 0
    for i in range(0, len(data) - step, step):
        if all(abs(data[i + o] - w) <= 1 for o, w in zip(order, want, strict=True)):
            found += 1
            if found >= least:
                return True
    return False


def image_size(path: Path) -> tuple[int, int]:
    """The width and height a PNG's header gives. Its pixels are not decoded: each caller
    decodes them next (pixel_spread), and 534 pictures a run decoded twice (issue 36)."""
    with open(path, "rb") as file:
        head = file.read(24)
    assert head[:8] == b"\x89PNG\r\n\x1a\n" and head[12:16] == b"IHDR", f"{path} is no PNG"
    width, height = struct.unpack(">II", head[16:24])
    return width, height


# --- issue 13: the name keyboard (helper C) ---


def type_exact(d: Driver, text: str) -> None:
    """On the name screen, type `text` letter for letter as a person would: shift for a
    capital the keyboard would not give by itself, shift again for a small letter where it
    would, the accents' page for an accented letter it does not show."""
    screen = d.app.screen("name")
    keyboard = screen.ids.keyboard
    for ch in text:
        if ch == " ":
            d.tap_code("SPACE")
            continue
        code = ch.upper()
        if ch.isalpha() and ch.isupper() != (screen.shift or screen.caps):
            d.tap_code("SHIFT")
        if not d.buttons(code=code):
            d.tap_code("LETTERS" if keyboard.accents else "ACCENTS")
        d.tap_code(code)


def press_gpio(pin: Any) -> None:
    """A press and release of an active-low button (a gpiozero mock pin), on a thread of
    its own as on a Pi."""

    def press() -> None:
        pin.drive_low()
        pin.drive_high()

    thread = threading.Thread(target=press, name="gpio-edge")
    thread.start()
    thread.join()
