"""The tiebreaker (RULES R13) and the end of the game: the winner, a picture of the
game and each player's figures (from companion.stats), and "play again"."""

from __future__ import annotations

from kivy.app import App
from kivy.factory import Factory
from kivy.properties import StringProperty
from kivy.uix.screenmanager import Screen

from games.revenge.rules import Tiebreak, progress_history
from games.revenge.screens.widgets import ProgressChart

__all__ = ["GameOverScreen", "ProgressChart", "TiebreakScreen"]  # the chart: for over.kv

MAX_ENTRY_DIGITS = 3


class TiebreakScreen(Screen):
    player = StringProperty("")
    entry = StringProperty("")

    def on_enter(self, *_: object) -> None:
        model = App.get_running_app().model
        model.bind(tiebreak_next=self._follow)
        self._follow(model, model.tiebreak_next)

    def on_leave(self, *_: object) -> None:
        App.get_running_app().model.unbind(tiebreak_next=self._follow)

    def _follow(self, _model: object, name: str) -> None:
        self.player, self.entry = name, ""

    def select(self, name: str) -> None:
        """Enter another tied player's total first (any order is fine)."""
        self.player, self.entry = name, ""

    def key(self, key: str) -> None:
        app = App.get_running_app()
        if key == "clear":
            self.entry = ""
        elif key == "ok":
            if self.player and self.entry:
                name, total = self.player, int(self.entry)
                if app.submit(lambda: app.session.submit(Tiebreak(name, total))):
                    self._follow(app.model, app.model.tiebreak_next)
        elif len(self.entry) < MAX_ENTRY_DIGITS:
            self.entry = str(int(self.entry + key))


class GameOverScreen(Screen):
    def on_kv_post(self, *_: object) -> None:
        App.get_running_app().bind(lang=self._follow_lang)

    def _follow_lang(self, *_: object) -> None:
        if self.manager is not None and self.manager.current == self.name:
            self.fill()

    def on_pre_enter(self, *_: object) -> None:
        self.fill()

    def fill(self, *_: object) -> None:
        """The picture and the table of figures for the game just played."""
        app = App.get_running_app()
        update, stats = app.session.update, app.session.game_stats()
        if update is None or stats is None:
            return
        state = update.state
        setup = state.setup
        rounds = progress_history(update.steps)
        history = [[0] * len(setup.players)] + [list(rp.progress) for rp in rounds]
        chart = self.ids.chart
        chart.goal, chart.colors = state.goal, [c.value for c in setup.colors]
        chart.names, chart.pawns = list(setup.players), setup.pawns
        chart.round_word = app.t("chart_round")
        chart.history = history
        grid = self.ids.stats_grid
        grid.clear_widgets()
        heads = ("", app.t("go_rounds_won"), app.t("go_busts"), app.t("go_steals"))
        for text in heads:
            grid.add_widget(Factory.StatHead(text=text))
        for seat, p in enumerate(stats.players):
            won = "★ " if state.winner == seat else ""
            grid.add_widget(
                Factory.StatCell(text=won + p.name, font_name="Symbols", ellipsis_ok=True)
            )
            for value in (p.rounds_won, p.busts, p.steals):
                grid.add_widget(Factory.StatCell(text=str(value)))
