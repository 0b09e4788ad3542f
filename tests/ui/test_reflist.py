"""A widget's `pos` and `size` are read without an exception raised and caught inside
Kivy (ui.reflist): the list's `__setslice__` that Kivy's ReferenceListProperty calls on
every read succeeds, and `pos`/`size` behave as Kivy's own."""

from __future__ import annotations

from kivy.uix.widget import Widget

import ui.kvload  # noqa: F401  (what the app imports before any screen)
from ui import reflist


def test_the_reference_list_slice_set_succeeds():
    w = Widget()
    # Kivy's own raised AttributeError here (Python 3 lists have no __setslice__), and
    # each read of w.pos or w.size took that path
    kept = w.pos
    kept.__setslice__(0, 2, [3, 4], update_properties=False)
    assert list(kept) == [3, 4]  # until the next read refreshes it from x and y
    assert (w.x, w.y) == (0, 0)  # the joined properties untouched, as asked
    kept.__setslice__(0, 2, [5, 6])
    assert (w.x, w.y) == (5, 6)
    assert type(w.pos).__setslice__ is reflist._setslice


def test_pos_and_size_follow_their_parts_and_dispatch_once():
    w = Widget(pos=(1, 2), size=(30, 40))
    seen: list[tuple[str, list[float]]] = []
    w.bind(pos=lambda _w, v: seen.append(("pos", list(v))),
           size=lambda _w, v: seen.append(("size", list(v))))
    w.x = 7
    assert list(w.pos) == [7, 2]
    w.pos = (8, 9)
    assert (w.x, w.y) == (8, 9)
    w.pos = (8, 9)  # the same: no dispatch
    w.size[1] = 50
    assert w.height == 50
    w.width = 30  # the same: no dispatch
    assert list(w.size) == [30, 50]
    assert seen == [("pos", [7, 2]), ("pos", [8, 9]), ("size", [30, 50])]
    assert w.center == [8 + 15, 9 + 25]
