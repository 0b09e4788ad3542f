"""The touch guard's snapshot of what is tappable (ui.touchguard.window_targets) is each
target's rectangle in window coordinates, as Kivy's own to_window puts it, on the board
screen with a 7's options listed (its action area scrolls, its screen is a
RelativeLayout): the walk that carries each parent's shift down, and skips asking the
plain layouts, finds the same rectangles."""

from __future__ import annotations

from board_screen_helpers import board_shown, position
from kivy.core.window import Window
from kivy.metrics import dp
from kivy.uix.behaviors import ButtonBehavior

from games.board.screens.door import BoardSnapshot
from ui.touchguard import FINGER_REACH_DP, window_targets

SEVEN = [{"kind": "forward", "legs": [["T10", "T17"]], "bumped": []},
         {"kind": "split", "legs": [["T10", "T16"], ["S2", "S3"]], "bumped": []}]


def _asked_one_by_one() -> list[tuple[float, float, float, float]]:
    """The same targets, each placed by Kivy's to_window (a walk up all its parents)."""
    reach = dp(FINGER_REACH_DP)
    found = []
    stack = list(Window.children)
    while stack:
        w = stack.pop()
        if w.disabled or w.opacity <= 0:
            continue
        if isinstance(w, ButtonBehavior) or getattr(w, "guard_target", False):
            x, y = w.to_window(w.x, w.y)
            found.append((x - reach, y - reach, w.width + 2 * reach, w.height + 2 * reach))
        else:
            stack.extend(w.children)
    return found


def test_the_guard_finds_every_target_where_kivy_puts_it(driver):
    snap = BoardSnapshot(position({"red": ["T10", "S2", "START", "START"],
                                   "blue": ["START"] * 4}, card="7"), SEVEN)
    d, _door = board_shown(driver, snap, "en")
    d.frames(3)
    d.app.screen("board").pos = (13, -37)  # a screen's children are drawn shifted with it
    targets = window_targets()
    assert len(targets) == 9  # the board, 2 options and their whys, undo, redo, correct, menu
    assert (-10.0 + 13, -10.0 - 37, 460.0, 500.0) in targets  # the board, moved
    assert sorted(targets) == sorted(_asked_one_by_one())
