"""Every layout pass the board screen skips (ui.stilllayout) would have changed nothing.

Through a whole board game to its end (test_ui_board_end's, on a seeded deck whose game
takes 75 steps) and a turn of the window to portrait and back, each pass a StillBox or
StillGrid skips is run here anyway with Kivy's own pass, and what Kivy's would set (each
child's place and size, the layout's minimum size) must already be there. Before the
minimum size was kept with the rest, a skip after a pass of another state left that
state's minimum (19 of this game's skips: the action area's 0 where Kivy's pass said 67,
the answer box's 52 for 74); the option rows' height follows theirs.
"""

from __future__ import annotations

from typing import Any

import pytest
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from layout_helpers import resize
from test_ui_board_end import play_to_anas_win, said, window_back  # noqa: F401  (a fixture)
from test_ui_board_whole_game import start_by_touch

from ui import stilllayout

LONG_GAME = 3  # a deck seed whose game Ana wins after 75 steps (seed 0: after 4)


def _placed(layout: Any) -> tuple[Any, ...]:
    return (tuple(layout.minimum_size),
            *((tuple(c.pos), tuple(c.size)) for c in layout.children))


def _check_skips(monkeypatch, skipped: list[str], wrong: list[Any]) -> None:
    still = stilllayout._Still.do_layout

    def do_layout(self, *largs, _still=still):
        runs = self.layout_passes
        _still(self, *largs)
        if self.layout_passes != runs:
            return  # it ran
        skipped.append(type(self).__name__)
        kivy = BoxLayout.do_layout if isinstance(self, BoxLayout) else GridLayout.do_layout
        before = _placed(self)
        kivy(self, *largs)
        if _placed(self) != before:
            wrong.append((type(self).__name__, before, _placed(self)))

    do_layout.__name__ = "do_layout"  # Kivy's triggers call it by name (WeakMethod)
    monkeypatch.setattr(stilllayout._Still, "do_layout", do_layout)


@pytest.mark.usefixtures("window_back")
def test_every_skipped_pass_of_a_whole_board_game_would_have_moved_nothing(driver, monkeypatch):
    skipped: list[str] = []
    wrong: list[Any] = []
    _check_skips(monkeypatch, skipped, wrong)
    d = driver()
    resize(d, (800, 480))
    start_by_touch(d, ["Ana", "Ben"], "classic", companion_draws=True)
    play_to_anas_win(d, LONG_GAME)
    d.wait_for(lambda: said(d, "Ana wins!"), "'Ana wins!' on the screen")
    resize(d, (480, 800))
    resize(d, (800, 480))
    assert said(d, "Ana wins!") == ["Ana wins!"]
    assert len(skipped) > 10, skipped  # the check saw the skips it is about
    assert wrong == [], wrong[:3]
