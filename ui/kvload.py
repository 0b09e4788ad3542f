"""Loads .kv files when the screens that use them are first made, and registers the
fonts, once per process whatever number of apps is built (the tests build one per test;
Kivy's Builder keeps rules globally). Loading only what the first screen needs keeps
the cold start close to a bare Kivy app's."""

from __future__ import annotations

import os

from kivy import kivy_data_dir
from kivy.core.text import LabelBase
from kivy.lang import Builder

_HERE = os.path.dirname(os.path.abspath(__file__))


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
