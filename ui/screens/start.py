"""Starting: resume the unfinished game, or set up a new one with the on-screen keyboard.

The first screen offers every game of ui.games as an equal choice: the seats (names,
colours, who starts) are typed once for all of them, and each game shows its own options
form below (its slice's). The seats are checked by companion.seats (two players with
one name, a colour twice...), as every game's setup checks them, whose sentence is
shown; the last choices, the game chosen among them, are kept in data_dir for the next
game.
"""

from __future__ import annotations

import importlib
from typing import Any

from kivy.app import App
from kivy.metrics import sp
from kivy.properties import (
    BooleanProperty,
    ListProperty,
    NumericProperty,
    StringProperty,
)
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen

from companion.errors import CompanionError
from companion.games import MAX_NAME
from companion.seats import MAX_SEATS, SEAT_COLORS, check_seats
from ui import games
from ui.i18n import tr
from ui.kvload import load_kv
from ui.widgets import TapButton
from ui.wording import refusal

COLORS = list(SEAT_COLORS)
CAPITAL_AFTER = " -'"  # a capital comes by itself after these (and at the start)


class PlayerSlot(BoxLayout):
    """One seat of the new game: its colour, its name and whether it starts."""

    index = NumericProperty(0)
    shown = BooleanProperty(True)
    name = StringProperty("")
    color_name = StringProperty("red")
    starts = BooleanProperty(False)
    __events__ = ("on_color_tap", "on_name_tap", "on_first_tap")

    def on_color_tap(self) -> None:
        pass

    def on_name_tap(self) -> None:
        pass

    def on_first_tap(self) -> None:
        pass


class StartScreen(Screen):
    count = NumericProperty(2)
    names = ListProperty(["", "", "", ""])
    colors = ListProperty(list(COLORS))
    first = NumericProperty(0)
    game = StringProperty("")  # the game chosen (ui.games), whose options are shown
    message = StringProperty("")

    def on_kv_post(self, *_: object) -> None:
        self._forms: dict[str, Any] = {}
        tabs = self.ids.game_tabs
        for name in games.names():  # one equal choice per game, in the registry's order
            tab = TapButton(code=f"game:{name}", bold=True, max_font_size=sp(22))
            tab.bind(on_release=lambda _b, n=name: setattr(self, "game", n))
            tabs.add_widget(tab)
        self.bind(game=self._show_game)
        app = App.get_running_app()
        app.bind(lang=self._name_games, portrait=self._place_tabs)
        self._name_games()
        self._place_tabs()
        self.game = games.names()[0]
        for i in range(MAX_SEATS):
            slot = self.ids[f"slot{i}"]
            slot.bind(
                on_color_tap=lambda _s, i=i: self.next_color(i),
                on_name_tap=lambda _s, i=i: self.edit_name(i),
                on_first_tap=lambda _s, i=i: setattr(self, "first", i),
            )
        self.bind(count=self._sync, names=self._sync, colors=self._sync, first=self._sync)
        self._sync()

    # --- the choice of game ---

    def form(self, game: str) -> Any:
        """The options form of `game` (its slice's), made the first time it is shown."""
        found = self._forms.get(game)
        if found is None:
            kv, module, cls = games.get(game).options
            load_kv(kv)
            app = App.get_running_app()
            found = self._forms[game] = getattr(importlib.import_module(module), cls)()
            found.load(app)
        return found

    def _show_game(self, *_: object) -> None:
        for tab in self.ids.game_tabs.children:
            tab.selected = tab.code == f"game:{self.game}"
        box = self.ids.game_options
        box.clear_widgets()
        box.add_widget(self.form(self.game))
        self.message = ""

    def _name_games(self, *_: object) -> None:
        lang = App.get_running_app().lang
        for tab in self.ids.game_tabs.children:
            tab.text = games.get(tab.code[5:]).title(lang)

    def _place_tabs(self, *_: object) -> None:
        """The games are the screen's title where it is wide, a row of their own where it
        is narrow."""
        tabs = self.ids.game_tabs
        where = self.ids.tabs_row if App.get_running_app().portrait else self.ids.tabs_top
        if tabs.parent is not where:
            tabs.parent.remove_widget(tabs)
            # in the title row: between the title and the language button
            where.add_widget(tabs, index=1 if where is self.ids.tabs_top else 0)

    def show_rules(self) -> None:
        """The rules of the game chosen."""
        App.get_running_app().show(games.get(self.game).rules_screen)

    def load_choices(self) -> None:
        """Fill in the last game's choices (or the configuration's defaults)."""
        app = App.get_running_app()
        c = app.choices
        players = c.players[:MAX_SEATS]
        self.count = max(2, len(players))
        self.names = players + [""] * (MAX_SEATS - len(players))
        colors = [x for x in c.colors if x in COLORS]
        self.colors = colors + [x for x in COLORS if x not in colors]
        self.first = players.index(c.first) if c.first in players else 0
        for form in self._forms.values():
            form.load(app)
        self.game = c.game if c.game in games.names() else games.names()[0]
        self.message = ""

    def _sync(self, *_: object) -> None:
        if self.first >= self.count:
            self.first = 0
        for i in range(MAX_SEATS):
            slot = self.ids[f"slot{i}"]
            slot.shown = i < self.count
            slot.name, slot.color_name = self.names[i], self.colors[i]
            slot.starts = i == self.first

    def next_color(self, i: int) -> None:
        """Swap colours with the seat that has the next one, so colours stay distinct."""
        colors = list(self.colors)
        wanted = COLORS[(COLORS.index(colors[i]) + 1) % len(COLORS)]
        j = colors.index(wanted)
        colors[i], colors[j] = colors[j], colors[i]
        self.colors = colors

    def edit_name(self, i: int) -> None:
        app = App.get_running_app()
        editor = app.screen("name")
        editor.open(i, self.names[i])
        app.show("name")

    def set_name(self, i: int, name: str) -> None:
        names = list(self.names)
        names[i] = name
        self.names = names

    def seats(self) -> tuple[list[str], list[str], str] | None:
        """The players, their colours and who starts, as typed; None (and the sentence
        shown) when they cannot play together."""
        app = App.get_running_app()
        players = [n.strip() for n in self.names[: self.count]]
        colors = self.colors[: self.count]
        try:  # the same checks whatever the game
            check_seats(players, first=players[self.first], colors=colors)
        except CompanionError as exc:
            self.message = refusal(exc, app.lang)
            return None
        self.message = ""
        return players, colors, players[self.first]

    def start(self) -> None:
        """Start the game chosen, with its options."""
        seats = self.seats()
        if seats is not None:
            why = self.form(self.game).start(App.get_running_app(), *seats)
            if why:
                self.message = why

    def more_options(self) -> None:
        """The chosen game's other choices, on their own screen (the board game's)."""
        seats = self.seats()
        if seats is not None:
            self.form(self.game).more(App.get_running_app(), *seats)


class NameScreen(Screen):
    """A player's name on the on-screen keyboard: at most MAX_NAME letters (the count
    is shown, "7/16"), a capital by itself at the start and after a space, hyphen or
    apostrophe (as on a phone), shift for one capital, caps lock for all of them. A letter
    is never lowered behind the scorekeeper's back: "JB" typed with shift stays "JB"."""

    index = NumericProperty(0)
    text = StringProperty("")
    known = ListProperty([])
    shift = BooleanProperty(True)  # the next letter is a capital
    caps = BooleanProperty(False)  # every letter is a capital
    max_letters = NumericProperty(MAX_NAME)

    def open(self, index: int, text: str) -> None:
        app = App.get_running_app()
        start = app.screen("start")
        taken = {n.casefold() for j, n in enumerate(start.names) if j != index and n}
        self.index, self.text = index, text[:MAX_NAME]
        self.caps = False
        self._auto_shift()
        self.known = [
            {"text": n, "code": n} for n in app.choices.known_names if n.casefold() not in taken
        ][:8]

    def _auto_shift(self) -> None:
        self.shift = not self.text or self.text[-1] in CAPITAL_AFTER

    def key(self, key: str) -> None:
        if key == "SHIFT":
            self.shift = not self.shift
            return
        if key == "CAPS":
            self.caps = not self.caps
            self.shift = False
            return
        if key == "BACK":
            self.text = self.text[:-1]
        elif len(self.text) >= MAX_NAME:
            return  # the count shows 16/16 and the letter keys are dim
        elif key == "SPACE":
            if self.text and not self.text.endswith(" "):
                self.text += " "
        else:
            self.text += key.upper() if self.shift or self.caps else key.lower()
        self._auto_shift()

    def clear(self) -> None:
        self.text = ""
        self.caps = False
        self._auto_shift()

    def pick(self, name: str) -> None:
        self.text = name
        self.done()

    def done(self) -> None:
        app = App.get_running_app()
        app.screen("start").set_name(self.index, self.text.strip())
        app.show("start")


class ResumeScreen(Screen):
    description = StringProperty("")
    damage = StringProperty("")
    stored: Any = None  # a companion.session.Preview

    def offer(self, stored: object) -> None:
        """Describe the unfinished game: who plays, which round, whose turn."""
        self.stored = stored
        self.describe()

    def describe(self, *_: object) -> None:
        lang = App.get_running_app().lang
        stored = self.stored
        if stored is None:
            return
        state, unplayable = stored.state, stored.damage
        if state is None:
            self.description = tr("damage", lang, damage=unplayable)
            self.damage = ""
            return
        self.description = games.get(games.game_of(state)).describe_stored(state, lang)
        words = getattr(stored, "last_words", None)
        last = words(lang) if callable(words) else None
        if last:  # after a power cut the table re-taps what came after it
            self.description += "\n" + tr("resumed_after", lang, what=last)
        self.damage = tr("damage", lang, damage=unplayable) if unplayable else ""

    def resume(self) -> None:
        App.get_running_app().resume_game(self.stored)

    def discard(self) -> None:
        App.get_running_app().discard_game(self.stored)
