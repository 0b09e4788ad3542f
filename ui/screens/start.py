"""Starting: resume the unfinished game, or set up a new one with the on-screen keyboard.

The setup is checked by `Setup.create` (two players with one name, a colour twice...),
whose sentence is shown; the last choices are kept in data_dir for the next game.
"""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.properties import (
    BooleanProperty,
    ListProperty,
    NumericProperty,
    StringProperty,
)
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen

from companion.errors import CompanionError
from companion.games import MAX_NAME, revenge
from companion.games.revenge import MAX_PLAYERS, Setup
from ui.i18n import tr
from ui.wording import refusal

COLORS = [c.value for c in revenge.COLORS]
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
    pawns = NumericProperty(4)
    variant = StringProperty("standard")
    message = StringProperty("")

    def on_kv_post(self, *_: object) -> None:
        for i in range(MAX_PLAYERS):
            slot = self.ids[f"slot{i}"]
            slot.bind(
                on_color_tap=lambda _s, i=i: self.next_color(i),
                on_name_tap=lambda _s, i=i: self.edit_name(i),
                on_first_tap=lambda _s, i=i: setattr(self, "first", i),
            )
        self.bind(count=self._sync, names=self._sync, colors=self._sync, first=self._sync)
        self._sync()

    def load_choices(self) -> None:
        """Fill in the last game's choices (or the configuration's defaults)."""
        app = App.get_running_app()
        c = app.choices
        players = c.players[:MAX_PLAYERS]
        self.count = max(2, len(players))
        self.names = players + [""] * (MAX_PLAYERS - len(players))
        colors = [x for x in c.colors if x in COLORS]
        self.colors = colors + [x for x in COLORS if x not in colors]
        self.first = players.index(c.first) if c.first in players else 0
        self.pawns = c.pawns if c.players else app.settings.pawns
        self.variant = c.variant if c.players else app.settings.variant
        self.message = ""

    def _sync(self, *_: object) -> None:
        if self.first >= self.count:
            self.first = 0
        for i in range(MAX_PLAYERS):
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

    def start(self) -> None:
        app = App.get_running_app()
        players = [n.strip() for n in self.names[: self.count]]
        colors = self.colors[: self.count]
        try:
            setup = Setup.create(
                players,
                first=players[self.first],
                colors=colors,
                pawns=int(self.pawns),
                variant=self.variant,
            )
        except CompanionError as exc:
            self.message = refusal(exc, app.lang)
            return
        self.message = ""
        from ui.abandon import start_after_asking  # a running game is given up only if told

        start_after_asking(app, lambda: app.start_game(setup))


    def to_board(self) -> None:
        """The same players, on to the board game's own choices (ui.board.setup_screen)."""
        from ui.board.slice import open_board_setup

        app = App.get_running_app()
        players = [n.strip() for n in self.names[: self.count]]
        colors = self.colors[: self.count]
        try:  # the names and colours are checked as for the card game
            Setup.create(players, first=players[self.first], colors=colors)
        except CompanionError as exc:
            self.message = refusal(exc, app.lang)
            return
        self.message = ""
        open_board_setup(app, players, colors, players[self.first])


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
        from ui import games

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
