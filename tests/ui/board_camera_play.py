"""The board camera on the real app: a recorded game of our own board print (seeds < 1000,
small frames) written to a folder source, the board's model taught from its teach photo
into the data folder, and the frames handed to the worker one draw at a time: the frames
of a draw are read only once the test has drawn its card by touch (an event awaited)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cv2

from camera.sources import FolderSource
from games.board.camera.model import save, teach
from games.board.camera.scenes import BoardScene, Recording
from games.board.camera_watch import model_path


class DrawPacedFolder(FolderSource):
    """The folder's frames; the frames from a draw's on wait for `drawn(i)`, as the real
    camera's frames show the board only once the card is drawn."""

    def __init__(self, folder: Path, draw_frames: list[int]) -> None:
        super().__init__(folder)
        self.starts = {frame: i for i, frame in enumerate(draw_frames)}
        self.events = [threading.Event() for _ in draw_frames]
        self.shut = threading.Event()

    def drawn(self, i: int) -> None:
        self.events[i].set()

    def close(self) -> None:
        super().close()
        self.shut.set()

    def frames(self) -> Iterator[Any]:
        for n, frame in enumerate(super().frames()):
            if n in self.starts:
                while not self.events[self.starts[n]].wait(0.5):
                    if self._closed:
                        return
            if self._closed:
                return
            yield frame
        # a camera does not run out of frames: the last one stays until the app closes it
        # (the worker would otherwise end with the recording, a race with a test's checks)
        self.shut.wait()


def recorded(tmp_path: Path, data: Path, *, edition: str, draws: int, seed: int,
             staged: float = 0.0, size: tuple[int, int] = (480, 270)) -> Recording:
    """A recorded game from its start, its frames in tmp_path/frames, its board taught."""
    scene = BoardScene(seed=seed, size=size, edition=edition, colors=("red", "blue"))
    data.mkdir(parents=True, exist_ok=True)
    save(teach(scene.teach_photo(), edition, scene.colors), model_path(data))
    rec = scene.record(draws, seed=seed, staged=staged, into=False)
    folder = tmp_path / "frames"
    folder.mkdir()
    for i, frame in enumerate(rec.frames):
        cv2.imwrite(str(folder / f"{i:05d}.jpg"), frame, [cv2.IMWRITE_JPEG_QUALITY, 95])
    return rec
