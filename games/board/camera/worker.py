"""The board camera inside the app: a thread that logs each move the board shows, as the
taps would (needs the extra).

Frames are read and judged on this thread, never the UI's: the app never waits for the
camera. Each frame it looks at the session: when a drawn card waits for its move (drawn
by the electronic deck, a tap, or the card camera), the watcher is told the position and
the card; a move the board shows for sure goes through `Session.submit` exactly as the
two taps' (the same `move` event, journal and undo; by "camera"). The listener callbacks
(on this thread: the UI hops to its own with Clock) let the screen light the options it
is unsure of, say a mismatch, or label a move "seen by the camera".
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from camera.sources import FrameSource, SourceError
from companion.errors import CompanionError
from games.board.camera.model import BoardModel
from games.board.camera.watch import BoardWatcher, Judgement

log = logging.getLogger(__name__)


@dataclass
class BoardListener:
    """What the board camera tells the app, each called on its thread."""

    logged: Callable[[Judgement, Any], None] = lambda judged, result: None
    asked: Callable[[Judgement], None] = lambda judged: None  # which of judged.candidates?
    mismatch: Callable[[Judgement], None] = lambda judged: None  # judged.mismatch: say it
    refused: Callable[[str], None] = lambda why: None  # the rules refused the move seen
    stopped: Callable[[str | None], None] = lambda why: None  # the source ended or broke


class BoardCameraWorker(threading.Thread):
    """`start()` reads `source` until `stop()` or the source ends."""

    def __init__(self, session: Any, source: FrameSource, model: BoardModel,
                 listener: BoardListener | None = None, fps: float = 5.0) -> None:
        super().__init__(name="board camera", daemon=True)
        self.session, self.source, self.model = session, source, model
        self.listener = listener or BoardListener()
        self.watcher = BoardWatcher(model, fps)
        self._stopping = threading.Event()
        self._waiting: tuple[Any, ...] | None = None  # the card waiting, and its position
        self._draws = 0

    def stop(self, timeout: float | None = 5.0) -> None:
        self._stopping.set()
        self.source.close()
        if self.is_alive() and threading.current_thread() is not self:
            self.join(timeout)

    def run(self) -> None:
        self.listener.stopped(self._watch())

    def _watch(self) -> str | None:
        """Watch until the source ends (None) or breaks (why, in one sentence)."""
        try:
            frames = iter(self.source.frames())
            while not self._stopping.is_set():
                frame = next(frames, None)
                if frame is None:
                    return None
                self._follow_the_game()
                judged = self.watcher.feed(frame)
                if judged is not None:
                    self._judged(judged)
        except SourceError as exc:
            return str(exc)
        except Exception as exc:  # the camera must never take the game down with it
            log.exception("the board camera stopped")
            return f"the board camera stopped: {exc}"
        return None

    def _follow_the_game(self) -> None:
        """Tell the watcher of a card newly waiting for its move (or of none waiting)."""
        update = self.session.update
        state: Any = None if update is None else update.state
        card = getattr(state, "card", None)
        waiting = None if card is None else (state.position, card, state.color)
        if waiting == self._waiting:
            return
        self._waiting = waiting
        if waiting is None:
            self.watcher.drawn(-1, None, "", "")
            return
        self._draws += 1
        self.watcher.drawn(self._draws, *waiting)

    def _judged(self, judged: Judgement) -> None:
        if judged.mismatch is not None:
            self.listener.mismatch(judged)
        elif judged.option is None:
            self.listener.asked(judged)
        else:
            self.submit(judged, judged.option)

    def submit(self, judged: Judgement, option: Any) -> None:
        """Log `option` (seen, or tapped among the candidates) as its two taps would."""
        try:
            result = self.session.submit(self.session.parse_event(option.event), by="camera")
        except CompanionError as exc:
            self.listener.refused(str(exc))
            return
        self.listener.logged(judged, result)
