"""The menu: the pages away from the game (rules, history, settings, hardware), the
language, a new game and back to the game; a backup to a USB stick, turning the table off,
and which version runs (ui/menu_actions.py). Its layout is in ui/menu.kv; the board game's
menu (ui/board/board_menu.kv) is an ApplianceMenu too."""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.properties import StringProperty
from kivy.uix.screenmanager import Screen

from ui import menu_actions


class ApplianceMenu(Screen):
    """A menu with Back up and Turn off, and a line saying how they went (MenuNote)."""

    note = StringProperty("")  # one sentence: a backup's result, why it cannot turn off

    def on_pre_enter(self, *_: Any) -> None:
        self.note = ""

    def say(self, text: str) -> None:
        self.note = text

    def back_up(self) -> None:
        menu_actions.back_up_to_stick(App.get_running_app(), self.say)

    def turn_off(self) -> None:
        menu_actions.ask_turn_off(App.get_running_app(), self.say)

    @staticmethod
    def version(lang: str) -> str:
        return menu_actions.version_text(lang)


class MenuScreen(ApplianceMenu):
    pass
