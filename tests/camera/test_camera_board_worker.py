"""The board camera's worker feeding a real Session with a real journal, from the folder
source: each card drawn is tapped at its frame, as the scorekeeper would, and every move
the board then shows is logged by the camera, undone like a tap's."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cv2

from camera.sources import FolderSource
from companion.session import Session
from games.board.camera.model import teach
from games.board.camera.scenes import BoardScene
from games.board.camera.worker import BoardCameraWorker, BoardListener
from games.board.rules.moves import generate
from games.board.rules.position import Position


class TappedDraws(FolderSource):
    """The folder's frames; before the frame a card was drawn at, its draw is tapped."""

    def __init__(self, folder: Path, session: Session, draws: dict[int, str]) -> None:
        super().__init__(folder)
        self.session, self.draws = session, draws

    def frames(self) -> Iterator[Any]:
        for i, frame in enumerate(super().frames()):
            if i in self.draws:
                self.session.submit(self.session.parse_event(
                    {"type": "draw", "card": self.draws[i]}))
            yield frame


def test_moves_seen_are_played_through_the_session_and_journalled(tmp_path: Path) -> None:
    scene = BoardScene(seed=31, size=(480, 270), edition="2016", colors=("red", "blue"))
    model = teach(scene.teach_photo(), "2016", scene.colors)
    rec = scene.record(8, seed=2, staged=0.0, into=False)
    folder = tmp_path / "frames"
    folder.mkdir()
    for i, frame in enumerate(rec.frames):
        cv2.imwrite(str(folder / f"{i:05d}.jpg"), frame, [cv2.IMWRITE_JPEG_QUALITY, 95])
    session = Session(Session.open_journal(tmp_path))
    session.new_game(Session.setup(rec.setup))
    logged: list[Any] = []
    done = threading.Event()
    source = TappedDraws(folder, session, {t.frame: t.card for t in rec.truths})
    worker = BoardCameraWorker(session, source, model, BoardListener(
        logged=lambda judged, result: logged.append(result), stopped=lambda why: done.set()))
    worker.start()
    assert done.wait(120) and not worker.is_alive()
    played = [t for t in rec.truths if t.kind is not None]
    assert played and [r.event.to_json()["legs"] for r in logged] == [t.legs for t in played]
    last = played[-1]
    (option,) = [o for o in generate(Position.parse({"edition": "2016", "pawns": last.pawns}),
                                     last.card, last.color)
                 if o.kind == last.kind and [list(leg) for leg in o.legs] == last.legs]
    assert session.update.state.position.pawns_json() == {
        c: list(ps) for c, ps in option.pawns.items()}
    session.undo()  # the camera's move is undone like a tap's
    assert session.update.state.card == last.card
    session.close()
