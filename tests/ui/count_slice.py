"""tests/conftest.py's `count_game` on the screen: the whole of its ui/ slice (a model,
one screen and its .kv file), registered in ui.games by the test that uses it. It shows
what adding a game above the core takes: one package per layer plus one registry entry."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.factory import Factory
from kivy.properties import ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen

from companion.session import Session
from ui.gamemodel import GameModel

KV = str(Path(__file__).with_name("count.kv"))  # an absolute path: kvload takes it as it is


class CountModel(GameModel):
    """The count game as Kivy properties; session listeners only fire a Clock trigger."""

    count_text = StringProperty("")
    turn_text = StringProperty("")

    def __init__(self, session: Session, **kwargs: Any) -> None:
        self.session = session
        self._trigger = Clock.create_trigger(self.refresh, -1)
        super().__init__(**kwargs)
        self._unsubscribe = session.subscribe(lambda _update: self._trigger())

    def refresh(self, *_: Any) -> None:
        update = self.session.update
        if update is None or update.game != "count":
            return
        state, summary = update.state, update.summary
        self.count_text = str(state.count)
        self.turn_text = (f"{summary.winner} won" if summary.over
                          else f"{state.setup.players[state.turn]} adds")
        if update.result is not None:
            self.message = ""

    def close(self) -> None:
        self._unsubscribe()


class CountScreen(Screen):
    model = ObjectProperty(None, rebind=True)  # the count game's CountModel (count.kv)

    def add(self, n: int) -> None:
        app = App.get_running_app()
        session = app.session
        app.submit(lambda: session.submit(session.rules.parse_event({"type": "add", "n": n})))


class CountOptions(BoxLayout):
    """The count game's options on the first screen: none to choose, one line saying so."""

    def load(self, app: Any) -> None:
        pass

    def start(self, app: Any, players: list[str], colors: list[str], first: str) -> str | None:
        return app.start_game(Session.setup({"type": "setup", "game": "count",
                                             "players": players}))


class CountSlice:
    screens = {"count": (KV, "count_slice", "CountScreen")}  # noqa: RUF012
    prewarm: tuple[str, ...] = ()
    options = (KV, "count_slice", "CountOptions")
    rules_screen = "rules"

    def title(self, lang: str) -> str:
        return "Count to 10"

    def make_model(self, app: Any) -> CountModel:
        return CountModel(app.session, lang=app.lang)

    def start(self, app: Any, setup: Any, **options: Any) -> str | None:
        if app.submit(lambda: app.session.new_game(setup, abandon=True)):
            self.show(app)
        return None

    def show(self, app: Any) -> None:
        app.models["count"].refresh()
        app.show("count")

    def describe_stored(self, state: Any, lang: str) -> str:
        return f"{', '.join(state.setup.players)} count to 10: at {state.count}"

    def leaderboard(self, grid: Any, leaders: list[Any], lang: str) -> None:
        for text in ("Count", "games", "wins", "added", "", ""):
            grid.add_widget(Factory.StatCell(text=text, bold=True))
        for p in leaders:
            for value in (p.name, p.games, p.wins, p.counters.get("added", 0), "", ""):
                grid.add_widget(Factory.StatCell(text=str(value)))


SLICE = CountSlice()
