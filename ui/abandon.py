"""Asking before a running game is given up: Start (card game or board game) over a game
that has no winner yet opens a question with two big buttons. Giving up marks the game
abandoned in the journal (Session.new_game(..., abandon=True)): it stays in the history,
and the figures leave it out (companion.stats.counted)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.metrics import dp, sp
from kivy.uix.boxlayout import BoxLayout

from ui.i18n import tr
from ui.theme import GO_RGBA
from ui.widgets import FitLabel, GuardedView, TapButton

GIVE_UP_BG = (0.62, 0.16, 0.18, 1)


def running_players(app: Any) -> tuple[str, ...] | None:
    """The players of the open game while it has no winner (None: nothing to lose)."""
    session = app.session
    update, rules = session.update, session.rules
    if update is None or rules is None:
        return None
    summary = rules.summary(update.state)
    return None if summary.over else tuple(summary.players)


class ConfirmView(GuardedView):
    """A question with two big answers; TapButtons, so the touch guard covers them."""

    def __init__(
        self,
        question: str,
        keep: str,
        give_up: str,
        on_give_up: Callable[[], None],
        on_keep: Callable[[], None],
        **kwargs: Any,
    ) -> None:
        super().__init__(size_hint=(0.9, 0.8), auto_dismiss=False, **kwargs)
        box = BoxLayout(orientation="vertical", padding=dp(16), spacing=dp(14))
        self.question = FitLabel(text=question, max_font_size=sp(24))
        row = BoxLayout(size_hint_y=None, height=dp(96), spacing=dp(16))
        self.keep = TapButton(text=keep, code="confirm_keep", bold=True, bg=GO_RGBA,
                              max_font_size=sp(24))
        self.give_up = TapButton(text=give_up, code="confirm_give_up", bg=GIVE_UP_BG,
                                 max_font_size=sp(24))
        self.keep.bind(on_release=lambda *_: self._answer(on_keep))
        self.give_up.bind(on_release=lambda *_: self._answer(on_give_up))
        row.add_widget(self.keep)
        row.add_widget(self.give_up)
        box.add_widget(self.question)
        box.add_widget(row)
        self.add_widget(box)

    def _answer(self, then: Callable[[], None]) -> None:
        self.dismiss(animation=False)
        then()


def start_after_asking(app: Any, start: Callable[[], None]) -> ConfirmView | None:
    """Run `start` at once when no game is running; else ask first. "Keep playing" goes
    back to the running game; giving it up runs `start`. Returns the question shown."""
    players = running_players(app)
    if players is None:
        start()
        return None
    lang = app.lang
    view = ConfirmView(
        tr("confirm_abandon", lang, players=", ".join(players)),
        tr("confirm_keep", lang),
        tr("confirm_give_up", lang),
        on_give_up=start,
        on_keep=app.show_game,
    )
    view.open(animation=False)
    return view
