"""The live game: the one API the UI and the hardware talk to.

A Session is thread-safe (GPIO callbacks, the LED board and window timers call it from
their own threads), makes every accepted event durable in the journal *before* it
changes the state or tells anyone, and tells its listeners about each change.

Listeners are called in the submitting thread, in event order, with the session's lock
held: they must only hand the update on (Kivy's `Clock.schedule_once`, a queue) and never
block. Every refusal is a CompanionError whose message can be shown as it is.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from companion.cards import ALL_CARDS, Card, CardKind
from companion.errors import CompanionError, IllegalEvent, JournalError
from companion.events import (
    Close,
    EndPlay2,
    Event,
    Play,
    Press,
    Redo,
    Setup,
    Tiebreak,
    Undo,
)
from companion.game import Game, Result, StoredReplay
from companion.state import GameState, Window

if TYPE_CHECKING:
    from companion.journal_writer import JournalWriter
    from companion.session_background import Background

log = logging.getLogger(__name__)


class JournalLike(Protocol):
    """What the session needs from a journal (companion.journal.Journal is the real one)."""

    def start_game(self, setup: dict[str, Any]) -> int: ...

    def append(self, game_id: int, event: dict[str, Any]) -> None: ...

    def set_result(self, game_id: int, winner: str | None) -> None: ...

    def set_aside(self, game_id: int, seq: int, why: str) -> str: ...


@dataclass(frozen=True, slots=True)
class Update:
    """What listeners receive: the result (None for a new or resumed game) and the state."""

    game_id: int | None
    state: GameState
    result: Result | None
    unsaved: str | None = None  # a failed write took the game back: why, in one sentence


Listener = Callable[[Update], None]


class NoGame(IllegalEvent):
    """An event arrived while no game is open."""


class Session:
    def __init__(self, journal: JournalLike | None = None, *,
                 clock: Callable[[], float] = time.monotonic,
                 writer: JournalWriter | None = None) -> None:
        """With a `writer` (companion.journal_writer), events are applied and shown at once
        and made durable by the writer's thread behind; without one, before (the default)."""
        self.journal = journal
        self.clock = clock
        self.lock = threading.RLock()
        self.game: Game | None = None
        self.game_id: int | None = None
        self.damage: str | None = None  # what open_game had to set aside, in one sentence
        self._listeners: list[Listener] = []
        self.writer = writer
        self._background: Background | None = None
        if writer is not None:
            from companion.session_background import Background

            self._background = Background(self, writer)

    # --- observing ---

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call `listener` after every change; returns a function that unsubscribes."""
        with self.lock:
            self._listeners.append(listener)

        def unsubscribe() -> None:
            with self.lock:
                if listener in self._listeners:
                    self._listeners.remove(listener)

        return unsubscribe

    def _notify(self, result: Result | None, unsaved: str | None = None) -> None:
        assert self.game is not None
        update = Update(self.game_id, self.game.state, result, unsaved)
        for listener in list(self._listeners):
            listener(update)

    @property
    def state(self) -> GameState | None:
        game = self.game
        return None if game is None else game.state

    # --- starting ---

    def new_game(self, setup: Setup) -> GameState:
        if self.writer is not None:
            self.writer.flush()  # the last game's events are durable before a new one starts
        with self.lock:
            game_id = self.journal.start_game(setup.to_json()) if self.journal else None
            self.game, self.game_id, self.damage = Game(setup), game_id, None
            if self._background is not None:
                self._background.opened(game_id, 1)
            self._notify(None)
            return self.game.state

    def open_game(self, game_id: int | None, events: Iterable[dict[str, Any]], *,
                  replayed: StoredReplay | None = None) -> GameState:
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
        with self.lock:
            self.damage = None
            if replayed.error is not None:
                why = f"event {replayed.applied} no longer replays ({replayed.error})"
                if self.journal is not None and game_id is not None:
                    self.damage = self.journal.set_aside(game_id, replayed.applied, why)
                else:
                    self.damage = f"the game stops before {why}"
            self.game, self.game_id = replayed.game, game_id
            if self._background is not None:
                self._background.opened(game_id, replayed.applied)
            state = self.game.state
            if state.winner is not None:
                self._record_result()  # killed between the winning event and its result
            self._notify(None)
            return state

    # --- events ---

    def submit(self, event: Event) -> Result:
        """Apply one event: refuse it unchanged, or journal it durably, then apply it."""
        with self.lock:
            game = self.game
            if game is None:
                raise NoGame("no game is open; start a new game first", code="no_game")
            was_over = game.state.winner
            result = game.evaluate(event)
            if self._background is not None and self.game_id is not None:
                self._background.accept(game, self.game_id, result)
            elif self.journal is not None and self.game_id is not None:
                self.journal.append(self.game_id, event.to_json())
                game.accept(result)
            else:
                game.accept(result)
            if game.state.winner != was_over:
                self._record_result()
            self._notify(result)
            return result

    def _record_result(self) -> None:
        """Write the winner (or None again after an undo) to the game's journal row.

        The events are the record; the result row only speeds up history. So a failure
        here is logged, not raised: the event is saved and applied, and the result is
        written again the next time the game is opened.
        """
        state = self.state
        if self.journal is None or self.game_id is None or state is None:
            return
        if self.writer is not None:
            self.writer.set_result(self.game_id, None if state.winner is None
                                   else state.name(state.winner))
            return
        try:
            self.journal.set_result(self.game_id, None if state.winner is None
                                    else state.name(state.winner))
        except JournalError as exc:
            log.warning("could not record the game's result: %s", exc)

    def play(self, card: str, target: str | None = None, player: str | None = None) -> Result:
        return self.submit(Play(Card.parse(card), player, target))

    def press(self, player: str, t: float | None = None) -> Result:
        """A SORRY! button or name tap; `t` is the edge time on `self.clock` (default now)."""
        return self.submit(Press(player, self.clock() if t is None else t))

    def close_window(self, expected: Window | None = None) -> Result | None:
        """Close the open window; with `expected`, only if that very window is still open."""
        with self.lock:
            state = self.state
            if expected is not None and (state is None or state.window is not expected):
                return None
            return self.submit(Close())

    def end_play2(self) -> Result:
        return self.submit(EndPlay2())

    def tiebreak(self, player: str, total: int) -> Result:
        return self.submit(Tiebreak(player, total))

    def undo(self) -> Result:
        return self.submit(Undo())

    def redo(self) -> Result:
        return self.submit(Redo())

    # --- what the UI asks ---

    def legal_cards(self) -> frozenset[str]:
        """Card codes the rules accept now (a SORRY! counts if any target, or none, works)."""
        with self.lock:
            game = self.game
            if game is None:
                return frozenset()
            state = game.state
            targets: list[str | None] = [None, *state.setup.players]
            legal = set()
            for card in ALL_CARDS:
                for target in targets if card.kind is CardKind.SORRY else [None]:
                    try:
                        game.evaluate(Play(card, None, target))
                    except CompanionError:
                        continue
                    legal.add(card.code)
                    break
            return frozenset(legal)

    def flip_targets(self) -> tuple[str, ...]:
        """Players a flip-back SORRY! may name now (empty: play it with no target).
        Asked of the engine, like legal_cards, so the rule lives in one place."""
        with self.lock:
            game = self.game
            if game is None:
                return ()
            sorry = Card.parse("sorry")
            targets = []
            for name in game.state.setup.players:
                try:
                    game.evaluate(Play(sorry, None, name))
                except CompanionError:
                    continue
                targets.append(name)
            return tuple(targets)
