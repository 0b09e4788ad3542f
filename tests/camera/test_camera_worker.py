"""The camera worker feeding a real Session with a real journal, from the folder source."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import cv2
import pytest

from bench.camera_scenes import Scene
from camera.cards import card_names
from camera.sources import FolderSource
from camera.teach import teach
from camera.worker import CameraWorker, Listener
from companion.session import Session


@pytest.fixture(scope="module")
def revenge(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, Any, Path]:
    scene = Scene(seed=21, size=(640, 480), printing=21)
    cards = card_names("revenge")
    photos = scene.teach_photos(cards, 1, seed=0)
    model = teach({c: [(c, photos[c][0])] for c in cards}, "revenge").model
    seq = scene.sequence(["3", "5"], seed=21, disturb=False, after=("pass",))
    folder = tmp_path_factory.mktemp("frames")
    for i, frame in enumerate(seq.frames):
        cv2.imwrite(str(folder / f"{i:05d}.jpg"), frame)
    return model, seq, folder


def test_cards_seen_are_played_through_the_session_and_journalled(
        revenge: tuple[Any, Any, Path], tmp_path: Path) -> None:
    model, seq, folder = revenge
    journal = Session.open_journal(tmp_path)
    session = Session(journal)
    session.new_game(Session.setup({"type": "setup", "players": ["Ann", "Bob"]}))
    logged: list[Any] = []
    asked: list[Any] = []
    done = threading.Event()
    worker = CameraWorker(session, FolderSource(folder), model, Listener(
        logged=lambda seen, result: logged.append(result),
        asked=asked.append, stopped=lambda why: done.set()))

    def answer(seen: Any) -> None:  # the scorekeeper taps the highlighted candidate
        asked.append(seen)
        worker.submit(seen, seq.plays[len(logged)].card)

    worker.listener.asked = answer
    worker.start()
    assert done.wait(120)
    assert worker._thread.name == "camera" and not worker._thread.is_alive()
    assert [r.event.to_json()["card"] for r in logged] == ["3", "5"]  # asked ones answered by a tap
    update = session.update
    assert update is not None and update.state.total == 8
    session.undo()  # the camera's play is undone like a tap's
    assert session.update.state.total == 3
    session.close()
    stored = Session.open_journal(tmp_path)
    with stored:
        events = stored.load(stored.games()[-1].game_id).events
    assert [e.get("card") for e in events if e.get("type") == "play"] == ["3", "5"]
