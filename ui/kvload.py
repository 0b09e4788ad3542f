"""Loads the .kv files and registers the fonts once per process, whatever number of
apps is built (the tests build one per test; Kivy's Builder keeps rules globally)."""

from __future__ import annotations

import os

from kivy import kivy_data_dir
from kivy.core.text import LabelBase
from kivy.lang import Builder

KV_FILES = ("widgets.kv", "table.kv", "start.kv", "endgame.kv", "pages.kv")
_HERE = os.path.dirname(os.path.abspath(__file__))


def load_kv() -> None:
    """Register the symbol font (arrows, ▶, ⌫) and load every .kv file not yet loaded."""
    LabelBase.register("Symbols", os.path.join(kivy_data_dir, "fonts", "DejaVuSans.ttf"))
    for name in KV_FILES:
        path = os.path.join(_HERE, name)
        if path not in Builder.files:
            Builder.load_file(path)
