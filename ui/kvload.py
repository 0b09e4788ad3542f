"""Loads .kv files when the screens that use them are first made, and registers the
fonts, once per process whatever number of apps is built (the tests build one per test;
Kivy's Builder keeps rules globally). Loading only what the first screen needs keeps
the cold start close to a bare Kivy app's.

Kivy's Builder calls `kivy.lang.builder.call_fn` for every kv rule that runs again (a
bound property changed): it formats two trace lines for Kivy's Logger each time, with the
reprs of the rule's expression and of its value, though trace is below any level the app
logs (the lines vanish only under `python -O`, which would take the asserts too). A board
tap ran 44 rules: 88 Logger calls. `quiet_call_fn` does what Kivy's does without them, and
stands in for it from this module's import, before any screen is built."""

from __future__ import annotations

import os
from typing import Any

from kivy import kivy_data_dir
from kivy.core.text import LabelBase
from kivy.lang import Builder
from kivy.lang import builder as kivy_builder

import ui.reflist  # noqa: F401  (pos and size read without an exception: see its docstring)

_HERE = os.path.dirname(os.path.abspath(__file__))


def quiet_call_fn(args: tuple[Any, ...], _instance: Any, _value: Any) -> None:
    """A kv rule run again (Kivy 2.3.1's `call_fn`, without its trace lines): the
    rule's compiled expression evaluated in its ids, and set on its widget."""
    element, key, expression, rule, idmap = args
    rule.count += 1
    setattr(element, key, eval(expression, idmap))


# The Builder looks call_fn up in its module each time it binds a rule (create_handler)
# and when it runs the delayed canvas rules (sync): both now take the quiet one.
kivy_builder.call_fn = quiet_call_fn


def register_fonts() -> None:
    """The symbol font (arrows, ▶, ⌫, ★): Kivy's own DejaVu Sans."""
    LabelBase.register("Symbols", os.path.join(kivy_data_dir, "fonts", "DejaVuSans.ttf"))


def load_kv(name: str) -> None:
    """Load ui/<name> (or the file at `name`, when it is a whole path: a game's screens keep
    their .kv files beside them, in the game's folder) unless it
    is loaded already."""
    path = os.path.join(_HERE, name)
    if path not in Builder.files:
        Builder.load_file(path)
