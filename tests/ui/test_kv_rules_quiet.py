"""A kv rule run again (a property it reads changed) sets its widget's property as Kivy's
own does, and formats no trace line for Kivy's Logger (ui.kvload.quiet_call_fn): a board
tap ran 44 such rules, two Logger calls each."""

from __future__ import annotations

from kivy.lang import Builder
from kivy.lang import builder as kivy_builder

import ui.kvload

RULES = """
Widget:
    Widget:
        id: inner
        width: root.height * 2
    Widget:
        id: painted
        canvas:
            Color:
                rgba: 1, 1, 1, 1
            Rectangle:
                size: root.width, inner.width
"""


def test_a_rule_run_again_sets_its_value_and_logs_nothing(monkeypatch):
    traced: list[object] = []
    monkeypatch.setattr(kivy_builder, "trace", lambda *args: traced.append(args))
    root = Builder.load_string(RULES)
    traced.clear()  # applying the rules may say which it found: not a tap's work
    root.height = 21
    root.width = 5
    Builder.sync()  # the canvas rules run delayed
    assert kivy_builder.call_fn is ui.kvload.quiet_call_fn
    assert root.ids.inner.width == 42
    rectangle = root.ids.painted.canvas.children[-1]
    assert tuple(rectangle.size) == (5, 42)
    assert traced == []
