"""Whole board games on the real app with no tap on the board: every card is drawn by
touch on the card pad, every move is the camera's, read from a folder of frames of our own
board print (seeds < 1000, 480x270, 5 fps). Minutes long: run only when asked
(SORRY_WHOLE_CAMERA_GAMES=1); the suite keeps tests/ui/test_ui_board_camera.py's four
draws."""

from __future__ import annotations

import os

import pytest

pytest.importorskip("cv2", reason="the camera's extra is not installed: pip install '.[camera]'")

from board_camera_play import DrawPacedFolder, recorded
from test_ui_board_camera import start_board

import camera.sources
from companion.config import CameraConfig, Config

pytestmark = [pytest.mark.slow, pytest.mark.skipif(
    not os.environ.get("SORRY_WHOLE_CAMERA_GAMES"),
    reason="a whole game by the camera takes minutes: SORRY_WHOLE_CAMERA_GAMES=1")]


# 2016, seed 41 stalled at its 32nd draw: the recording drew its cards with replacement
# and asked for a sixth 1, which the referee refuses (fixed: a shuffled deck, scenes.py);
# then at draw 27, an empty square by a crowded corner read as no pawn (read.light_free)
@pytest.mark.xfail(reason="not yet run whole since the two fixes", strict=False)
@pytest.mark.parametrize(("edition", "seed"), [("2016", 41), ("classic", 42)])
def test_a_whole_game_with_no_tap_on_the_board(driver, tmp_path, monkeypatch, edition, seed):
    data = tmp_path / "data"
    rec = recorded(tmp_path, data, edition=edition, draws=400, seed=seed)
    source = DrawPacedFolder(tmp_path / "frames", [t.frame for t in rec.truths])
    monkeypatch.setattr(camera.sources, "open_source", lambda spec: source)
    d = driver(data, config=Config(camera=CameraConfig(enabled=True,
                                                       source=str(tmp_path / "frames"))))
    start_board(d, edition)
    session = d.app.session
    for i, truth in enumerate(rec.truths):
        steps = len(session.update.steps)
        d.tap_code(f"card:{truth.card}")
        source.drawn(i)
        if truth.kind is None:  # a forfeit: the draw says it, the board does not change
            continue
        d.wait_for(lambda n=steps + 2: len(session.update.steps) == n, f"move {i} seen")
        assert session.update.steps[-1].event.to_json()["legs"] == truth.legs
    assert d.app.models["board"].phase == "over"
