"""The table as Kivy properties: the one thing the screens bind to.

Session listeners run in whatever thread submitted the event (a GPIO callback, a window
timer) with the session's lock held, so `_listen` only queues the update and fires a
Clock trigger; everything else here runs on the Kivy thread. The trigger runs before the
next frame is drawn, so a tap's new total is on the very next frame.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable
from typing import Any

from kivy.clock import Clock
from kivy.properties import (
    BooleanProperty,
    ListProperty,
    NumericProperty,
    ObjectProperty,
    StringProperty,
)

from companion.session import (
    AnyUpdate,
    Live,
    Result,
    ResultKind,
    Session,
    Update,
    typed_update,
)
from games.revenge.rules import (
    RULES,
    Awaiting,
    Cause,
    Event,
    GameState,
    Happening,
    Play,
    Tiebreak,
    flip_targets,
    legal_cards,
    outcomes_of,
)
from games.revenge.screens.wording import card_name, outcome_message, spoken, step_label
from ui.gamemodel import GameModel
from ui.i18n import tr
from ui.wording import sentence, sentences

RECENT_CARDS = 6
COUNTDOWN_PERIOD = 0.2
BUST_SHOW_S = 1.5  # how long "23 - BUST" stays in the total's place

Speaker = Callable[[str, str], None]
PLAYING = ("table", "tiebreak")  # the phases of a game in play (not none, not over)


def pawn_laps(progress: int, pawns: int) -> list[int]:
    """Each pawn card's laps (R11): 0 START side up, 1 HOME side up, 2 back on START
    after the longer game's second lap. Progress flips the cards HOME one by one, then
    (past P) back to START in the same order, so progress 1 and 3 of 2 pawns differ:
    [HOME, START] and [START ✓, HOME]."""
    return [2 if progress - pawns > i else 1 if progress > i else 0 for i in range(pawns)]


class TableModel(GameModel):
    phase = StringProperty("none")  # none, table, tiebreak, over
    revision = NumericProperty(0)  # +1 on every refresh

    total = NumericProperty(0)
    total_text = StringProperty("0")  # the total, or "23 - BUST" for BUST_SHOW_S after one
    busting = BooleanProperty(False)
    recent = StringProperty("")
    round_text = StringProperty("")
    draw_text = StringProperty("")
    players = ListProperty([])
    turn_text = StringProperty("")
    next_text = StringProperty("")
    turn_color = StringProperty("")
    direction = NumericProperty(1)
    direction_text = StringProperty("")

    awaiting = StringProperty("")
    window_title = StringProperty("")
    window_detail = StringProperty("")
    window_close_text = StringProperty("")
    # what the open window's countdown leads to, on the message line while it says nothing
    unanswered = StringProperty("")
    countdown = StringProperty("")
    pressers = ListProperty([])
    owed = NumericProperty(0)
    owed_text = StringProperty("")
    legal = ObjectProperty(frozenset())
    flip_targets = ListProperty([])

    warning = StringProperty("")
    notice = StringProperty("")

    tiebreak_rows = ListProperty([])
    tiebreak_next = StringProperty("")
    winner = StringProperty("")

    def __init__(
        self,
        session: Session,
        *,
        remaining: Callable[[], float | None] | None = None,
        speak: Speaker | None = None,
        **kwargs: object,
    ) -> None:
        self.session = session
        self.live = Live(session, RULES)  # the card game's typed door
        self.remaining = remaining or (lambda: None)
        self.speak = speak
        self._inbox: deque[AnyUpdate] = deque()
        self._drain_trigger = Clock.create_trigger(self._drain, -1)
        self._countdown_event = None
        self._replaced: tuple[object, str, int] | None = None  # (window, name, ms)
        self.bust_seconds = BUST_SHOW_S
        self._bust: int | None = None  # the total that busted, while it is shown
        self._bust_event: Any = None
        super().__init__(**kwargs)
        self._unsubscribe = session.subscribe(self._listen)

    # --- from any thread ---

    def _listen(self, update: AnyUpdate) -> None:
        """Session listener: queue and wake the Kivy thread; never touch properties here."""
        self._inbox.append(update)
        self._drain_trigger()

    # --- Kivy thread ---

    def on_phase(self, *_: object) -> None:
        self.in_play = self.phase in PLAYING

    def close(self) -> None:
        self._unsubscribe()
        if self._countdown_event is not None:
            self._countdown_event.cancel()
        if self._bust_event is not None:  # properties stay: kv must not re-read app now
            self._bust_event.cancel()

    def _drain(self, *_: object) -> None:
        while self._inbox:
            update = typed_update(self._inbox.popleft(), RULES)
            if update is None:
                continue  # a board game: games.board.screens.model shows it
            if update.result is None:  # a new or resumed game, or back to the last saved
                self._show_bust(None)
                self.warning = self.notice = ""
                damage = update.damage
                self.message = sentence(tr("damage", self.lang, damage=damage)) if damage else ""
                if update.unsaved:
                    self.message = sentence(tr("unsaved", self.lang, why=update.unsaved))
            else:
                self._react(update.result, update.state)
        self.refresh()

    def _react(self, result: Result[GameState, Event], state: GameState) -> None:
        """Messages, warnings and voice for one accepted event."""
        lang = self.lang
        if result.kind is not ResultKind.IGNORED:  # the next card shows its own total
            outcomes = outcomes_of(result)
            busts = [o for o in outcomes if o.what is Happening.BUST]
            self._show_bust(int(busts[-1].value or 0) if busts else None)
        if result.kind in (ResultKind.UNDONE, ResultKind.REDONE):
            self.message = self.warning = self.notice = ""
            return
        messages: list[str] = []
        warning = notice = ""
        again = isinstance(result.event, Tiebreak)  # a tie after the totals: a tie again
        for outcome in outcomes_of(result):
            text = outcome_message(outcome, state, lang, after_tiebreak=again)
            if text:
                messages.append(text)
            if outcome.what is Happening.CALLER_REPLACED and outcome.seat is not None:
                self._replaced = (
                    state.window,
                    state.name(outcome.seat),
                    round((outcome.value or 0) * 1000),
                )
            elif outcome.what is Happening.TAKE2_SKIPPED and outcome.seat is not None:
                warning = sentence(
                    tr("take2_skipped", lang, name=state.name(outcome.seat),
                       n=int(outcome.value or 0))
                )
            elif outcome.what is Happening.RESHUFFLED:
                notice = sentence(tr("reshuffle", lang))
        if result.kind is ResultKind.IGNORED:
            self.message = sentences(messages)
            return
        self.message, self.warning, self.notice = sentences(messages), warning, notice
        if self.speak is not None:
            played = isinstance(result.event, Play)
            text = spoken(outcomes_of(result), state, played, lang)
            if text:
                self.speak(text, lang)

    def _show_bust(self, total: int | None) -> None:
        """Show `total` as "23 - BUST" in the total's place for `bust_seconds` (Kivy's
        Clock), instead of the 0 the new round starts from; None: back to the total."""
        if self._bust_event is not None:
            self._bust_event.cancel()
            self._bust_event = None
        self._bust = total
        if total is not None:
            self._bust_event = Clock.schedule_once(self._bust_over, self.bust_seconds)
        self._total_text()

    def _bust_over(self, *_: object) -> None:
        self._show_bust(None)

    def _total_text(self) -> None:
        self.busting = self._bust is not None
        if self._bust is not None:
            self.total_text = tr("bust_total", self.lang, total=self._bust)
        else:
            self.total_text = str(self.total)

    def on_lang(self, *_: object) -> None:
        self.message = self.warning = self.notice = ""
        self.refresh()

    def refresh(self, *_: object) -> None:
        """Recompute every property from the session's current game."""
        update = self.live.update  # immutable: read without the session's lock
        if update is None:
            self.phase = "none"
            return
        state = update.state
        legal = legal_cards(update.options) if state.running else frozenset()
        targets = flip_targets(update.options) if state.running else ()
        self._table(update, state)
        self.legal = legal
        self.flip_targets = list(targets)
        self._window(state)
        self._tiebreak(state)
        self.winner = "" if state.winner is None else state.name(state.winner)
        self.phase = "over" if state.over else ("tiebreak" if state.tiebreak else "table")
        self.revision += 1

    def _table(self, game: Update[GameState, Event], state: GameState) -> None:
        lang = self.lang
        self.total = state.total
        self._total_text()
        cards: list[str] = []
        for step in reversed(game.steps):  # lazy on a History: only the last few
            if step.before.round != state.round or len(cards) >= RECENT_CARDS:
                break
            if isinstance(step.event, Play):
                cards.append(card_name(step.event.card.code, lang))
        self.recent = "  ·  ".join(reversed(cards))
        self.round_text = tr("round", lang, n=state.round)
        self.draw_text = tr("draw_pile", lang, n=state.draw_pile)
        pawns, goal = state.setup.pawns, state.goal
        laps = [pawn_laps(p.progress, pawns) for p in state.players]
        self.players = [
            {
                "seat": p.seat,
                "name": p.name,
                "color": p.color.value,
                "homes": [lap == 1 for lap in laps[p.seat]],  # p.home of them
                "laps": laps[p.seat],
                "progress": p.progress,
                "goal": goal,
                "hand": tr("hand", lang, n=p.hand),
                "is_turn": state.running and p.seat == state.turn,
            }
            for p in state.players
        ]
        if state.running:
            self.turn_text = tr("turn", lang, name=state.name(state.turn))
            self.next_text = tr("next", lang, name=state.name(state.next_seat(state.turn)))
            self.turn_color = state.setup.colors[state.turn].value
        else:
            self.turn_text = self.next_text = self.turn_color = ""
        self.direction = state.direction
        self.direction_text = tr("forward" if state.direction > 0 else "reverse", lang)
        self.owed = state.owed
        self.owed_text = tr("play2_owed", lang, n=state.owed) if state.owed else ""
        undo, redo = game.undo, game.redo
        self.show_undo(None if undo is None else step_label(undo.event, undo.before, lang),
                       None if redo is None else step_label(redo.event, redo.before, lang),
                       undo_by_camera=undo is not None and undo.by == "camera")

    def _window(self, state: GameState) -> None:
        lang, w = self.lang, state.window
        self.awaiting = "" if state.awaiting is None else state.awaiting.value
        if w is None:
            self._replaced = None
            self.window_title = self.window_detail = self.window_close_text = ""
            self.unanswered = ""
            self.pressers = []
            self._stop_countdown()
            return
        if w.kind is Awaiting.STEAL:
            self.window_title = tr("steal_banner", lang, name=state.name(w.scorer))
            self.unanswered = tr("unanswered_steal", lang, name=state.name(w.scorer))
            self.window_detail = ""
            self.window_close_text = tr("no_call", lang)
            button = "sorry_button"
        else:
            victim = state.name(w.victim)
            if w.cause is Cause.STEAL and w.caller is not None:
                self.window_title = tr(
                    "block_banner_steal", lang, caller=state.name(w.caller), victim=victim
                )
                self.unanswered = tr("unanswered_steal_call", lang,
                                     caller=state.name(w.caller), victim=victim)
            else:
                self.window_title = tr(
                    "block_banner_flip", lang, scorer=state.name(w.scorer), victim=victim
                )
                self.unanswered = tr("unanswered_flip", lang, victim=victim)
            detail = tr("can_block", lang, victim=victim)
            if self._replaced is not None and self._replaced[0] is w:
                detail += "  ·  " + tr(
                    "replaced", lang, name=self._replaced[1], ms=self._replaced[2]
                )
            self.window_detail = detail
            self.window_close_text = tr("no_block", lang)
            button = "block_button"
        self.pressers = [
            {
                "name": state.name(s),
                "color": state.setup.colors[s].value,
                "text": tr(button, lang, name=state.name(s)),
            }
            for s in state.pressers()
        ]
        self._tick()
        if self._countdown_event is None:
            self._countdown_event = Clock.schedule_interval(self._tick, COUNTDOWN_PERIOD)

    def _tick(self, *_: object) -> None:
        """Seconds left; a window with no countdown (reopened by undo or redo, or no
        timer at all) says that it waits for a tap."""
        left = self.remaining()
        self.countdown = (
            tr("window_waiting", self.lang)
            if left is None
            else tr("seconds_left", self.lang, s=math.ceil(left))
        )

    def _stop_countdown(self) -> None:
        if self._countdown_event is not None:
            self._countdown_event.cancel()
            self._countdown_event = None
        self.countdown = ""

    def _tiebreak(self, state: GameState) -> None:
        tb = state.tiebreak
        if tb is None:
            self.tiebreak_rows, self.tiebreak_next = [], ""
            return
        self.tiebreak_rows = [
            {
                "name": state.name(s),
                "color": state.setup.colors[s].value,
                "total": "—" if t is None else str(t),
            }
            for s, t in zip(tb.tied, tb.totals, strict=True)
        ]
        pending = [state.name(s) for s, t in zip(tb.tied, tb.totals, strict=True) if t is None]
        self.tiebreak_next = pending[0] if pending else ""
