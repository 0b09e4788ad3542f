"""The board camera in the real app (offscreen window, real journal): with `[camera]`
enabled and a taught board, each card drawn by touch on the card pad is followed by the
move the board shows, logged by the camera through the Session ("seen by the camera" on
the message line and the undo button), with no tap on the board."""

from __future__ import annotations

import pytest

pytest.importorskip("cv2", reason="the camera's extra is not installed: pip install '.[camera]'")

from board_camera_play import DrawPacedFolder, recorded
from ui_helpers import to_board_setup, type_name

import camera.sources
from companion.config import CameraConfig, Config


def start_board(d, edition):
    d.tap_id("start", "count_2")
    for i, name in enumerate(("ANA", "BEN")):
        type_name(d, f"slot{i}", name)
    to_board_setup(d)
    d.tap_id("board_setup", f"edition_{edition}")
    d.tap_id("board_setup", "draws_real")
    d.tap_id("board_setup", "board_start")
    assert d.screen == "board", d.label("board_setup", "setup_message")


def test_moves_seen_by_the_camera_are_logged_with_no_tap_on_the_board(
        driver, tmp_path, monkeypatch):
    data = tmp_path / "data"
    rec = recorded(tmp_path, data, edition="2016", draws=4, seed=31)
    source = DrawPacedFolder(tmp_path / "frames", [t.frame for t in rec.truths])
    monkeypatch.setattr(camera.sources, "open_source", lambda spec: source)
    d = driver(data, config=Config(camera=CameraConfig(enabled=True,
                                                       source=str(tmp_path / "frames"))))
    start_board(d, "2016")
    model = d.app.models["board"]
    assert [p["color"] for p in model.state["players"]] == rec.setup["colors"], model.state
    session = d.app.session
    for i, truth in enumerate(rec.truths):
        steps = len(session.update.steps)
        d.tap_code(f"card:{truth.card}")
        assert len(session.update.steps) == steps + 1, truth
        source.drawn(i)
        d.wait_for(lambda n=steps + 2: len(session.update.steps) == n, f"move {i} seen")
        move = session.update.steps[-1].event.to_json()
        assert move["legs"] == truth.legs
        d.wait_for(lambda: "seen by the camera" in model.message, "the camera's sentence")
        assert "camera" in model.undo_text, model.undo_text
    assert d.app.camera.watcher is not None and d.app.camera.watcher.is_alive()
