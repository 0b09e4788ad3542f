"""Pages away from the table: history and leaderboard, the rules reference, settings.

Each remembers which screen opened it, so Back returns to the table, the start screen
or the game-over screen, wherever the scorekeeper came from.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from kivy.app import App
from kivy.factory import Factory
from kivy.properties import BooleanProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen

from companion.config import BRIGHTNESS, VOLUME, WINDOW_SECONDS
from ui import games
from ui.dates import short_date
from ui.i18n import has, tr

LEADERS_SHOWN = 6
RECENT_SHOWN = 4
BRIGHTNESS_STEP = 32
VOLUME_STEP = 10


class PageScreen(Screen):
    """A page reached from the menu: Back goes where the scorekeeper came from."""

    back_to = StringProperty("start")  # set by CompanionApp.show


class RuleRow(BoxLayout):
    title = StringProperty("")
    body = StringProperty("")


class RulesScreen(PageScreen):
    pass


class HistoryScreen(PageScreen):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        # A finished game never changes: its figures are computed once per run of the app,
        # so opening the history replays only games finished since (and unfinished ones).
        self._finished: dict[int, Any] = {}

    def on_pre_enter(self, *_: Any) -> None:
        self.fill()

    def fill(self) -> None:
        """Leaderboard over every stored game, and the most recent games."""
        app = App.get_running_app()
        lang = app.lang
        grid, recent = self.ids.leaders_grid, self.ids.recent_list
        grid.clear_widgets()
        recent.clear_widgets()
        listing = app.session.stored_stats(self._finished)
        app.show_new_notices()  # damage reading the games found is said here, not later
        records = [record for record, _figures in listing]
        by_game: dict[str, list[Any]] = {}
        for record, figures in listing:
            if figures is not None:
                by_game.setdefault(record.game, []).append(figures)
        shown = 0
        for name in games.names():  # each game's own rows, in the registry's order
            leaders = app.session.leaders(by_game.get(name, []))[:LEADERS_SHOWN]
            if leaders:
                games.get(name).leaderboard(grid, leaders, lang)
                shown += 1
        if not shown:
            grid.add_widget(Factory.StatCell(text=tr("lb_none", lang)))
        uncounted = sum(1 for record in records if record.winner is None)  # stats.counted
        self.ids.recent_title.text = (tr("recent_games_uncounted", lang, n=uncounted)
                                      if uncounted else tr("recent_games", lang))
        for record in reversed(records[-RECENT_SHOWN:]):
            date = short_date(record.started, lang)
            players = ", ".join(record.players)
            if record.winner:
                line = tr("game_line", lang, date=date, players=players, winner=record.winner)
            elif record.abandoned:  # given up for a new game: listed, never counted
                line = tr("game_line_abandoned", lang, date=date, players=players)
            else:
                line = tr("game_line_open", lang, date=date, players=players)
            recent.add_widget(Factory.RecentLine(text=line))


class SettingsScreen(PageScreen):
    steal_seconds = NumericProperty(5)
    block_seconds = NumericProperty(5)
    brightness = NumericProperty(64)
    volume = NumericProperty(50)
    voice = BooleanProperty(True)
    voice_available = BooleanProperty(True)
    note = StringProperty("")

    def on_pre_enter(self, *_: Any) -> None:
        app = App.get_running_app()
        s = app.settings
        self.steal_seconds, self.block_seconds = s.steal_seconds, s.block_seconds
        self.brightness, self.voice, self.volume = s.brightness, s.voice, s.volume
        self.voice_available = app.voice.available
        self.note = ""

    def step(self, name: str, direction: int) -> None:
        lo, hi = WINDOW_SECONDS
        if name == "brightness":
            low, high = BRIGHTNESS
            value = min(high, max(low, int(self.brightness) + direction * BRIGHTNESS_STEP))
        elif name == "volume":
            low, high = VOLUME
            value = min(high, max(low, int(self.volume) + direction * VOLUME_STEP))
        else:
            value = min(hi, max(lo, getattr(self, name) + direction))
        setattr(self, name, value)
        self.save(**{name: value})

    def set_voice(self, on: bool) -> None:
        self.voice = on
        self.save(voice=on)

    def save(self, **changes: Any) -> None:
        """Keep the change in settings.json and apply it now."""
        app = App.get_running_app()
        app.settings = replace(app.settings, **changes)
        saved = app.keep(app.settings)
        app.session.set_window_seconds("steal", app.settings.steal_seconds)
        app.session.set_window_seconds("block", app.settings.block_seconds)
        app.voice.enabled = app.settings.voice
        app.voice.volume = app.settings.volume
        if "brightness" in changes:
            app.link.set_brightness(app.settings.brightness)
        self.note = tr("settings_saved", app.lang) if saved else app.model.message

    def test_voice(self) -> None:
        """Say one sentence now, at this volume on the configured output (also with the
        voice off), or say why nothing can be heard."""
        app = App.get_running_app()
        voice = app.voice
        if not voice.available:
            self.note = tr("voice_missing", app.lang)
            return
        voice.say(tr("test_voice_text", app.lang), app.lang, even_off=True)
        missing = voice.missing_output
        self.note = tr(f"sound_missing_{missing}" if missing else "voice_test_sent", app.lang)


RESULT_COLORS = {
    "ok": (0.45, 0.85, 0.5, 1),
    "off": (0.7, 0.72, 0.76, 1),
    "warn": (1, 0.75, 0.2, 1),
    "FIX": (1, 0.4, 0.35, 1),
}


class HardwareRow(BoxLayout):
    """One part on the Hardware page: its name and state, then what to do and the
    doctor's details (pins, USB ids, paths) as they are."""

    title = StringProperty("")
    word = StringProperty("")
    result = StringProperty("ok")
    body = StringProperty("")


class HardwareScreen(PageScreen):
    """Menu > Hardware: every detail the short status line leaves out, from the doctor's
    checks (hardware/doctor.py, through ui.hardware_link), with a way to fix each; with
    the camera on, its live view (ui.camera.view)."""

    camera_texture = ObjectProperty(None, allownone=True)
    camera_view: Any = None

    def on_kv_post(self, *_: Any) -> None:
        app = App.get_running_app()
        app.link.bind(status=self._refresh)
        app.bind(lang=self._refresh)

    def _refresh(self, *_: Any) -> None:
        if self.manager is not None and self.manager.current == self.name:
            self.fill()

    def on_pre_enter(self, *_: Any) -> None:
        self.fill()
        from ui.camera.view import open_view

        self.camera_view = open_view(App.get_running_app(), self)

    def on_leave(self, *_: Any) -> None:
        if self.camera_view is not None:
            self.camera_view.stop()
            self.camera_view = None

    def fill(self) -> None:
        app = App.get_running_app()
        lang = app.lang
        rows = self.ids.hardware_list
        rows.clear_widgets()
        for check in app.link.checks(lang):
            name, result = check["name"], check["result"]
            hint_key = f"hwf_{name}_{result}"
            lines = [tr(hint_key, lang)] if has(hint_key, "en") else []
            lines.append(tr("hw_details", lang, detail=check["detail"]))
            if check["fix"]:
                lines.append(tr("hw_to_fix", lang, fix=check["fix"]))
            rows.add_widget(
                Factory.HardwareRow(
                    title=tr(f"hwp_{name}", lang),
                    word=tr(f"hwr_{result}", lang),
                    result=result,
                    body="\n".join(lines),
                )
            )
