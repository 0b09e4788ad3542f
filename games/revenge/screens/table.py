"""The table screen: the total, the card pad, the players, SORRY! windows, undo/redo.

Every tap goes to the session through the table's own model (`_attempt`: GameModel.attempt,
which shows a refusal's sentence), not through the app: one trip per tap;
what the pad area shows (pad, Slide totals, flip-back targets) and whether the SORRY!
window panel is up follow the session's state, never a rule of its own. The window
panel sits over the players' column, so the card pad stays live: logging the next card
closes the window (RULES.md, "a window closes ... when the next card is logged").
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.metrics import sp
from kivy.properties import BooleanProperty, ListProperty, NumericProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen

from games.revenge.rules import MAX_PAWNS, MAX_PLAYERS, MAX_SLIDE, Card, EndPlay2, Play, Press
from games.revenge.screens.widgets import PlayerPanel
from games.revenge.screens.wording import card_name
from ui.i18n import tr
from ui.textfit import room_needed, wrapped_lines
from ui.theme import marked
from ui.touchguard import app_guard
from ui.widgets import MIN_FONT, text_scale_now
from ui.wording import sentence

SPARE_DELAY = 0.3  # s between two players' panels made ahead (one per idle moment)
# The window panel's ids, reachable from the table screen's ids as before.
WINDOW_IDS = ("window_title", "window_detail", "countdown", "press_grid", "window_close")
# The least height of the window's row of SORRY! / Don't Be SORRY! buttons: half as tall
# again as a fingertip's target, and taller than the "No one calls" / "No block" under it.
CALL_ROW_DP = 72
NEXT_SHARE = 0.6 / 1.6  # the turn bar's "then Ben" beside "Ana to play", as a rule
FIT_PADDING = sp(4)  # a FitLabel's own (ui.widgets)
STATUS_SHARES = {False: 0.8, True: 0.6}  # of the top bar, landscape and portrait


class WindowPanel(BoxLayout):
    """The SORRY! window (title, countdown, one button per player who may call or
    block, and "No one calls" / "No block"); its looks are <WindowPanel> in ui/revenge/table.kv,
    its place is set where the table screen's rule puts it. It takes every touch that
    lands on it, so nothing under it reacts. `need` is its height with a call row of
    `call_row_dp`: the total above it gives it at least that much (table.kv)."""

    call_row_dp = NumericProperty(CALL_ROW_DP)
    need = NumericProperty(0)

    def on_touch_down(self, touch: Any) -> bool:
        return bool(super().on_touch_down(touch)) or self.collide_point(*touch.pos)


class TableScreen(Screen):
    flip_choices = ListProperty([])
    window_shown = BooleanProperty(False)  # the window panel is up
    # the turn bar: the next player's share beside whose turn it is, more where the next
    # name needs it; only where both cannot be whole is the next name cut with "…"
    next_share = NumericProperty(NEXT_SHARE)
    turn_crowded = BooleanProperty(False)
    # the status line on a row of its own, under the top bar, where its place in the
    # top bar would cut it ("Boutons : aucun, …" at 480x800)
    status_row_shown = BooleanProperty(False)

    def on_kv_post(self, *_: object) -> None:
        model = App.get_running_app().model
        panel = self._window_panel = self.ids.window_panel.__self__  # kept: ids are weak
        for wid in WINDOW_IDS:
            self.ids[wid] = panel.ids[wid]
        self.remove_widget(panel)  # up only while a window is open
        model.bind(
            players=self._sync_players,
            awaiting=self._follow_awaiting,
            revision=self._follow_awaiting,
        )
        self.ids.slide_grid.choices = [
            {"text": str(n), "code": f"slide:{n}"} for n in range(MAX_SLIDE + 1)
        ]
        self._spare: list[PlayerPanel] = []  # made ahead, shown by _sync_players
        self._sync_players(model, model.players)
        self._follow_awaiting()
        share = Clock.create_trigger(self._share_turn_bar, -1)
        model.bind(next_text=share, turn_text=share)
        self.ids.turn_box.bind(width=share)
        App.get_running_app().bind(text_scale=share)
        share()
        place = Clock.create_trigger(self._place_status, -1)
        App.get_running_app().bind(status=place, portrait=place, text_scale=place)
        self.ids.top_bar.bind(width=place)
        place()
        self._make_spare_later()

    def _make_spare_later(self) -> None:
        """Kivy's clock holds a pending callback strongly: through a weak reference, a
        stopped app's screens are freed at once, not 0.3 s later (tests/ui/test_app_freed.py)."""
        me = weakref.ref(self)

        def make(*_: object) -> None:
            screen = me()
            if screen is not None:
                screen._make_spare_panels()

        Clock.schedule_once(make, SPARE_DELAY)

    @property
    def panels_made(self) -> int:
        """Players' panels made so far, shown or spare (a table needs MAX_PLAYERS at most)."""
        return len(self.ids.players_grid.children) + len(self._spare)

    def _make_spare_panels(self, *_: object) -> None:
        """A table's players' panels with their pawn cards, made while the app is idle (a
        Resume tap made four, 29 % of its CPU): one at a time, a frame each."""
        if self.panels_made >= MAX_PLAYERS:
            return
        panel = PlayerPanel()
        panel.make_cards(MAX_PAWNS)
        self._spare.append(panel)
        self._make_spare_later()

    @staticmethod
    def status_share(portrait: bool) -> float:
        """The status line's share of the top bar, beside the round and the draw pile."""
        return STATUS_SHARES[portrait]

    def _place_status(self, *_: object) -> None:
        """The status line in the top bar where it fits there whole (two lines at most,
        the least text size), else, in portrait, on its own row under it (landscape has
        no height to spare; its slot is wide)."""
        app, bar = self.app, self.ids.top_bar
        least = MIN_FONT * text_scale_now()
        ids, share = self.ids, self.status_share(app.portrait)
        free = bar.width - bar.padding[0] - bar.padding[2] - 3 * bar.spacing
        free -= ids.menu_button.width
        others = ids.round_label.size_hint_x + ids.draw_label.size_hint_x
        room = free * share / (others + share) - 2 * FIT_PADDING
        needed, line = room_needed("Roboto", False, least, app.status, 0)
        lines = wrapped_lines([[room_needed("Roboto", False, least, w, 0)[0]
                                for w in app.status.split()]],
                              room_needed("Roboto", False, least, " ", 0)[0], room)
        height = bar.height - bar.padding[1] - bar.padding[3]
        cut = needed > room and (lines is None or lines * line > height)
        self.status_row_shown = app.portrait and cut  # landscape: the table's height first

    def _share_turn_bar(self, *_: object) -> None:
        """The turn bar's split: each text whole at the least size where both fit."""
        model, box = self.app.model, self.ids.turn_box
        least = MIN_FONT * text_scale_now()
        shown = marked(model.turn_color, model.turn_text)
        turn = room_needed("Symbols", True, least, shown, FIT_PADDING)[0]
        following = room_needed("Roboto", False, least, model.next_text, FIT_PADDING)[0]
        room = box.width - box.padding[0] - box.padding[2] - box.spacing
        fits = room > 0 and turn + following <= room
        self.turn_crowded = not fits
        self.next_share = max(NEXT_SHARE, following / room) if fits else NEXT_SHARE

    @property
    def app(self) -> App:
        return App.get_running_app()

    # --- following the model ---

    def _sync_players(self, _model: object, players: list[dict[str, Any]]) -> None:
        grid = self.ids.players_grid
        if len(grid.children) != len(players):
            self._spare += reversed(grid.children)
            grid.clear_widgets()
            for _player in players:
                grid.add_widget(self._spare.pop(0) if self._spare else PlayerPanel())
        for panel, p in zip(reversed(grid.children), players, strict=True):
            panel.name, panel.color_name = p["name"], p["color"]
            panel.hand, panel.is_turn, panel.homes = p["hand"], p["is_turn"], p["homes"]
            panel.progress, panel.goal, panel.laps = p["progress"], p["goal"], p["laps"]

    def _follow_awaiting(self, *_: object) -> None:
        """A SORRY! window puts its panel over the players' column; the pad stays. The
        panel coming or going is a change under the finger (ui.touchguard)."""
        shown = self.app.model.awaiting in ("steal", "block")
        if shown == self.window_shown:
            return
        app_guard().changed()  # first: the guard notes what stood before the panel
        panel = self._window_panel
        if shown:
            self.add_widget(panel)
        else:
            self.remove_widget(panel)
        self.window_shown = shown

    def show_pad(self) -> None:
        self.ids.pad_manager.current = "pad"

    # --- taps ---

    def _attempt(self, action: Callable[[], object]) -> bool:
        """One session call from a tap; a refusal is the table's message line."""
        return bool(self.app.model.attempt(action))

    def tap_card(self, code: str) -> None:
        """A card on the pad. SORRY! first asks for its target when there is a choice."""
        model = self.app.model
        if code == "sorry" and "sorry" in model.legal and model.flip_targets:
            colors = {p["name"]: p["color"] for p in model.players}
            self.flip_choices = [
                {"text": name, "code": name, "color": colors.get(name)}
                for name in model.flip_targets
            ]
            self.ids.pad_manager.current = "flip"
            return
        self._attempt(lambda: self.app.session.submit(Play(Card.parse(code))))

    def bounced(self, code: str) -> None:
        """A second tap on the same card within the bounce time logged nothing: said on
        the alert line, so two 10s played fast never leave the total 10 short unseen."""
        model = self.app.model
        model.notice = sentence(tr("tap_again", model.lang, card=card_name(code, model.lang)))

    def choose_slide(self) -> None:
        if "slide:0" in self.app.model.legal:
            self.ids.pad_manager.current = "slide"
        else:  # let the session say why a Slide is refused now
            self._attempt(lambda: self.app.session.submit(Play(Card.parse("slide:0"))))

    def play_slide(self, code: str) -> None:
        if self._attempt(lambda: self.app.session.submit(Play(Card.parse(code)))):
            self.show_pad()

    def play_flip(self, target: str) -> None:
        flip = Play(Card.parse("sorry"), target=target)
        if self._attempt(lambda: self.app.session.submit(flip)):
            self.show_pad()

    def press(self, name: str) -> None:
        self._attempt(lambda: self.app.session.submit(Press(name, self.app.session.clock())))

    def close_window(self) -> None:
        session = self.app.session
        window = session.state.window if session.state else None
        self._attempt(lambda: session.close_window(expected=window))

    def end_play2(self) -> None:
        self._attempt(lambda: self.app.session.submit(EndPlay2()))

    def undo(self) -> None:
        self._attempt(self.app.session.undo)

    def redo(self) -> None:
        self._attempt(self.app.session.redo)
