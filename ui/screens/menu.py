"""The menu: the pages away from the game (rules, history, settings, hardware), the
language, a new game and back to the game. Its layout is in ui/menu.kv."""

from __future__ import annotations

from kivy.uix.screenmanager import Screen


class MenuScreen(Screen):
    pass
