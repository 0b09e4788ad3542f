"""Snap on the touchscreen: its slice for ui.games. One screen (snap.kv): the pile's top
card and size, each player's won cards, a button per picture to lay the card the player
whose turn it is laid, a "Snap!" button per player, undo and redo; and its options on the
first screen (the target, from [snap] target)."""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.factory import Factory
from kivy.properties import ListProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen

from companion.catalogue import number, text
from companion.session import Live, Session
from games.snap.config import snap_config
from games.snap.rules import CARDS, RULES, Event, Flip, Setup, Snap, State
from games.snap.words import card_words, step_words
from ui.gamemodel import GameModel
from ui.games import kv_beside

KV = kv_beside(__file__, "snap.kv")


class SnapModel(GameModel):
    """The open snap game as Kivy properties; the session's listener only fires a Clock
    trigger, so the screen changes on the Kivy thread."""

    top_text = StringProperty("")  # the pile's top card, in words
    pile_text = StringProperty("")
    turn_text = StringProperty("")
    players = ListProperty([])  # [{"name", "won"}], seating order
    cards = ListProperty([(c, "") for c in CARDS])  # (code, name in words)
    target = NumericProperty(0)

    def __init__(self, session: Session, **kwargs: Any) -> None:
        self.live = Live(session, RULES)
        self._trigger = Clock.create_trigger(self.refresh, -1)
        super().__init__(**kwargs)
        self._unsubscribe = self.live.subscribe(lambda _update: self._trigger())

    def on_lang(self, *_: Any) -> None:
        self.refresh()

    def refresh(self, *_: Any) -> None:
        lang = self.lang
        self.cards = [(c, card_words(c, lang)) for c in CARDS]
        update = self.live.update
        if update is None:
            return
        state = update.state
        self.top_text = card_words(state.pile[-1], lang) if state.pile else ""
        self.pile_text = text("snap_pile", lang, n=len(state.pile) + state.under)
        self.target = state.setup.target
        self.players = [{"name": n, "won": number(w, lang)}
                        for n, w in zip(state.names, state.won, strict=True)]
        self.turn_text = (text("snap_won_game", lang, name=state.names[state.winner])
                          if state.winner is not None
                          else text("snap_turn", lang, name=state.names[state.turn]))
        if update.result is not None:
            self.message = _said(update.result.outcomes, state, lang)
        undo, redo = update.undo, update.redo
        self.show_undo(None if undo is None else step_words(undo.event.to_json(), undo.before,
                                                            lang),
                       None if redo is None else step_words(redo.event.to_json(), redo.before,
                                                            lang),
                       undo_by_camera=undo is not None and undo.by == "camera")

    def close(self) -> None:
        self._unsubscribe()


def _said(outcomes: tuple[object, ...], state: State, lang: str) -> str:
    """The message line after an event: who won the pile, or paid for a wrong call."""
    for o in outcomes:
        what, seat, cards = getattr(o, "what", ""), getattr(o, "seat", 0), getattr(o, "cards", 0)
        if what == "won":
            return text("snap_took", lang, name=state.names[seat], n=cards)
        if what == "wrong":
            return text("snap_wrong", lang, name=state.names[seat], n=cards)
    return ""


class SnapScreen(Screen):
    """The table of a snap game (snap.kv): a tap lays a card or calls "Snap!"."""

    model = ObjectProperty(None, rebind=True)  # the app's SnapModel (snap.kv)

    def _live(self) -> Live[Setup, State, Event]:
        live: Live[Setup, State, Event] = self.model.live
        return live

    def flip(self, card: str) -> None:
        App.get_running_app().submit(lambda: self._live().submit(Flip(card)))

    def snap(self, player: str) -> None:
        App.get_running_app().submit(lambda: self._live().submit(Snap(player)))

    def undo(self) -> None:
        app = App.get_running_app()
        app.submit(app.session.undo)

    def redo(self) -> None:
        app = App.get_running_app()
        app.submit(app.session.redo)


class SnapOptions(BoxLayout):
    """Snap's options on the first screen (ui.games.OptionsForm): the target, as
    [snap] target sets it."""

    target_text = StringProperty("")

    def load(self, app: Any) -> None:
        self.target_text = text("snap_target", app.lang, n=snap_config(app.link.config).target)

    def start(self, app: Any, players: list[str], colors: list[str], first: str) -> str | None:
        from ui.abandon import start_after_asking  # a running game is given up only if told

        setup = Setup(tuple(players), snap_config(app.link.config).target)
        start_after_asking(app, lambda: app.start_game(setup))
        return None


class SnapSlice:
    screens = {"snap": (KV, "games.snap.screens", "SnapScreen")}  # noqa: RUF012
    prewarm: tuple[str, ...] = ()
    options = (KV, "games.snap.screens", "SnapOptions")
    rules_screen = "rules"

    def title(self, lang: str) -> str:
        return text("snap_title", lang)

    def make_model(self, app: Any) -> SnapModel:
        return SnapModel(app.session, lang=app.lang)

    def start(self, app: Any, setup: Any) -> str | None:
        model = app.models["snap"]
        if not model.attempt(lambda: app.session.new_game(setup, abandon=True)):
            return str(model.message)
        self.show(app)
        return None

    def show(self, app: Any) -> None:
        app.models["snap"].refresh()
        app.show("snap")

    def describe_stored(self, state: State, lang: str) -> str:
        score = ", ".join(f"{n} {number(w, lang)}" for n, w in zip(state.names, state.won,
                                                                   strict=True))
        return text("snap_resume", lang, score=score, n=len(state.pile) + state.under)

    def leaderboard(self, grid: Any, leaders: list[Any], lang: str) -> None:
        for head in ("", "lb_games", "lb_wins", "snap_lb_piles", "snap_lb_cards", "snap_lb_wrong"):
            grid.add_widget(Factory.StatHead(text=text(head, lang) if head else ""))
        for p in leaders:
            for value in (p.name, p.games, p.wins, p.counters.get("piles", 0),
                          p.counters.get("cards", 0), p.counters.get("wrong", 0)):
                grid.add_widget(Factory.StatCell(
                    text=value if isinstance(value, str) else number(value, lang)))


SLICE = SnapSlice()
