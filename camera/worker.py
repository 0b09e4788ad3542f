"""The camera inside the app: a worker thread that logs each card it sees as a tap would.

Frames are read and judged on the worker's own thread, never the UI's: the app never
waits for the camera. A card seen for sure goes through `Session.submit` exactly as the
pad's tap (same event, same journal, same undo); the listener callbacks (called on the
worker thread: the UI hops to its own with Clock, as for the buttons) let the screen
label it "seen by the camera", highlight the candidates of a card it is not sure of, or
show a SORRY! steal / Don't Be SORRY! face as a check while the buttons decide.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from camera.cards import event_for
from camera.model import Model
from camera.sources import FrameSource, SourceError
from camera.watcher import Seen, Watcher
from companion.errors import CompanionError

log = logging.getLogger(__name__)
SEEN_BY_CAMERA = "seen by the camera"


@dataclass
class Listener:
    """What the camera tells the app, each called on the worker thread."""

    logged: Callable[[Seen, Any], None] = lambda seen, result: None  # a card submitted
    asked: Callable[[Seen], None] = lambda seen: None  # not sure: which of seen.candidates?
    check: Callable[[str], None] = lambda card: None  # steal/block face seen: shown only
    refused: Callable[[str], None] = lambda why: None  # the rules refused the card seen
    stopped: Callable[[str | None], None] = lambda why: None  # the source ended (None) or broke


class CameraWorker:
    """`start()` reads `source` on a daemon thread until `stop()` or the source ends."""

    def __init__(self, session: Any, source: FrameSource, model: Model,
                 listener: Listener | None = None) -> None:
        self.session, self.source, self.model = session, source, model
        self.listener = listener or Listener()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="camera", daemon=True)
        self.latest: Any = None  # the newest frame, for a preview (the camera is ours)

    def start(self) -> CameraWorker:
        self._thread.start()
        return self

    def stop(self, timeout: float | None = 5.0) -> None:
        self._stop.set()
        self.source.close()
        if self._thread.is_alive() and threading.current_thread() is not self._thread:
            self._thread.join(timeout)

    def join(self, timeout: float | None = None) -> None:
        self._thread.join(timeout)

    def _run(self) -> None:
        watcher = Watcher(self.model)
        why: str | None = None
        try:
            for frame in self.source.frames():
                if self._stop.is_set():
                    break
                self.latest = frame
                seen = watcher.feed(frame)
                if seen is not None:
                    self._seen(seen)
        except SourceError as exc:
            why = str(exc)
        except Exception as exc:  # the camera must never take the game down with it
            log.exception("the camera stopped")
            why = f"the camera stopped: {exc}"
        self.listener.stopped(why)

    def _seen(self, seen: Seen) -> None:
        if seen.card is None:
            self.listener.asked(seen)
            return
        self.submit(seen, seen.card)

    def submit(self, seen: Seen, card: str) -> None:
        """Log `card` (seen, or picked among the candidates) as the pad's tap would."""
        event = event_for(self.model.game, card)
        if event is None:
            self.listener.check(card)
            return
        try:
            result = self.session.submit(self.session.parse_event(event), by="camera")
        except CompanionError as exc:
            self.listener.refused(str(exc))
            return
        self.listener.logged(seen, result)


def start_from_config(session: Any, config: Any, game: str,
                      listener: Listener | None = None) -> CameraWorker | None:
    """The worker the app starts for `game` from `[camera]` (a companion Config), or None
    when the camera is off; SourceError / ModelError say in one sentence what is wrong."""
    from camera.model import load
    from camera.sources import open_source

    camera = config.camera
    if not camera.enabled:
        return None
    model = load(camera.model_file(config.data_dir, game))
    if camera.spot:
        x0, y0, x1, y1 = camera.spot
        model.spot = (x0, y0, x1, y1)
    return CameraWorker(session, open_source(camera.source), model, listener).start()
