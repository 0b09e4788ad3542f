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
    assert d.app.model.undo_text == "Undo: Ana played 3, seen by the camera"
    d.tap_id("table", "undo_button")  # taken back like a tap
    assert d.app.session.state.total == 0
    # a card the camera is not sure of: both candidates lit on the pad, one tap answers
    from camera.watcher import Seen

    d.app.camera._asked(Seen(40, None, 0.2, ("7", "1")))
    d.frames(2)
    pad = {w.code: w for w in d.app.screen("table").walk() if getattr(w, "code", None)}
    assert [c for c in ("1", "7", "8") if pad[c].selected] == ["1", "7"]
    assert d.app.model.message.startswith("The camera is not sure: 7 or 1?")
    d.tap(pad["7"])
    assert d.app.session.state.total == 7
    assert not pad["7"].selected and not pad["1"].selected
    assert "seen by the camera" not in d.app.model.undo_text  # the scorekeeper's own tap
    # Menu > Hardware shows the camera's view, over the worker's shoulder
    d.app.show("hardware")
    page = d.app.screen("hardware")
    d.wait_for(lambda: page.camera_texture is not None, "the camera's view on the page")
    assert page.ids.hardware_camera.height > 0
    d.app.show("menu")
    d.frames(2)
    assert page.camera_view is None  # the view stops with the page
