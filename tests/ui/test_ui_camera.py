"""The camera in the real app (offscreen window): a card laid before the camera is logged
as the tap would be, from the folder source, and said on the message line."""

from __future__ import annotations

import pytest

pytest.importorskip("cv2", reason="the camera's extra is not installed: pip install '.[camera]'")

import cv2

from bench.camera_scenes import Scene
from camera.cards import card_names
from camera.model import save
from camera.teach import teach
from companion.config import CameraConfig, Config


def test_a_card_laid_is_played_and_said_seen_by_the_camera(driver, tmp_path):
    scene = Scene(seed=21, size=(640, 480), printing=21)
    cards = card_names("revenge")
    photos = scene.teach_photos(cards, 1, seed=0)
    data = tmp_path / "data"
    data.mkdir()
    save(teach({c: [(c, photos[c][0])] for c in cards}, "revenge").model,
         CameraConfig.model_file(data, "revenge"))
    frames = tmp_path / "frames"
    frames.mkdir()
    for i, frame in enumerate(scene.sequence(["3"], seed=21, disturb=False).frames):
        cv2.imwrite(str(frames / f"{i:04d}.png"), frame)
    config = Config(camera=CameraConfig(enabled=True, source=str(frames)))
    d = driver(data, config=config)
    start = d.app.screen("start")
    for slot, name in ((start.ids.slot0, "ANA"), (start.ids.slot1, "BEN")):
        d.tap(slot.ids.name_button)
        for key in name:
            d.tap_code(key)
        d.tap_id("name", "name_ok")
    d.tap_id("start", "start_button")
    assert d.screen == "table"
    worker = d.app.camera.worker
    assert worker is not None
    worker.join(120)  # the folder source ends: every frame has been judged
    d.frames(3)  # the Clock brings the worker's sentence to the screen
    assert d.app.session.state.total == 3
    assert d.app.model.message == "3: seen by the camera."
    d.tap_id("table", "undo_button")  # taken back like a tap
    assert d.app.session.state.total == 0
