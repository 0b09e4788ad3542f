"""A board tap runs no layout pass that moves nothing, and logs nothing (issue 36: "draw
only what changed, no logging on the tap path").

The board screen's panel, card pad and move row are ui.stilllayout's: a pass that would
set every child where it already is (the panel's second pass after it resized a child, the
pad or the move row put back at the size it had) is skipped. Here every BoxLayout and
GridLayout pass of the board screen that does run during a card tap and a pawn tap is
watched: each must move or resize a child or change the layout's minimum size (a pass
that changes only that is needed too: the action area's, when its panel is swapped), 5
a tap where Kivy's own boxes ran 7-8. Kivy's and the app's loggers are not called either.
"""

from __future__ import annotations

import logging

from board_play import tap_key
from kivy.logger import Logger
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.widget import Widget
from test_ui_board_whole_game import start_by_touch

from games.board.screens.layout import key


def _placed(layout: Widget) -> list[tuple[float, ...]]:
    """What a pass sets: each child's place and size, and its own minimum size."""
    return [tuple(layout.minimum_size),
            *((*c.pos, *c.size) for c in layout.children)]


def _on(screen: Widget, layout: Widget) -> bool:
    node = layout.parent
    while node is not None and node is not screen:
        node = node.parent
    return node is screen


def _watch(monkeypatch, screen: Widget, passes: list[tuple[str, bool]]) -> None:
    """Every pass of the board screen's own layouts (another screen's, or a notice over
    the window, laid out at its own time, is not the tap's: the whole suite once counted
    one of those)."""
    for cls in (BoxLayout, GridLayout):
        kivy_pass = cls.do_layout

        def do_layout(self, *largs, _kivy=kivy_pass):
            before = _placed(self)
            _kivy(self, *largs)
            after = _placed(self)
            if _on(screen, self):
                passes.append((type(self).__name__, before != after))

        do_layout.__name__ = "do_layout"  # Kivy's triggers call it by name (WeakMethod)
        monkeypatch.setattr(cls, "do_layout", do_layout)


def _count_logs(monkeypatch, logged: list[str]) -> None:
    for name in ("trace", "debug", "info", "warning", "error", "exception", "critical"):
        if hasattr(Logger, name):
            monkeypatch.setattr(Logger, name, lambda *a, _n=name, **k: logged.append(_n))
        monkeypatch.setattr(logging.Logger, name,
                            lambda self, *a, _n=name, **k: logged.append(f"{self.name}.{_n}"),
                            raising=False)


def test_a_card_tap_and_a_pawn_tap_run_no_still_layout_pass_and_log_nothing(driver,
                                                                           monkeypatch):
    d = driver()
    start_by_touch(d, ["Ana", "Ben"], "classic")
    board = d.app.screen("board")
    # one turn first: each panel of the action area made and laid out once
    d.tap_code("card:1")
    tap_key(d, key("START", "red"))
    d.tap(board.ids.board_undo)
    d.frames(3)
    assert d.app.models["board"].phase == "move"
    d.tap(board.ids.board_undo)
    d.frames(3)
    assert d.app.models["board"].phase == "card"

    passes: list[tuple[str, bool]] = []
    logged: list[str] = []
    _watch(monkeypatch, board, passes)
    _count_logs(monkeypatch, logged)
    d.tap_code("card:1")  # the pad gives way to the move row and the option
    d.frames(3)
    assert d.app.models["board"].phase == "move"
    card_passes = list(passes)
    tap_key(d, key("START", "red"))  # the pawn moves; the pad comes back
    d.frames(3)
    assert d.app.models["board"].phase == "card"
    monkeypatch.undo()

    still = [name for name, moved in passes if not moved]
    assert still == [], passes
    assert 0 < len(card_passes) <= 5 and len(passes) - len(card_passes) <= 5, passes
    assert logged == []
