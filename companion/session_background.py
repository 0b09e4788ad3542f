"""The session's side of its journal writer: positions, snapshots and the way back.

Session.submit (under the session's lock) hands each accepted event here: it is applied
at once and queued for the writer's thread with its position in the game, and, every
`snapshots.EVERY` events or when a round ends, with a snapshot encoded on that thread.
When the writer reports a failed write, the game goes back to the last durable event
and the listeners hear why in one sentence (`Update.unsaved`).
"""

from __future__ import annotations

import contextlib
import logging
from functools import partial
from typing import TYPE_CHECKING, Protocol

from companion import snapshots
from companion.errors import JournalError
from companion.game import Result, SomeGame
from companion.journal_writer import InFlight, JournalWriter
from companion.rules import JsonEvent

if TYPE_CHECKING:
    from companion.journal import Journal

log = logging.getLogger(__name__)


def _round(state: object) -> object:
    """The round a state is in, for games that have rounds (None: snapshots by count)."""
    found: object = getattr(state, "round", None)
    return found


class GameHost(Protocol):
    """What the writer's side needs of its session when a write fails: its lock, its game,
    and a way to go back to the last saved event and say why."""

    @property
    def lock(self) -> contextlib.AbstractContextManager[object]: ...

    def game(self) -> SomeGame | None: ...

    def roll_back(self, game: SomeGame, why: str) -> None: ...


class Background:
    def __init__(self, session: GameHost, journal: Journal, *, settle: float = 0.0) -> None:
        self.session = session
        self.writer = JournalWriter(journal, settle=settle)
        self.inflight = InFlight()
        self.game_id: int | None = None
        self.next_seq = 0
        self.since_snapshot = 0
        self.writer.subscribe(durable=self._durable, failure=self._failed)

    def opened(self, game_id: int | None, next_seq: int) -> None:
        """A new or resumed game, with events 0..next_seq-1 in the journal."""
        self.game_id, self.next_seq, self.since_snapshot = game_id, next_seq, 0
        self.inflight.reset()
        if game_id is not None:
            self.writer.begin(game_id, next_seq)

    def accept(self, game: SomeGame, game_id: int, result: Result[object, JsonEvent]) -> None:
        """Apply the evaluated event now; queue it to be made durable."""
        if self.writer.closed:  # the app is quitting: refuse it unchanged
            raise JournalError("the journal is closing, so the event was not saved")
        seq = self.next_seq
        round_before = _round(game.state)
        self.inflight.submitted(game, seq, result.event)
        game.accept(result)
        self.next_seq = seq + 1
        self.since_snapshot += 1
        state, snapshot = game.state, None
        if self.since_snapshot >= snapshots.EVERY or _round(state) != round_before:
            done, undone = game.tail(snapshots.UNDO_DEPTH)
            snapshot = partial(snapshots.encode, state, done, undone)
            self.since_snapshot = 0
        self.writer.append(game_id, seq, result.event.to_json(), snapshot)

    # --- the writer's thread ---

    def _durable(self, game_id: int, seq: int) -> None:
        if game_id == self.game_id:
            self.inflight.durable(seq)

    def _failed(self, game_id: int, seq: int, error: JournalError) -> None:
        session = self.session
        with session.lock:
            game = session.game()
            if game_id != self.game_id or game is None:
                log.warning("game %s: event %s could not be saved: %s", game_id, seq, error)
                return
            self.next_seq, self.since_snapshot = seq, 0
            why = (f"the game went back to event {seq - 1}, the last one saved, because "
                   f"{error}")
            log.warning("game %s: %s", game_id, why)
            session.roll_back(self.inflight.rollback(game, seq), why)
