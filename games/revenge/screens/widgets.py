"""The card game's own widgets: a player's row (name, hand, pawn cards, lap bar), the
direction arrow and the game-over chart. Their looks are in ui/revenge/table.kv."""

from __future__ import annotations

import math

from kivy.app import App
from kivy.clock import Clock
from kivy.graphics import Color, Line, Rectangle
from kivy.metrics import dp, sp
from kivy.properties import (
    BooleanProperty,
    ColorProperty,
    ListProperty,
    NumericProperty,
    StringProperty,
)
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.widget import Widget

from ui.i18n import tr
from ui.marks import draw_mark
from ui.textfit import measured, room_needed
from ui.theme import marked, name_rgba, player_rgba
from ui.widgets import MIN_FONT, FitLabel, text_scale_now

# Around a pawn card's word: its fit padding and border inset (table.kv), each side.
CARD_PADDING = dp(1) + dp(2) + 1
CARD_FONT, NAME_FONT = 24, 24  # their largest sizes in sp (table.kv: PawnCard, name_label)
LINE_MARGIN = 3  # above and below a line of the least text size when stacked (insets)
NAME_SHARE = 1 / 3.2  # the name's usual share of a row: the cards take the rest


class PawnCard(FitLabel):
    """One two-sided pawn card: HOME side up (the player's colour) or START side up;
    `lap` 2 is START side up again after the longer game's second lap (a lap mark)."""

    home = BooleanProperty(False)
    lap = NumericProperty(0)  # 0 START, 1 HOME, 2 back on START (longer game)
    color_name = StringProperty("red")


class LapBar(Widget):
    """A player's progress 0..goal (2P in the longer game) as a thin bar in their
    colour, with a mark at P where the second lap starts."""

    value = NumericProperty(0)
    goal = NumericProperty(4)
    pawns = NumericProperty(4)
    color_name = StringProperty("red")

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        with self.canvas:
            Color(0.16, 0.17, 0.20, 1)
            self._back = Rectangle()
            self._ink = Color(*player_rgba(self.color_name))
            self.fill = Rectangle()
            Color(0.95, 0.95, 0.98, 1)
            self.mark = Rectangle()
        for prop in ("value", "goal", "pawns", "color_name", "pos", "size"):
            self.fbind(prop, self._draw)
        self._draw()

    def _draw(self, *_: object) -> None:
        goal = max(1, self.goal)
        share = min(1.0, max(0.0, self.value / goal))
        self._back.pos, self._back.size = self.pos, self.size
        self._ink.rgba = player_rgba(self.color_name)
        self.fill.pos, self.fill.size = self.pos, (self.width * share, self.height)
        lap = self.pawns / goal if self.goal > self.pawns else 0.0
        self.mark.pos = (self.x + self.width * lap - 1, self.y)
        self.mark.size = (2, self.height) if lap else (0, 0)


class DirectionArrow(Widget):
    """An arrow pointing right (forward, seating order) or left (reverse)."""

    direction = NumericProperty(1)
    ink = ColorProperty((1, 1, 1, 1))


class ProgressChart(Widget):
    """The picture of a game: each player's progress (R11: 0..P, or 0..2P in the longer
    game) after each round, one line per player in their colour with their shape on the
    named rounds, drawn on the canvas; a round axis along the bottom, progress levels on
    the left and a legend of the players' names after their shapes, in their colours,
    on top."""

    history = ListProperty([])  # one list of progress values per round, seat order
    colors = ListProperty([])  # colour names, seat order
    names = ListProperty([])  # player names, seat order (the legend)
    goal = NumericProperty(4)
    pawns = NumericProperty(4)  # P: a level mark where the longer game's second lap starts
    round_word = StringProperty("Round")  # the round axis's name, in the UI's language
    label_font = NumericProperty(sp(14))

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self._redraw = Clock.create_trigger(self.redraw, -1)
        for prop in ("history", "colors", "names", "goal", "pawns", "round_word", "pos", "size"):
            self.fbind(prop, self._redraw)
        self.rescale = self._redraw  # the text size changed (ui.widgets.rescale_all)
        self.legend: list[Label] = []
        self.round_labels: list[Label] = []
        self.level_labels: list[Label] = []

    def _label(self, text: str, x: float, y: float, w: float, h: float, **kw: object) -> Label:
        label = FitLabel(text=text, pos=(x, y), size=(w, h), max_font_size=self.label_font,
                         fit_padding=0, **kw)
        self.add_widget(label)
        return label

    def redraw(self, *_: object) -> None:
        self.canvas.after.clear()
        self.clear_widgets()
        self.legend, self.round_labels, self.level_labels = [], [], []
        rounds = len(self.history)
        if rounds == 0 or not self.colors:
            return
        font = self.label_font * text_scale_now()  # the legend's; FitLabels scale their own
        pad, row = sp(6), font * 1.6
        n = len(self.colors)
        per_row = n if n <= 2 else 2
        legend_rows = math.ceil(n / per_row)
        word = measured("Roboto", False, font, self.round_word)[0]
        left = max(sp(40), word + 2 * pad + sp(18))  # clear of round 0's label
        x0, y0 = self.x + left, self.y + pad + row
        w = max(1.0, self.right - pad - x0)
        h = max(1.0, self.top - pad - (legend_rows + 0.5) * row - y0)
        top = max(1, self.goal)
        step_x = w / max(1, rounds - 1)
        # the legend: each name in its colour, after a short line of that colour
        cell = (self.width - 2 * pad) / per_row
        with self.canvas.after:
            for seat, color in enumerate(self.colors):
                r, c = divmod(seat, per_row)
                lx = self.x + pad + c * cell
                ly = self.top - pad - (r + 1) * row
                Color(*player_rgba(color))
                Line(points=[lx, ly + row / 2, lx + sp(18), ly + row / 2], width=sp(2))
                draw_mark(color, lx + sp(9), ly + row / 2, sp(6), player_rgba(color))
        for seat, color in enumerate(self.colors):
            r, c = divmod(seat, per_row)
            name = self.names[seat] if seat < len(self.names) else ""
            ink = name_rgba(color)
            box = (cell - sp(26), row)
            legend = Label(text=marked(color, name), pos=(self.x + pad + c * cell + sp(24),
                                           self.top - pad - (r + 1) * row),
                           size=box, text_size=box, halign="left", valign="middle",
                           shorten=True, shorten_from="right", color=ink,
                           font_name="Symbols", font_size=font)
            self.add_widget(legend)
            self.legend.append(legend)
        # the progress levels: every one up to 4, else 0, P and the goal
        levels = list(range(top + 1)) if top <= 4 else sorted({0, int(self.pawns), top})
        for level in levels:
            y = y0 + h * level / top
            self.level_labels.append(
                self._label(str(level), self.x + pad, y - row / 2, left - 2 * pad, row,
                            halign="right"))
        # the round axis: 0 (the start) to the last round, at most about 10 labels
        every = max(1, math.ceil(rounds / 10))
        shown = [r for r in range(rounds) if r % every == 0 or r == rounds - 1]
        if len(shown) > 1 and shown[-1] - shown[-2] < every:
            shown.pop(-2)
        for r in shown:
            self.round_labels.append(
                self._label(str(r), x0 + step_x * r - sp(14), self.y + pad, sp(28), row))
        self._label(self.round_word, self.x + pad, self.y + pad, left - 2 * pad - sp(14), row,
                    halign="right", color=(0.75, 0.75, 0.78, 1))
        with self.canvas.after:
            for level in range(top + 1):
                y = y0 + h * level / top
                lap = level == self.pawns and top > self.pawns
                Color(*((0.85, 0.85, 0.9, 1) if lap else (0.4, 0.4, 0.45, 1)))
                Line(points=[x0, y, x0 + w, y], width=1.5 if lap else 1)
            Color(0.6, 0.6, 0.65, 1)
            Line(points=[x0, y0, x0, y0 + h], width=1)
            for seat, color in enumerate(self.colors):
                Color(*player_rgba(color))
                offset = (seat - (n - 1) / 2) * sp(2)
                points: list[float] = []
                for r, values in enumerate(self.history):
                    value = min(top, max(0, values[seat] if seat < len(values) else 0))
                    points += [x0 + step_x * r, y0 + h * value / top + offset]
                if len(points) == 2:
                    points += points
                Line(points=points, width=sp(2))
                # the seat's shape on the rounds the axis names: the lines apart without colour
                for r in shown:
                    draw_mark(color, points[2 * r], points[2 * r + 1], sp(6), player_rgba(color))


class PlayerPanel(BoxLayout):
    """One player: name, hand count and pawn cards (START or HOME side up). Where the
    name and every card cannot each keep the least text size side by side (French, large
    text, four cards), the row is `stacked`: the name and hand on one line, the cards
    under it, so none is cut with "…" (issue 35)."""

    name = StringProperty("")
    color_name = StringProperty("red")
    hand = StringProperty("")
    homes = ListProperty([])
    laps = ListProperty([])  # per pawn card: 0 START, 1 HOME, 2 back on START
    progress = NumericProperty(0)
    goal = NumericProperty(4)
    is_turn = BooleanProperty(False)
    stacked = BooleanProperty(False)
    name_share = NumericProperty(NAME_SHARE)  # of the row's width, beside the cards
    # neither beside the cards nor stacked fits (16 letters, four cards, four players at
    # 800x480): only then is the name cut with "…"; a pawn card never is
    crowded = BooleanProperty(False)

    def __init__(self, **kwargs: object) -> None:
        self._cards: list[PawnCard] = []  # every pawn card made, the first len(homes) shown
        self._arrange_trigger = Clock.create_trigger(self._arrange, -1)
        super().__init__(**kwargs)
        for prop in ("size", "name", "homes", "is_turn"):
            self.fbind(prop, self._arrange_trigger)
        app = App.get_running_app()
        if app is not None:
            app.fbind("lang", self._arrange_trigger)
            app.fbind("text_scale", self._arrange_trigger)
        self._arrange_trigger()

    def _arrange(self, *_: object) -> None:
        """The name's share of the row: its usual third, more where the longest name of
        the table needs it and the cards keep theirs at the least text size; stacked
        where even that does not fit and the row is tall enough for two lines. Every
        row of the table is arranged alike (one look, the cards in one column)."""
        app = App.get_running_app()
        lang = getattr(app, "lang", "en")
        least = MIN_FONT * text_scale_now()
        scale = text_scale_now()
        card_top, name_top = sp(CARD_FONT) * scale, sp(NAME_FONT) * scale
        card = max(room_needed("Roboto", True, least, tr(key, lang), CARD_PADDING,
                               card_top)[0]
                   for key in ("start_side", "home_side"))
        rows = [w for w in getattr(self.parent, "children", ()) if isinstance(w, PlayerPanel)]
        rows = rows or [self]
        name, line = 0.0, 0.0
        for row in rows:
            shown = "▶ " + marked(row.color_name, row.name)  # with the turn's mark
            w, h = room_needed("Symbols", True, least, shown, sp(4), name_top)
            name, line = max(name, w), max(line, h)
        left, top, right, bottom = self.padding
        room = self.width - left - right - self.spacing
        cards = len(self.homes) * card + max(0, len(self.homes) - 1) * dp(1)
        share = max(NAME_SHARE, name / room) if room > 0 else NAME_SHARE
        fits_beside = name + cards <= room
        two_lines = self.height - top - bottom >= 2 * (line + LINE_MARGIN)
        stacked = not fits_beside and two_lines
        for row in rows:
            row.stacked, row.crowded = stacked, not fits_beside and not two_lines
            row.name_share = 1.0 if stacked else (share if fits_beside else NAME_SHARE)

    def make_cards(self, count: int) -> None:
        """Have `count` pawn cards made (ahead of a game that shows them)."""
        while len(self._cards) < count:
            self._cards.append(PawnCard(color_name=self.color_name))

    def on_homes(self, *_: object) -> None:
        row = self.ids.pawns
        if len(row.children) != len(self.homes):
            self.make_cards(len(self.homes))
            row.clear_widgets()
            for card in self._cards[:len(self.homes)]:
                row.add_widget(card)
        self.on_laps()

    def on_color_name(self, *_: object) -> None:
        """A panel shown again for another player (TableScreen keeps them): its pawn cards
        take the new colour even when the homes are the same."""
        if "pawns" in self.ids:
            self.on_laps()

    def on_laps(self, *_: object) -> None:
        cards = list(reversed(self.ids.pawns.children))
        laps = self.laps if len(self.laps) == len(cards) else [int(h) for h in self.homes]
        for card, lap in zip(cards, laps, strict=True):
            card.home, card.lap = lap == 1, lap
            card.color_name = self.color_name
