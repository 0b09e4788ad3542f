"""The live game: the one door the UI and the hardware use, whatever the game.

A Session is thread-safe (GPIO callbacks, the LED board and window timers call it from
their own threads), makes every accepted event durable in the journal *before* it
changes the state or tells anyone (with `background=True`: applies it and tells at once,
and its journal writer thread makes it durable behind, see companion.journal_writer),
and tells its listeners about each change with an immutable `Update`: the state, the
result, the undo and redo steps and the options (the events the rules accept now).
Its lock, game, journal and window timer are its own; callers use its methods.

Listeners are called in the submitting thread, in event order, with the session's lock
held: they must only hand the update on (Kivy's `Clock.schedule_once`, a queue) and never
block. Every refusal is a CompanionError (journal failures a JournalError) whose message
can be shown as it is.

>>> s = Session()
>>> s.new_game(s.setup({"type": "setup", "players": ["Ana", "Ben"]})).game
'revenge'
>>> s.submit(s.parse_event({"type": "play", "card": "7"})).kind.value, s.update.state.total
('applied', 7)
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, cast

from companion.errors import JournalError, NoGame
from companion.game import (
    By,
    CoreEvent,
    Game,
    Redo,
    Result,
    ResultKind,
    SomeGame,
    Step,
    StoredReplay,
    Undo,
    read_event,
    read_setup,
)
from companion.live import Live, typed_update
from companion.rules import Countdown, GameSummary, Json, JsonEvent, SomeRules
from companion.stats import GameStats, PlayerStats, aggregate, counted, game_stats, replay_events
from companion.update import Listener, Update
from companion.windows import WindowTimer

__all__ = [
    "AnyResult", "AnyUpdate", "By", "CoreEvent", "JournalLike", "JsonEvent", "Listener", "Live",
    "NoGame", "Preview", "Redo", "Result", "ResultKind", "Session", "Step", "Undo", "Update",
    "typed_update",
]

if TYPE_CHECKING:
    from companion.datalock import DataLock
    from companion.journal import GameRecord, Journal, StoredGame
    from companion.journal_writer import JournalWriter
    from companion.session_background import Background
    from companion.snapshots import Resumable

# What any game's session hands out: the dynamic side serves every game, so it knows
# their states and events as objects only (a game's own parts: companion.live.Live).
AnyUpdate = Update[object, JsonEvent]
AnyResult = Result[object, JsonEvent]
# Game.view() of any game: its state, history, undo and redo steps
GameView = tuple[object, Sequence[Step[object, JsonEvent]], Step[object, JsonEvent] | None,
                 Step[object, JsonEvent] | None]

log = logging.getLogger(__name__)
_new = tuple.__new__
assert Update._fields == ("game_id", "game", "state", "result", "steps", "undo", "redo",
                          "options", "summary", "damage", "unsaved")  # built by _notify
# The history waits at most this long for events still being written (a Pi's SD card
# syncs in 5-100 ms), so the game just finished is counted with its last round.
READ_AFTER_WRITES_S = 2.0
# The app's `write_settle`: a tap's event is written this long after it, so its frame is
# drawn first with the core and the GIL to itself (a Pi core is about 4x slower; the frame
# takes 10-25 ms there). A power cut can lose this much more of what was shown.
APP_WRITE_SETTLE_S = 0.05


class JournalLike(Protocol):
    """What the session needs from a journal (companion.journal.Journal is the real one)."""

    def start_game(self, setup: Json) -> int: ...

    def append(self, game_id: int, event: Json) -> None: ...

    def set_result(self, game_id: int, winner: str | None) -> None: ...

    def set_aside(self, game_id: int, seq: int, why: str) -> str: ...


@dataclass(frozen=True, slots=True)
class Preview:
    """A stored game before it is opened (the resume screen): its state as far as it
    replays, and why it stops early (None: it does not)."""

    game_id: int
    state: object | None
    damage: str | None
    last_step: Step[object, JsonEvent] | None = None  # the newest saved event in effect (undo)
    game: str | None = None  # its game's name (the rules'), for the game's own words

    def last_words(self, lang: str = "en") -> str | None:
        """The newest saved event in the words of `lang` (companion.resume_words)."""
        from companion.resume_words import step_words

        step = self.last_step
        return None if step is None else step_words(step.event, step.before, lang, self.game)

    @property
    def last(self) -> str | None:
        return self.last_words()


class Session:
    def __init__(self, journal: Journal | None = None, *,
                 clock: Callable[[], float] = time.monotonic,
                 window_seconds: Mapping[str, float] | None = None,
                 background: bool = False, write_settle: float = 0.0) -> None:
        """`journal`: a Journal (None: nothing is kept, for demos and tests).
        `window_seconds`: {"steal": s, "block": s} starts the window timer, which closes a
        window when its time is up; None leaves closing to the table.
        `background`: the screen never waits for the disk: events are applied and told at
        once and a journal writer thread (`writer`) makes them durable, in order, each
        `write_settle` seconds after it was accepted at the earliest (JournalWriter)."""
        self._journal = journal
        self.clock = clock
        self._lock = threading.RLock()
        self._game: SomeGame | None = None
        self._game_id: int | None = None
        self._damage: str | None = None
        self._update: AnyUpdate | None = None
        # a tuple, so that telling them needs no copy (one may unsubscribe while told)
        self._listeners: tuple[Listener, ...] = ()
        self._hooks: _Hooks | None = None  # made for the first helper (see `hooks`)
        self._background: Background | None = None
        # the game preview() rebuilt, for the next resume() while no game is open: the Resume
        # tap then opens it without reading and checking the journal a second time
        self._previewed: tuple[int, StoredReplay] | None = None
        if background and journal is not None:
            from companion.session_background import Background

            self._background = Background(self.hooks(), journal, settle=write_settle)
        self._timer = None if window_seconds is None else WindowTimer(
            self.hooks(), window_seconds, clock=clock)

    @staticmethod
    def open_journal(data_dir: str | os.PathLike[str]) -> Journal:
        """The journal of `data_dir` (created with its folder if need be), to give to a
        Session; its owner closes it. JournalError says what is wrong with the folder."""
        from companion.journal import Journal

        return Journal.open(data_dir)

    @staticmethod
    def lock_data_folder(data_dir: str | os.PathLike[str]) -> DataLock:
        """Take the data folder (created if need be) for this app alone until `release()`
        (companion.datalock); DataFolderBusy says who holds it."""
        from companion.datalock import DataLock
        from companion.journal import Journal

        return DataLock(Journal.prepare_folder(data_dir)).acquire()

    # --- observing ---

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call `listener` after every change; returns a function that unsubscribes."""
        with self._lock:
            self._listeners = (*self._listeners, listener)

        def unsubscribe() -> None:
            with self._lock:
                listeners = list(self._listeners)
                if listener in listeners:
                    listeners.remove(listener)
                    self._listeners = tuple(listeners)

        return unsubscribe

    def _notify(self, result: AnyResult | None, unsaved: str | None = None,
                summary: GameSummary | None = None) -> AnyUpdate:
        """Tell every listener; `summary`: the state's, when the caller has it already."""
        game = self._game
        assert game is not None
        view: GameView = game.view()  # any game's: its types as the core knows them
        state, history, undo, redo = view
        rules = game.rules
        options: tuple[JsonEvent, ...] = tuple(rules.options(state))
        # built with tuple.__new__, every field given: Update's own __new__ is a Python call
        update: AnyUpdate = _new(Update, (
            self._game_id, rules.name, state, result, history, undo, redo, options,
            rules.summary(state) if summary is None else summary, self._damage, unsaved))
        self._update = update
        for listener in self._listeners:  # a tuple, replaced (never changed) by subscribe
            listener(update)
        return update

    @property
    def lock(self) -> AbstractContextManager[object]:
        """The session's own lock (reentrant): a caller that checks the open game and then
        submits holds it across both (companion.live)."""
        return self._lock

    @property
    def update(self) -> AnyUpdate | None:
        """The latest update (None until a game is started or resumed)."""
        return self._update

    @property
    def state(self) -> object | None:
        update = self._update
        return None if update is None else update.state

    @property
    def game_id(self) -> int | None:
        return self._game_id

    @property
    def damage(self) -> str | None:
        """What opening the game had to set aside, in one sentence (None: nothing)."""
        return self._damage

    @property
    def writer(self) -> JournalWriter | None:
        """The journal writer thread (background sessions): its lag, flush, listeners."""
        return None if self._background is None else self._background.writer

    def saving(self) -> bool:
        """True while durability lags more than journal_writer.LAG_MARK_S (250 ms): the
        screen shows its small "saving" mark."""
        if self._background is None:
            return False
        from companion.journal_writer import LAG_MARK_S

        return self._background.writer.lag() > LAG_MARK_S

    @property
    def rules(self) -> SomeRules | None:
        game = self._game
        return None if game is None else game.rules

    # --- starting ---

    @staticmethod
    def setup(obj: Json) -> JsonEvent:
        """A setup object from its JSON (`"game"` picks the rules; default the card game)."""
        return read_setup(obj)

    def new_game(self, setup: JsonEvent, *, abandon: bool = False) -> AnyUpdate:
        """Start `setup`'s game. With `abandon` (the table's new-game button), an open game
        without a winner is marked abandoned in the journal: still listed as unfinished,
        never offered for resuming. Without it, that game stays resumable."""
        game = Game(setup)
        if self._background is not None:
            self._background.writer.flush()  # the last game's events are durable first
        with self._lock:
            old, state = self._game_id, self.state
            if (abandon and self._journal is not None and old is not None and state is not None
                    and not self._game_over()):
                self._journal.abandon(old)
            game_id = (self._journal.start_game(setup.to_json())
                       if self._journal else None)
            self._game, self._game_id, self._damage = game, game_id, None
            if self._background is not None:
                self._background.opened(game_id, 1)
            return self._notify(None)

    def _game_over(self) -> bool:
        game = self._game
        return game is not None and game.rules.summary(game.state).over

    def check_stored(self) -> None:
        """Check every stored game's events now (Journal.check_rows), the open one aside
        (checked when it was opened): damage in any game, a finished one too, is set aside
        and said at once (the journal's `damage`), not when History replays that game."""
        check: object = getattr(self._journal, "check_rows", None)
        game_id = self._game_id
        if callable(check):
            check(frozenset[int]() if game_id is None else frozenset[int]((game_id,)))

    def preview(self) -> Preview | None:
        """The journal's unfinished game (the newest without a winner, not abandoned)."""
        from companion.snapshots import Resumable

        stored = self._unfinished()
        if stored is None:
            return None
        if isinstance(stored, Resumable):  # found through its snapshot: no whole replay
            replayed = stored.replay()
            self._previewed = (stored.game_id, replayed)
            game = replayed.game
            assert game is not None  # a snapshot's game always rebuilds (snapshots.decode)
            return Preview(stored.game_id, game.state, stored.damage, game.undo_step,
                           game.rules.name)
        game, unplayable = replay_events(stored.events)
        damage = " ".join(d for d in (stored.damage, unplayable) if d) or None
        return Preview(stored.game_id, None if game is None else game.state, damage,
                       None if game is None else game.undo_step,
                       None if game is None else game.rules.name)

    def resume(self, game_id: int | None = None) -> AnyUpdate | None:
        """Open the journal's unfinished game (or game `game_id`) to play on; None when
        there is none. Its events that no longer replay are set aside (see open_game)."""
        journal = self._journal
        if journal is None:
            return None
        previewed, self._previewed = self._previewed, None
        if previewed is not None and self._game is None and game_id in (None, previewed[0]):
            return self.open_game(previewed[0], (), replayed=previewed[1])  # nothing written since
        stored = self._unfinished()  # through its snapshot, when it has one
        if game_id is not None and (stored is None or stored.game_id != game_id):
            stored = journal.load(game_id)
        if stored is None:
            return None
        from companion.snapshots import Resumable

        if isinstance(stored, Resumable):
            return self.open_game(stored.game_id, (), replayed=stored.replay())
        return self.open_game(stored.game_id, stored.events)

    def _unfinished(self) -> Resumable | StoredGame | None:
        """The newest unfinished game, through its snapshot when it has a usable one."""
        if self._journal is None:
            return None
        from companion.snapshots import load_unfinished

        return load_unfinished(self._journal)

    def open_game(self, game_id: int | None, events: Iterable[Json], *,
                  replayed: StoredReplay | None = None) -> AnyUpdate:
        """Rebuild a stored game from its journalled events (resume after a crash).

        An event that no longer replays (stored by an older version, or edited by hand)
        and everything after it are set aside in the journal, so the journal and the state
        agree again; `damage` says so. A game whose setup cannot be read is refused.
        `replayed`: the game already rebuilt (from a snapshot: companion.snapshots).
        """
        if replayed is None:
            replayed = Game.replay_stored(events)
        if replayed.game is None:
            assert replayed.error is not None
            raise replayed.error
        with self._lock:
            self._damage = None
            if replayed.error is not None:
                why = f"event {replayed.applied} no longer replays ({replayed.error})"
                if self._journal is not None and game_id is not None:
                    self._damage = self._journal.set_aside(game_id, replayed.applied, why)
                else:
                    self._damage = f"the game stops before {why}"
            self._game, self._game_id = replayed.game, game_id
            if self._background is not None:
                self._background.opened(game_id, replayed.applied)
            summary = replayed.game.rules.summary(replayed.game.state)
            if summary.over:  # killed between the winning event and its result
                self._record_result(summary.winner)
            return self._notify(None, summary=summary)

    # --- events ---

    def submit(self, event: JsonEvent, by: By = "touch") -> AnyResult:
        """Apply one event: refuse it unchanged, or journal it durably, then apply it.
        `by`: where it came from (a button, the camera), kept in its step."""
        lock = self._lock
        lock.acquire()  # (`with`'s __enter__ and __exit__ cost twice this pair, per tap)
        try:
            game = self._game
            if game is None:
                raise NoGame("no game is open; start a new game first", code="no_game")
            before = self._update  # the state's summary, worked out when it was told
            rules = game.rules
            winner_before = (before.summary.winner if before is not None
                             and before.state is game.state
                             else rules.summary(game.state).winner)
            result = game.evaluate(event, by)
            if self._background is not None and self._game_id is not None:
                self._background.accept(game, self._game_id, result)
            elif self._journal is not None and self._game_id is not None:
                self._journal.append(self._game_id, event.to_json())
                game.accept(result)
            else:
                game.accept(result)
            summary = rules.summary(result.state)  # (the state the result left)
            if summary.winner != winner_before:
                self._record_result(summary.winner)
            self._notify(result, None, summary)
            return result
        finally:
            lock.release()

    def parse_event(self, obj: Json) -> JsonEvent:
        """An event of the open game from its JSON (a transcript line, undo and redo too),
        to `submit`; BadEvent names what is wrong. Callers that know the game build its
        typed events instead (companion.games.<game>: `Play(Card.parse("7"))`)."""
        rules = self.rules
        if rules is None:
            raise NoGame("no game is open; start a new game first", code="no_game")
        return read_event(rules, obj)

    def _record_result(self, winner: str | None) -> None:
        """Write the winner (or None again after an undo) to the game's journal row.

        The events are the record; the result row only speeds up history. So a failure
        here is logged, not raised: the event is saved and applied, and the result is
        written again the next time the game is opened.
        """
        if self._journal is None or self._game_id is None:
            return
        if self._background is not None:
            self._background.writer.set_result(self._game_id, winner)
            return
        try:
            self._journal.set_result(self._game_id, winner)
        except JournalError as exc:
            log.warning("could not record the game's result: %s", exc)

    def close_window(self, expected: object = None, by: By = "touch") -> AnyResult | None:
        """Close the open window; with `expected` (a state's window), only if that very
        window is still open (a countdown or a tap that comes too late does nothing)."""
        with self._lock:
            game = self._game
            timed = None if game is None else self._countdown(game.state)
            if expected is not None and (timed is None or timed.window is not expected):
                return None
            if timed is None:  # no countdown: the rules say why nothing can close now
                close: dict[str, object] = {"type": "close"}
                return self.submit(self.parse_event(close), by)
            return self.submit(timed.close, by)

    def _countdown(self, state: object) -> Countdown | None:
        """The window of `state` the rules time by the clock, if they have countdowns."""
        return _countdown_of(self.rules, state)

    def hooks(self) -> _Hooks:
        """What the session's own helpers (window timer, background writer) may use of it.
        Made when the first helper is: it refers back to the session, so a session with
        no helper stays free of reference cycles (freed at once when dropped)."""
        if self._hooks is None:
            self._hooks = _Hooks(self)
        return self._hooks

    def undo(self, by: By = "touch") -> AnyResult:
        return self.submit(Undo(), by)

    def redo(self, by: By = "touch") -> AnyResult:
        return self.submit(Redo(), by)

    # --- the window timer ---

    def set_window_seconds(self, kind: str, seconds: float) -> None:
        """How long windows of `kind` ("steal", "block") stay open from now on."""
        with self._lock:
            if self._timer is None:
                self._timer = WindowTimer(self.hooks(), {kind: seconds}, clock=self.clock)
            else:
                self._timer.seconds[kind] = seconds

    def window_seconds(self) -> dict[str, float]:
        timer = self._timer
        return {} if timer is None else dict(timer.seconds)

    def remaining(self) -> float | None:
        """Seconds left before the open window closes by itself (None: no countdown)."""
        timer = self._timer
        return None if timer is None else timer.remaining()

    def close(self) -> None:
        """Stop the window timer and write what is still in flight (the app is quitting);
        safe to call twice."""
        timer = self._timer
        if timer is not None:
            timer.stop()
        if self._background is not None:
            self._background.writer.close()

    # --- the record ---

    def game_stats(self) -> GameStats | None:
        """The open game's figures from its effective history."""
        with self._lock:
            return None if self._game is None else game_stats(self._game)

    def stored_stats(self, cache: dict[int, GameStats] | None = None
                     ) -> list[tuple[GameRecord, GameStats | None]]:
        """(record, figures or None) for every stored game, oldest first. `cache` keeps
        finished games' figures between calls (a finished game never changes). An
        unfinished or abandoned game has no figures: it is listed, never counted
        (stats.counted)."""
        journal = self._journal
        if journal is None:
            return []
        writer = self.writer
        if writer is not None:  # the open game's last events and result may be in flight
            writer.flush(READ_AFTER_WRITES_S)
        listing: list[tuple[GameRecord, GameStats | None]] = []
        for record in journal.games():
            if not counted(record):
                listing.append((record, None))
                continue
            figures = None if cache is None else cache.get(record.game_id)
            if figures is None:
                game, _why = replay_events(journal.load(record.game_id).events)
                figures = None if game is None else game_stats(game)
                if figures is not None and cache is not None and record.winner is not None:
                    cache[record.game_id] = figures
            listing.append((record, figures))
        return listing

    @staticmethod
    def leaders(figures: list[GameStats]) -> list[PlayerStats]:
        """Totals per player over games, best first (companion.stats.aggregate)."""
        return aggregate(figures)


def _countdown_of(rules: object, state: object) -> Countdown | None:
    """`rules.countdown(state)` for rules that time windows (None for the others): read
    with getattr, as an object, not by a runtime Protocol's isinstance (5-10 us, and the
    window timer asks on every event)."""
    countdown: object = getattr(rules, "countdown", None)
    found = cast(Callable[[object], object], countdown)(state) if callable(countdown) else None
    return found if isinstance(found, Countdown) else None


class _Hooks:
    """All the session's helpers may do with it (companion.windows.WindowHost,
    companion.session_background.GameHost), instead of reaching into its attributes."""

    __slots__ = ("_session", "lock")

    def __init__(self, session: Session) -> None:
        self._session = session
        self.lock = session._lock

    def latest(self) -> AnyUpdate | None:
        return self._session.update

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        return self._session.subscribe(listener)

    def countdown(self, state: object) -> Countdown | None:
        return self._session._countdown(state)

    def close_window(self, expected: object) -> None:
        self._session.close_window(expected=expected, by="timer")

    def game(self) -> SomeGame | None:
        return self._session._game

    def roll_back(self, game: SomeGame, why: str) -> None:
        """The writer lost events: play on from `game` and tell everyone `why`."""
        self._session._game = game
        self._session._notify(None, unsaved=why)
