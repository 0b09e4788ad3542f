"""Issue 18: `[display] rotation` turns the picture with Kivy's window rotation, and a
finger on the panel still lands on what the turned picture shows there. The touch is
made as a touchscreen reports it: in the panel's own unturned coordinates (0-1), and
Kivy turns it with the window."""

from __future__ import annotations

import pytest
from kivy.base import EventLoop
from kivy.core.window import Window
from kivy.input.motionevent import MotionEvent
from kivy.tests.common import UnitTestTouch
from ui_helpers import setup_by_touch


class PanelTouch(UnitTestTouch):
    """A touch at (sx, sy) of the panel, 0-1 from its unturned bottom-left corner."""

    def __init__(self, sx: float, sy: float) -> None:
        self.eventloop = EventLoop
        MotionEvent.__init__(self, "PanelTouch", 98, {"x": sx, "y": sy},
                             is_touch=True, type_id="touch")
        self.profile = ["pos"]


def panel_point(x: float, y: float, rotation: int) -> tuple[float, float]:
    """Where on the panel (0-1) a point of the turned window is: the inverse of Kivy's
    MotionEvent.to_absolute_pos for the window's system size."""
    w, h = (v - 1 for v in Window.system_size)
    return {0: (x / w, y / h), 90: (1 - y / w, x / h), 180: (1 - x / w, 1 - y / h),
            270: (y / w, 1 - x / h)}[rotation]


@pytest.fixture
def unturned():
    yield
    Window.rotation = 0


@pytest.mark.parametrize("rotation", [90, 180, 270])
def test_a_finger_lands_on_what_the_turned_screen_shows(driver, unturned, rotation):
    d = driver()
    setup_by_touch(d, ["Ana", "Ben"], pawns=4, variant="standard")
    Window.rotation = rotation
    d.frames(3)
    turned = rotation in (90, 270)
    assert tuple(Window.size) == ((480, 800) if turned else (800, 480))
    assert d.app.portrait is turned  # the screens lay out for the turned shape
    seven = d.button(code="7")
    x, y = seven.to_window(*seven.center)
    d.clock.advance(1)  # a scorekeeper's pace (the touch guard)
    touch = PanelTouch(*panel_point(x, y, rotation))
    touch.touch_down()
    touch.touch_up()
    d.frames(2)
    assert d.app.session.state.total == 7
