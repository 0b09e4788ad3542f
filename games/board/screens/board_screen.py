"""The board screen: the board, whose turn, the card, the options, undo/redo, corrections.

Every tap goes to the BoardModel, which asks the door (the game); what is highlighted and
listed comes from the engine's options, never from a rule of the screen's own. The action
area (card pad, Draw, the options, game over) is rebuilt when the phase changes and tells
the app's touch guard (ui.touchguard): touches that began before, or within 350 ms
after, it changed do nothing, so a double tap on a card never lands on the option that
replaced it.
"""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.factory import Factory
from kivy.metrics import dp, sp
from kivy.properties import BooleanProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.screenmanager import Screen
from kivy.uix.scrollview import ScrollView

from games.board.rules import CARDS
from games.board.screens.board_view import BoardView  # noqa: F401  (the kv rules use it)
from games.board.screens.texts import bt, card_label
from ui.screens.menu import ApplianceMenu
from ui.stilllayout import StillBox, StillGrid
from ui.texturecache import CachedLabel
from ui.theme import GO_RGBA
from ui.touchguard import app_guard
from ui.widgets import MIN_FONT, TapButton, text_scale_now


class GuardBox(BoxLayout):
    """The action area: each time its content is replaced, it tells the touch guard, so
    a finger that aimed at what was there before does nothing (every button in it is a
    TapButton, which asks the guard)."""

    def mark(self) -> None:
        app_guard().changed()


class AnswerLabel(CachedLabel):
    """What happened and why: wrapped to the panel's width at a fixed readable size
    (>= 14 px), as tall as its text (board.kv), never shrunk or cut."""


class WrapButton(TapButton):
    """A button whose words wrap at a fixed readable size (16 sp, never under 14 px) and
    whose row grows to hold them (board.kv OptionRow): an option is read in full."""

    def _fit(self, *_: object) -> None:
        if self.width <= 1:
            return
        self.shorten, self.clipped = False, False
        self.text_size = (max(1.0, self.width - 2 * self.fit_padding), None)
        scale = text_scale_now()
        self.font_size = max(MIN_FONT, min(float(self.max_font_size), sp(16))) * scale


class OptionRow(StillBox):
    index = NumericProperty(0)
    text = StringProperty("")
    kind = StringProperty("")
    __events__ = ("on_pick", "on_why", "on_hold")

    def on_pick(self) -> None:
        pass

    def on_hold(self, down: bool) -> None:
        """The finger came down on the option (True) or left it (False)."""

    def on_why(self) -> None:
        pass


# What the panel keeps besides the answer and the action area (board.kv): the turn row,
# undo/redo, padding and spacing, in dp.
PANEL_FIXED = 52 + 56 + 8 + 4 * 3
ROW = 54  # an option row (board.kv OptionRow)
PAD_COLS = 6  # 11 cards and "no playable card": two rows of 48 px or more
# the action area's least height per phase (dp), the rest going to the answer
ACTION_MIN = {"correcting": 52, "card": 2 * 50 + 3, "draw": 56, "single": 64 + 3 + ROW,
              "move": 2 * ROW + 3, "folded": 56, "over": 200}


class BoardScreen(Screen):
    why_shown = BooleanProperty(False)
    # Portrait, a card with several moves: the list is behind one button, so the board takes
    # the screen's width (under it, the list had a row and a half at 480x800 in large text
    # and the board 290-336 px); the button shows the list in the board's place, whole.
    list_folded = BooleanProperty(False)
    list_open = BooleanProperty(False)
    # the least height the action area keeps while an answer takes the rest (dp)
    action_min = NumericProperty(ROW * 2)
    panel_reserve = NumericProperty(dp(PANEL_FIXED + ROW * 2))

    def on_action_min(self, *_: Any) -> None:
        self.panel_reserve = dp(PANEL_FIXED) + dp(self.action_min)

    def on_kv_post(self, *_: Any) -> None:
        model = self.model
        self._rebuild_trigger = Clock.create_trigger(self._rebuild, -1)
        model.bind(phase=self._rebuild_trigger, rows=self._rebuild_trigger,
                   single=self._rebuild_trigger, adult=self._rebuild_trigger,
                   discarding=self._rebuild_trigger, correcting=self._rebuild_trigger,
                   lang=self._rebuild_trigger, why_text=self._hide_why,
                   asked=self._light_asked)
        fold = Clock.create_trigger(self._fold, -1)
        model.bind(phase=fold, rows=fold, single=fold, correcting=fold)
        self.bind(size=fold, list_folded=self._rebuild_trigger,
                  list_open=self._rebuild_trigger)
        self._built: tuple[Any, ...] = ()
        self._panels: dict[str, Any] = {}
        self._rows: list[OptionRow] = []  # made once, reused: making widgets costs frames
        self._hovered: int | None = None  # the option under a mouse pointer
        self._pressed: int | None = None  # the option under a finger: it wins over hover
        self._rebuild()

    @property
    def app(self) -> Any:
        return App.get_running_app()

    @property
    def model(self) -> Any:
        return self.app.models["board"]

    # --- the option under a finger or a mouse pointer (a desktop's; but SDL also moves
    # the pointer with every touch, so a press must win over whatever the pointer says) ---

    def on_enter(self, *_: Any) -> None:
        Window.bind(mouse_pos=self._hover)

    def on_leave(self, *_: Any) -> None:
        Window.unbind(mouse_pos=self._hover)
        self._pressed = self._hovered = None
        self.model.show_option(None)

    def _press(self, index: int | None) -> None:
        self._pressed = index
        self._show_option()

    def _show_option(self) -> None:
        self.model.show_option(self._hovered if self._pressed is None else self._pressed)

    def _hover(self, _window: Any, pos: tuple[float, float]) -> None:
        buttons = [(row.index, row.ids.option_button) for row in self._rows if row.parent]
        if self.model.single:
            buttons.append((0, self._panel("move").children[0]))
        over = next((i for i, b in buttons
                     if b.get_root_window() and b.collide_point(*b.to_widget(*pos))), None)
        if over != self._hovered:
            self._hovered = over
            self._show_option()

    # --- the action area ---

    def _panel(self, name: str) -> Any:
        """One of the action area's panels, made the first time it is shown, then kept."""
        panel = self._panels.get(name)
        if panel is None:
            panel = self._panels[name] = getattr(self, f"_make_{name}")()
        return panel

    def _make_help(self) -> Any:
        return Factory.FitLabel(max_font_size=26, bold=True)

    def _light_asked(self, _model: Any, asked: frozenset[str]) -> None:
        """The cards the camera is not sure between, lit on the pad: one tap answers."""
        for button in self._panels["pad"].children if "pad" in self._panels else ():
            button.selected = button.code[5:] in asked if button.code.startswith("card:") else False

    def _make_pad(self) -> GridLayout:
        grid = StillGrid(cols=PAD_COLS, spacing=3)
        for card in CARDS:
            button = TapButton(code=f"card:{card}", max_font_size=34, bold=True)
            button.bind(on_release=lambda b: self.tap_card(b.code[5:]))
            grid.add_widget(button)
        self._no_play = TapButton(code="no_play", max_font_size=18, bg=(0.45, 0.3, 0.2, 1))
        self._no_play.bind(on_release=lambda _b: self.no_playable_card())
        return grid

    def _make_draw(self) -> TapButton:
        button = TapButton(code="draw", max_font_size=40, bold=True, bg=GO_RGBA)
        button.bind(on_release=lambda _b: self.tap_card(None))
        return button

    def _make_move(self) -> BoxLayout:
        one = StillBox(size_hint_y=None, height=64, spacing=3)
        button = TapButton(code="move", max_font_size=30, bold=True, bg=GO_RGBA)
        button.bind(on_release=lambda _b: self.model.move_single(),
                    state=lambda _b, state: self._press(0 if state == "down" else None))
        one.add_widget(button)
        return one

    def _make_list(self) -> TapButton:
        button = TapButton(code="list", max_font_size=24, bold=True, bg=GO_RGBA)
        button.bind(on_release=lambda _b: self.open_list())
        return button

    def _make_list_back(self) -> TapButton:
        button = TapButton(code="list_back", size_hint_y=None, height=dp(52),
                           max_font_size=20)
        button.bind(on_release=lambda _b: self.close_list())
        return button

    def _make_options(self) -> ScrollView:
        rows = StillBox(orientation="vertical", size_hint_y=None, spacing=3)
        rows.bind(minimum_height=rows.setter("height"))
        scroll = ScrollView(do_scroll_x=False, bar_width=8, scroll_type=["bars", "content"])
        scroll.add_widget(rows)
        return scroll

    def _make_new_game(self) -> BoxLayout:
        """Game over: the same table again in one tap, or the new-game form."""
        row = StillBox(size_hint_y=None, height=64, spacing=3)
        again = TapButton(code="play_again", max_font_size=30, bold=True,
                          bg=GO_RGBA)
        again.bind(on_release=lambda _b: self.play_again())
        other = TapButton(code="new_game", max_font_size=24)
        other.bind(on_release=lambda _b: self.app.new_game_form())
        row.add_widget(again)
        row.add_widget(other)
        return row

    def play_again(self) -> None:
        self.model.play_again()

    def _fold(self, *_: Any) -> None:
        """The list folded where the screen is portrait and the card has several moves;
        a new card, or a new list, shows the board again."""
        m = self.model
        folded = (self.height > self.width and m.phase == "move" and not m.single
                  and not m.correcting and len(m.rows) > 1)
        rows = tuple(r["index"] for r in m.rows)
        if not folded or rows != getattr(self, "_folded_rows", None):
            self.list_open = False
        self._folded_rows = rows
        self.list_folded = folded

    def open_list(self) -> None:
        self.list_open = True

    def close_list(self) -> None:
        self.list_open = False

    def _rebuild(self, *_: Any) -> None:
        m = self.model
        shape = (m.phase, m.correcting, m.lang, tuple(r["index"] for r in m.rows), m.single,
                 tuple(r["text"] for r in m.rows), m.adult, m.discarding, self.list_folded,
                 self.list_open)
        if shape == self._built:
            return
        self._built = shape
        box = self.ids.action
        box.mark()  # first: the guard notes what stood before (ui.touchguard)
        gone = list(box.children)
        box.clear_widgets()
        for panel in gone:  # taken off (the card pad after a card): no layout until shown
            trigger = getattr(panel, "_trigger_layout", None)
            if trigger is not None:
                trigger.cancel()
        lang = m.lang
        folded = self.list_folded and not self.list_open
        phase = ("correcting" if m.correcting else "single" if m.phase == "move" and m.single
                 else "folded" if m.phase == "move" and folded else m.phase)
        self.action_min = ACTION_MIN.get(phase, ACTION_MIN["move"])
        if m.correcting:
            help_label = self._panel("help")
            help_label.text = bt("b_correct_help", lang)
            box.add_widget(help_label)
        elif m.phase == "card":
            pad = self._panel("pad")
            for button in pad.children:
                if button.code.startswith("card:"):
                    button.text = card_label(button.code[5:], lang)
                    button.selected = button.code[5:] in m.asked
            if self._no_play.parent is not None:
                pad.remove_widget(self._no_play)
            if m.adult and not m.discarding:
                self._no_play.text = bt("b_no_play", lang)
                pad.add_widget(self._no_play)
            box.add_widget(pad)
        elif m.phase == "draw":
            button = self._panel("draw")
            button.text = bt("b_draw", lang)
            box.add_widget(button)
        elif m.phase == "move" and folded:
            button = self._panel("list")
            button.text = bt("b_list", lang, n=len(m.rows))
            box.add_widget(button)
        elif m.phase == "move":
            if m.single:
                one = self._panel("move")
                one.children[0].text = bt("b_move_one", lang)
                box.add_widget(one)
            if self.list_open:
                back = self._panel("list_back")
                back.text = bt("b_list_back", lang)
                box.add_widget(back)
            box.add_widget(self._fill_options())
        elif m.phase == "over":
            figures = self.app.session.game_stats()
            if figures is not None and figures.players and "moves" in figures.players[0].counters:
                box.add_widget(self._figures(figures))
            row = self._panel("new_game")
            again, other = reversed(row.children)
            again.text, other.text = bt("b_play_again", lang), bt("b_new_game", lang)
            box.add_widget(row)

    def _fill_options(self) -> ScrollView:
        """The listed options, in rows made once and reused."""
        scroll = self._panel("options")
        rows = scroll.children[0]
        wanted = self.model.rows
        while len(self._rows) < len(wanted):
            row = OptionRow()
            row.bind(on_pick=lambda w: self.model.choose(w.index),
                     on_why=lambda w: self.explain(w.index),
                     on_hold=lambda w, down: self._press(w.index if down else None))
            self._rows.append(row)
        shown = self._rows[:len(wanted)]
        for row, r in zip(shown, wanted, strict=True):
            row.index, row.text, row.kind = r["index"], r["text"], r["kind"] or ""
        if rows.children[::-1] != shown:  # the same rows stay: no layout for nothing
            rows.clear_widgets()
            for row in shown:
                rows.add_widget(row)
        scroll.scroll_y = 1
        return scroll

    def _figures(self, figures: Any) -> GridLayout:
        """The game-over figures of each player (games.board.rules.stats)."""
        lang = self.model.lang
        columns = ("moves", "bumps", "sorrys", "forfeits", "pawns_home")
        grid = GridLayout(cols=len(columns) + 1, spacing=2)
        grid.add_widget(Factory.FitLabel(text="", max_font_size=16))
        for c in columns:
            grid.add_widget(Factory.FitLabel(text=bt(f"st_{c}", lang), bold=True,
                                             max_font_size=15))
        for p in figures.players:
            grid.add_widget(Factory.FitLabel(text=p.name, bold=True, max_font_size=17))
            for c in columns:
                grid.add_widget(Factory.FitLabel(text=str(p.counters.get(c, 0)),
                                                 max_font_size=17))
        return grid

    @staticmethod
    def left_words(title: str, rows: list[dict[str, Any]]) -> str:
        """The draw pile's remaining cards, on three short lines:
        "Left in the deck (31)", "1×4  2×3 …", "… Sorry!×4"."""
        if not title:
            return ""
        cells = [f"{r['card']}×{r['n']}" for r in rows]
        half = (len(cells) + 1) // 2
        return "\n".join((title, "  ".join(cells[:half]), "  ".join(cells[half:])))

    # --- taps ---

    def tap_card(self, card: str | None) -> None:
        self.model.tap_card(card)

    def no_playable_card(self) -> None:
        """Adult variation: the player has no playable card; the pad asks which goes."""
        self.model.discarding = True
        self.model.hint = bt("b_tap_discard", self.model.lang, name=self.model.state.get("turn"))

    def tap_place(self, board_key: str, touch: Any) -> None:
        if app_guard().began_before_change(touch) and self.model.phase != "move":
            return
        self.model.tap_place(board_key)

    def tap_places(self, board_keys: list[str], touch: Any) -> None:
        if app_guard().began_before_change(touch) and self.model.phase != "move":
            return
        self.model.tap_places(board_keys)

    def explain(self, index: int | None = None) -> None:
        self.model.explain(index)
        self.why_shown = bool(self.model.why_text)

    def show_why(self) -> None:
        self.explain(None)

    def _hide_why(self, *_: Any) -> None:
        if not self.model.why_text:
            self.why_shown = False

    def drop(self, color: str, frm: str, to: str | None) -> None:
        self.model.drop(color, frm, to)

    def toggle_correct(self) -> None:
        m = self.model
        m.correcting = not m.correcting
        if m.correcting:
            m.clear_taps()

    def undo(self) -> None:
        self.model.undo()

    def redo(self) -> None:
        self.model.redo()


class BoardMenuScreen(ApplianceMenu):
    """The board game's menu: its own rules page and way back, the same Back up and
    Turn off as the card game's."""


class BoardRulesScreen(Screen):
    back_to = StringProperty("board")
