"""The window clips nothing but what scrolls (issue 36: "draw only what changed").

Kivy's ScreenManager rule drew two window-sized rectangles into the stencil buffer at
every frame, to clip screens that fill the window anyway (ui/widgets.kv takes that rule
away). On the board screen during a turn the only clips left are its two ScrollViews'
(the answer and the options), each inside nothing else that clips.
"""

from __future__ import annotations

from typing import Any

from kivy.core.window import Window
from kivy.graphics import InstructionGroup
from kivy.uix.scrollview import ScrollView
from test_ui_board_whole_game import start_by_touch


def _stencil_pushes(group: Any) -> int:
    found = 0
    for ins in group.children:
        if type(ins).__name__ == "StencilPush":
            found += 1
        if isinstance(ins, InstructionGroup):
            found += _stencil_pushes(ins)
    return found


def test_only_the_scrolling_views_clip_the_board_screen(driver):
    d = driver()
    start_by_touch(d, ["Ana", "Ben"], "classic")
    d.tap_code("card:1")  # the options' list is shown beside the answer
    d.frames(3)
    assert d.app.root.canvas.before.children == []
    assert d.app.root.canvas.after.children == []
    scrolls = [w for w in d.widgets() if isinstance(w, ScrollView)]
    assert len(scrolls) == 2, scrolls
    assert _stencil_pushes(Window.canvas) == len(scrolls)
    assert d.app.root.current == "board" and tuple(d.app.root.size) == tuple(Window.size)
