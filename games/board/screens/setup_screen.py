"""Setting up a board game: edition, who draws the cards, and BOARD.md's settings, each
with one line saying what it does. The players, colours and who starts come from the
first screen (the same seats as the card game's), so the names are typed in one place;
the first screen shows the edition and who draws too (games.board.screens.options), and both keep
what is chosen in the board game's own remembered choices (app.choices.own("board")).
"""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.properties import BooleanProperty, DictProperty, ListProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen

from games.board.rules import geometry as g
from games.board.screens.texts import color_name
from ui.theme import ink_on, marked, player_rgba
from ui.widgets import TapButton


class SetupRow(BoxLayout):
    """A setting: its name and choices on one line, what it does on the next."""

    title = StringProperty("")
    help = StringProperty("")

    def add_widget(self, widget: Any, *args: Any, **kwargs: Any) -> None:
        row = self.ids.get("row")
        if row is not None and isinstance(widget, TapButton):  # choices: beside the name
            row.add_widget(widget, *args, **kwargs)
            return
        super().add_widget(widget, *args, **kwargs)


class BoardSetupScreen(Screen):
    players = ListProperty([])  # names, in seating order from the start screen
    colors = ListProperty([])
    first = StringProperty("")
    players_text = StringProperty("")
    edition = StringProperty("classic")
    companion_draws = BooleanProperty(True)
    start_move = StringProperty("count")
    deck_1939 = BooleanProperty(False)
    faster = BooleanProperty(False)
    adult = BooleanProperty(False)
    play_on = BooleanProperty(False)
    slide_colors = DictProperty({})  # only the triangles that differ from their side
    message = StringProperty("")

    def on_kv_post(self, *_: Any) -> None:
        row = self.ids.slide_grid
        self._slide_buttons: dict[str, TapButton] = {}
        for slide in g.SLIDES:
            triangle = f"T{slide.start}"
            button = TapButton(code=f"slide_{triangle}", max_font_size=16,
                               font_name="Symbols")
            button.bind(on_release=lambda b, t=triangle: self.next_slide_color(t))
            self._slide_buttons[triangle] = button
            row.add_widget(button)
        self.bind(slide_colors=self._paint_slides)
        App.get_running_app().bind(lang=self._paint_slides)
        self._paint_slides()

    def offer(self, players: list[str], colors: list[str], first: str) -> None:
        """The players chosen on the start screen; the board's own choices as the last
        board game had them (ui.prefs.Choices.own)."""
        self.players, self.colors, self.first = list(players), list(colors), first
        self.players_text = ", ".join(marked(c, p) for p, c in zip(players, colors, strict=False))
        self.message = ""
        self.recall(App.get_running_app().choices.own("board"))

    def recall(self, kept: dict[str, Any]) -> None:
        """Show remembered choices; anything missing or odd keeps today's value."""
        found = kept.get("settings")
        settings: dict[str, Any] = found if isinstance(found, dict) else {}
        if kept.get("edition") in ("classic", "2016"):
            self.edition = kept["edition"]
        if isinstance(kept.get("companion_draws"), bool):
            self.companion_draws = kept["companion_draws"]
        self.start_move = "circle" if settings.get("start_move") == "circle" else "count"
        self.deck_1939 = settings.get("deck") == "1939"
        self.faster = settings.get("faster_start") is True
        self.adult = settings.get("adult") is True
        self.play_on = settings.get("play_on") is True
        slides = settings.get("slide_colors")
        self.slide_colors = ({t: c for t, c in slides.items() if c in g.COLORS
                              and any(f"T{s.start}" == t for s in g.SLIDES)}
                             if isinstance(slides, dict) else {})

    def kept(self) -> dict[str, Any]:
        """The board's choices to remember for the next game."""
        return {"edition": self.edition, "companion_draws": self.companion_draws,
                "settings": self.settings()}

    def back(self) -> None:
        """To the first screen, whose board options show what was chosen here."""
        app = App.get_running_app()
        app.choices.keep_own("board", self.kept())
        start = app.screen("start")
        start.form("board").load(app)
        app.show("start")

    def slide_color(self, triangle: str) -> str:
        side = next(s.side for s in g.SLIDES if f"T{s.start}" == triangle)
        return str(self.slide_colors.get(triangle, g.COLORS[side]))

    def next_slide_color(self, triangle: str) -> None:
        side = next(s.side for s in g.SLIDES if f"T{s.start}" == triangle)
        color = g.COLORS[(g.COLORS.index(self.slide_color(triangle)) + 1) % len(g.COLORS)]
        colors = dict(self.slide_colors)
        if color == g.COLORS[side]:
            colors.pop(triangle, None)
        else:
            colors[triangle] = color
        self.slide_colors = colors

    def _paint_slides(self, *_: Any) -> None:
        lang = App.get_running_app().lang
        for triangle, button in self._slide_buttons.items():
            color = self.slide_color(triangle)
            button.bg, button.color = player_rgba(color), ink_on(color)
            button.text = f"{triangle[1:]}\n{marked(color, color_name(color, lang))}"

    def settings(self) -> dict[str, Any]:
        """The setup's `settings`, only what differs from the printed rules."""
        out: dict[str, Any] = {}
        if self.edition == "2016" and self.start_move != "count":
            out["start_move"] = self.start_move
        if self.slide_colors:
            out["slide_colors"] = dict(self.slide_colors)
        if self.deck_1939:
            out["deck"] = "1939"
        if self.faster:
            out["faster_start"] = True
        if self.adult and self.edition == "classic":
            out["adult"] = True
        if self.play_on:
            out["play_on"] = True
        return out

    def setup_json(self) -> dict[str, Any]:
        obj: dict[str, Any] = {
            "type": "setup", "game": "board", "edition": self.edition,
            "players": list(self.players), "colors": list(self.colors), "first": self.first,
        }
        if self.companion_draws:  # else the table's real deck, as every setup before
            obj["draws"] = "companion"
        settings = self.settings()
        if settings:
            obj["settings"] = settings
        return obj

    def start(self) -> None:
        from ui.abandon import start_after_asking  # a running game is given up only if told

        app = App.get_running_app()
        start_after_asking(app, self.start_now)

    def start_now(self) -> None:
        """Start at once (a running game was given up, if there was one); a refusal stays
        on this screen as its sentence."""
        app = App.get_running_app()
        error = app.start_game(self.setup_json())
        self.message = error or ""
        if error is None:  # kept like the card game's: players, colours, edition, settings
            c = app.choices
            c.remember(list(self.players), list(self.colors), self.first, game="board",
                       own=self.kept())
            app.keep(c)
