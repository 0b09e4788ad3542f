"""Where frames come from: one interface, three backends (like gpiozero's pin factories).

- FolderSource: a folder of PNG/JPEG frames in name order (tests, `camera watch`, and a
  recording played back); first-class, not a test double;
- OpenCVSource: any V4L2 webcam through OpenCV;
- PiCameraSource: a Raspberry Pi camera through picamera2 (Raspberry Pi OS's
  python3-picamera2, reached from the venv with --system-site-packages).

`open_source(spec)` picks one from the config's `source`: "picamera", "usb" / "usb:N"
(V4L2 device N), or a folder path.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any, Protocol

from camera.image_limits import WATCH_WIDTH
from companion.safe_text import quote_path

PHOTO_SUFFIXES = (".png", ".jpg", ".jpeg")


class SourceError(RuntimeError):
    """A camera or folder that cannot give frames, in one sentence."""


class FrameSource(Protocol):
    def frames(self) -> Iterator[Any]:
        """BGR frames (numpy arrays) until the source ends or is closed."""
        ...

    def close(self) -> None: ...


class FolderSource:
    """A folder's PNG/JPEG frames in name order, all of one size (a fixed camera's): each
    read by camera.image_file, so a FIFO, a huge or foreign file is one sentence."""

    def __init__(self, folder: str | Path) -> None:
        root = Path(folder)
        if not root.is_dir():
            raise SourceError(f"{quote_path(str(root))} is not a folder of frames")
        self.files = sorted(p for p in root.iterdir() if p.suffix.lower() in PHOTO_SUFFIXES)
        if not self.files:
            raise SourceError(f"{quote_path(str(root))} holds no PNG or JPEG frames")
        self._closed = False

    def frames(self) -> Iterator[Any]:
        from camera.files import UnusableFile
        from camera.image_file import read_image

        size: tuple[int, int] | None = None
        reduce = 1  # frames after the first are decoded this many times smaller
        for path in self.files:
            if self._closed:
                return
            try:
                image = read_image(path, "frame", reduce)
            except UnusableFile as exc:
                raise SourceError(str(exc)) from None
            h, w = image.shape[:2]
            if size is None:
                size = (w, h)
                reduce = decode_reduction(w)
            elif (w, h) != ((size[0] + reduce - 1) // reduce, (size[1] + reduce - 1) // reduce):
                if reduce > 1:  # its own size, to name it (read again whole: this once)
                    h, w = read_image(path, "frame").shape[:2]
                raise SourceError(f"{quote_path(str(path))} is {w}x{h} but the frames before it "
                                  f"are {size[0]}x{size[1]}; the frames of one folder come "
                                  "from one camera, at one size")
            yield image

    def close(self) -> None:
        self._closed = True


def decode_reduction(width: int) -> int:
    """By how much frames `width` wide are decoded smaller and still be at least
    WATCH_WIDTH wide: 2 from 1280 (1920x1080 -> 960x540), else 1."""
    return 2 if width >= 2 * WATCH_WIDTH else 1


class OpenCVSource:
    def __init__(self, device: int = 0, size: tuple[int, int] = (640, 480)) -> None:
        import cv2

        self._capture = cv2.VideoCapture(device, cv2.CAP_V4L2)
        if not self._capture.isOpened():
            raise SourceError(f"no webcam answers at /dev/video{device}; plug one in or set "
                              "[camera] source in the config")
        self._capture.set(cv2.CAP_PROP_FRAME_WIDTH, size[0])
        self._capture.set(cv2.CAP_PROP_FRAME_HEIGHT, size[1])
        self._closed = False

    def frames(self) -> Iterator[Any]:
        while not self._closed:
            ok, frame = self._capture.read()
            if not ok:
                raise SourceError("the webcam stopped giving pictures; check its cable")
            yield frame

    def close(self) -> None:
        self._closed = True
        self._capture.release()


class PiCameraSource:
    def __init__(self, size: tuple[int, int] = (640, 480)) -> None:
        from camera.extra import PICAMERA, import_problem

        problem = import_problem(PICAMERA)  # missing, broken, or refusing the venv's numpy
        if problem is not None:
            raise SourceError(problem.sentence())
        from picamera2 import Picamera2  # type: ignore[import-not-found]

        try:
            self._camera = Picamera2()
            config = self._camera.create_video_configuration(
                main={"size": size, "format": "BGR888"})
            self._camera.configure(config)
            self._camera.start()
        except (RuntimeError, IndexError, OSError) as exc:
            raise SourceError(f"the Pi camera did not start ({exc}); check its ribbon "
                              "cable and that it is enabled") from None
        self._closed = False

    def frames(self) -> Iterator[Any]:
        while not self._closed:
            yield self._camera.capture_array("main")

    def close(self) -> None:
        self._closed = True
        self._camera.stop()
        self._camera.close()


def open_source(spec: str) -> FrameSource:
    """The source named by the config's `[camera] source`."""
    if spec == "picamera":
        return PiCameraSource()
    if spec == "usb" or spec.startswith("usb:"):
        number = spec.partition(":")[2] or "0"
        if not number.isdigit():
            raise SourceError(f"camera source {spec!r}: write usb:N with N the /dev/videoN number")
        return OpenCVSource(int(number))
    return FolderSource(spec)
