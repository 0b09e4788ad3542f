"""The camera's live view for a screen: frames read on a worker thread, shown as a texture.

The worker keeps the newest full frame (the photo a tap takes) and a small copy with the
pile spot marked; the screen's Clock event uploads that copy to a Kivy texture. The UI
thread never reads the camera and never waits for it.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from typing import Any

from kivy.clock import Clock
from kivy.graphics.texture import Texture

SHOWN_WIDTH = 320  # the view's width in pixels: enough for a phone-sized preview
SPOT_BGR = (0, 200, 255)  # the pile spot's frame: amber, seen by every eye on a green table


class Preview:
    """`start()` reads `source` until `stop()`; `frame()` is the newest full frame;
    `texture` the newest view (UI thread); `shown` is called on the UI thread after each."""

    def __init__(self, source: Any, spot: tuple[float, float, float, float] | None = None,
                 shown: Callable[[], None] = lambda: None) -> None:
        self.source, self.spot, self.shown = source, spot, shown
        self.texture: Texture | None = None
        self.error: str | None = None
        self._lock = threading.Lock()
        self._frame: Any = None
        self._small: Any = None
        self._stop = threading.Event()
        self._arrived = threading.Event()
        self._upload = Clock.create_trigger(self._show)
        self._thread = threading.Thread(target=self._run, name="camera-preview", daemon=True)

    def start(self) -> Preview:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self.source.close()
        if self._thread.is_alive() and threading.current_thread() is not self._thread:
            self._thread.join(5.0)

    def frame(self) -> Any:
        with self._lock:
            return self._frame

    def wait_frame(self, timeout: float) -> bool:
        """Whether a frame has come (or the source ended) within `timeout` seconds."""
        self._arrived.wait(timeout)
        return self.frame() is not None

    def _run(self) -> None:
        from camera.sources import SourceError

        try:
            for frame in self.source.frames():
                if self._stop.is_set():
                    break
                small = _marked(frame, self.spot)
                with self._lock:
                    self._frame, self._small = frame, small
                self._arrived.set()
                self._upload()
        except SourceError as exc:
            self.error = str(exc)
            self._upload()
        self._arrived.set()

    def _show(self, _dt: float) -> None:
        with self._lock:
            small = self._small
        if small is not None:
            h, w = small.shape[:2]
            if self.texture is None or tuple(self.texture.size) != (w, h):
                self.texture = Texture.create(size=(w, h), colorfmt="rgb")
                self.texture.flip_vertical()
            self.texture.blit_buffer(small.tobytes(), colorfmt="bgr", bufferfmt="ubyte")
        self.shown()


class WorkerFrames:
    """The frames a running camera worker reads, as a source: the camera is opened once,
    by the worker, and a preview only looks over its shoulder (FEED_S apart)."""

    FEED_S = 0.2

    def __init__(self, worker: Any) -> None:
        self.worker = worker
        self._closed = threading.Event()

    def frames(self) -> Iterator[Any]:
        while not self._closed.wait(self.FEED_S):
            frame = self.worker.latest
            if frame is not None:
                yield frame

    def close(self) -> None:
        self._closed.set()


def camera_config(app: Any) -> Any:
    """The app's `[camera]` table (its defaults when the app runs with no config)."""
    from companion.config import CameraConfig

    config = getattr(getattr(app, "link", None), "config", None)
    return getattr(config, "camera", None) or CameraConfig()


def camera_source(app: Any) -> Any:
    """Where a screen's view reads from: the game's running camera worker, or the camera
    of `[camera] source` opened for the screen (SourceError says why it cannot be)."""
    from camera.sources import open_source

    worker = getattr(getattr(app, "camera", None), "worker", None)
    if worker is not None:
        return WorkerFrames(worker)
    return open_source(camera_config(app).source)


def _marked(frame: Any, spot: tuple[float, float, float, float] | None) -> Any:
    """A small copy of `frame` with the pile spot framed."""
    import cv2

    h, w = frame.shape[:2]
    small = cv2.resize(frame, (SHOWN_WIDTH, max(1, round(h * SHOWN_WIDTH / w))),
                       interpolation=cv2.INTER_AREA)
    if spot is not None:
        sh, sw = small.shape[:2]
        x0, y0, x1, y1 = spot
        cv2.rectangle(small, (int(x0 * sw), int(y0 * sh)), (int(x1 * sw) - 1, int(y1 * sh) - 1),
                      SPOT_BGR, 2)
    return small
