"""Menu > Teach the camera > The board, by touch on the real app (offscreen window), fed by
folder sources of our own board print (games.board.camera.scenes): a photo with no board is
said in one sentence and taken again at once, the board found is drawn over the photo, a
corner dragged by a finger, and the model saved (with that corner) where the watcher reads."""

from __future__ import annotations

import pytest
from kivy.core.window import Window
from kivy.tests.common import UnitTestTouch
from layout_helpers import picture, resize, shot_path

SIZE = (640, 480)
SEED = 9  # the board CLI tests' scene
COLORS = ("red", "blue", "green")
SHOT_SIZES = [(800, 480), (480, 800)]


@pytest.fixture
def window_back():
    yield
    Window.size = (800, 480)


def drag(d, frm: tuple[float, float], to: tuple[float, float]) -> None:
    touch = UnitTestTouch(*frm)
    touch.touch_down()
    d.frames(1)
    touch.touch_move((frm[0] + to[0]) / 2, (frm[1] + to[1]) / 2)
    touch.touch_move(*to)
    touch.touch_up()
    d.frames(2)


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_no_board_is_said_then_the_board_taught_by_touch_a_corner_dragged_and_saved(
        driver, tmp_path, window_back, lang):
    pytest.importorskip("cv2", reason="the camera's extra is not installed")
    import cv2

    from camera.sources import FolderSource
    from companion.config import CameraConfig, Config
    from games.board.camera.model import load
    from games.board.camera.scenes import BoardScene
    from games.board.camera_watch import model_path as model_file  # the watcher's file

    scene = BoardScene(seed=SEED, size=SIZE, colors=COLORS)
    (tmp_path / "table").mkdir()
    cv2.imwrite(str(tmp_path / "table" / "0000.png"), scene.table)
    (tmp_path / "board").mkdir()
    cv2.imwrite(str(tmp_path / "board" / "0000.png"), scene.teach_photo())

    data = tmp_path / "data"
    d = driver(data, config=Config(camera=CameraConfig(source=str(tmp_path / "table"))),
               language=lang)
    d.app.show("menu")
    d.frames(3)
    d.tap_id("menu", "menu_camera")
    d.tap_id("camera_teach", "teach_board_teach")  # the board game's own teach screen
    assert d.screen == "board_teach"
    teach = d.app.screen("board_teach")
    assert teach.preview is not None and teach.preview.wait_frame(30)
    d.wait_for(lambda: teach.view is not None, "the camera's view on the screen")
    d.tap_id("board_teach", "board_teach_yellow")  # yellow is not seated
    assert teach.seated() == COLORS

    d.tap_id("board_teach", "board_teach_take")  # the table alone: no board
    assert not teach.taken and teach.message and "\n" not in teach.message
    assert teach.message.count(". ") == 0, teach.message  # one sentence
    assert teach.message.startswith(("The board is too small", "Le plateau est trop petit"))
    assert teach.preview is not None  # the live view goes on: the next photo at once
    for size in SHOT_SIZES:
        resize(d, size)
        picture(d, shot_path(size, "board-teach-not-found", lang), settled=True)
    resize(d, (800, 480))

    teach.open_camera(FolderSource(tmp_path / "board"))  # the board laid in view
    assert teach.preview.wait_frame(30)
    d.wait_for(lambda: teach.preview.texture is not None, "the board in the view")
    d.tap_id("board_teach", "board_teach_take")
    assert teach.taken, teach.message
    for (x, y), (tx, ty) in zip(teach.corners, scene.image_corners(), strict=True):
        assert abs(x - tx) < 3 and abs(y - ty) < 3, (teach.corners, scene.image_corners())
    for size in SHOT_SIZES:
        resize(d, size)
        picture(d, shot_path(size, "board-teach-found", lang), settled=True)
    resize(d, (800, 480))

    before = list(teach.corners[0])
    at = teach.photo_to_window(*before)
    drag(d, at, (at[0] + 4, at[1] - 3))  # 4 px right and 3 down on the screen
    moved = teach.corners[0]
    assert moved != before and moved[0] > before[0] and moved[1] > before[1], (before, moved)
    d.tap_id("board_teach", "board_teach_save")
    assert model_file(data).name == "camera-board.npz"  # BOARD-CAMERA.md's file
    # the board game's card deck is kept apart: teaching one never overwrites the other
    assert model_file(data) != CameraConfig.model_file(data, "board")
    saved = load(model_file(data))
    assert saved.corners[0].tolist() == pytest.approx(moved, abs=0.01)
    assert saved.colors == COLORS
    assert teach.message == d.app.t("bt_saved", lang)
