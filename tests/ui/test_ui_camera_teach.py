"""Menu > Teach the camera in the real app (offscreen window), fed by the folder source:
each face of the board game's deck laid in turn and photographed twice (moved a little
between), the deck taught and saved where the app looks, one face taught again; and the
app's screens without the camera's extra."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def test_every_face_is_asked_photographed_and_the_deck_saved_then_one_face_retaught(
        driver, tmp_path):
    pytest.importorskip("cv2", reason="the camera's extra is not installed")
    import cv2

    from bench.camera_scenes import Scene
    from camera.cards import card_names, folder_name
    from camera.model import load
    from camera.sources import FolderSource
    from companion.config import CameraConfig, Config

    scene = Scene(seed=21, size=(640, 480), printing=21)
    cards = card_names("board")
    photos = scene.teach_photos(cards, 1, seed=0)
    laid = tmp_path / "laid"
    for card in cards:  # what the camera shows while each card lies on the pile
        (laid / folder_name(card)).mkdir(parents=True)
        cv2.imwrite(str(laid / folder_name(card) / "0000.png"), photos[card][0])
    (laid / "empty").mkdir()
    cv2.imwrite(str(laid / "empty" / "0000.png"), scene.table)

    data = tmp_path / "data"
    # the camera of [camera] source: what it shows while the table is empty
    d = driver(data, config=Config(camera=CameraConfig(source=str(laid / "empty"))))
    d.app.show("menu")
    d.frames(3)
    d.tap_id("menu", "menu_camera")
    assert d.screen == "camera_teach"
    teach = d.app.screen("camera_teach")
    d.tap_id("camera_teach", "teach_board")
    assert len(teach.ids.teach_faces.children) == len(cards)  # one button a face

    def lay(what: str) -> None:
        teach.open_camera(FolderSource(laid / what))
        assert teach.preview.wait_frame(30)
        d.wait_for(lambda: teach.view is not None, "the camera's view on the screen")

    model_file = CameraConfig.model_file(data, "board")
    for n, card in enumerate(cards, start=1):
        assert teach.prompt.startswith(f"Lay a {card if card != 'sorry' else 'Sorry!'}") or \
            f"({n} of {len(cards)})" in teach.prompt, teach.prompt
        lay(folder_name(card))
        d.tap_id("camera_teach", "teach_take")
        assert teach.prompt.startswith("Now move the") and "(photo 2 of 2)" in teach.prompt
        if n == 1:
            d.screenshot("camera_teach_second_photo")
        d.tap_id("camera_teach", "teach_take")
        assert model_file.is_file() == (n == len(cards))  # taught once every face has both
    assert load(model_file).cards() == list(cards)
    assert teach.prompt == f"The camera knows all {len(cards)} faces of this deck."
    assert sorted(p.name for p in (data / "camera-photos-board" / "7").iterdir()) == [
        "photo1.png", "photo2.png"]
    d.screenshot("camera_teach")

    # one face taught again: an empty table is refused in one sentence, then the 7 taken
    seven = next(b for b in teach.ids.teach_faces.children if b.code == "7")
    d.tap(seven)
    assert teach.prompt.startswith("Lay a 7 on the pile")
    lay("empty")
    d.tap_id("camera_teach", "teach_take")
    assert teach.message == ("I cannot see the card: move it a little or lay a plain sheet "
                             "under it.")
    assert teach.prompt.startswith("Lay a 7 on the pile")  # the same photo asked again
    before = model_file.stat().st_mtime_ns
    lay("7")
    d.tap_id("camera_teach", "teach_take")
    assert model_file.stat().st_mtime_ns == before  # one new photo of two: not yet taught
    assert [p.name for p in (data / "camera-photos-board" / "7").iterdir()] == ["photo1.png"]
    d.tap_id("camera_teach", "teach_take")
    assert model_file.stat().st_mtime_ns != before
    assert teach.prompt == f"The camera knows all {len(cards)} faces of this deck."
    d.tap_id("camera_teach", "teach_back")
    d.frames(2)
    assert d.screen == "menu" and teach.preview is None  # the camera is let go
    d.tap_id("menu", "menu_camera")  # back later: the deck is whole, a tap re-teaches a face
    d.tap_id("camera_teach", "teach_board")
    assert teach.prompt == f"The camera knows all {len(cards)} faces of this deck."
    # a face kept with one photo (taught by an older version) is asked for its second
    (data / "camera-photos-board" / "11" / "photo2.png").unlink()
    d.tap_id("camera_teach", "teach_board")
    assert teach.prompt.startswith("Now move the 11"), teach.prompt


BLOCK = """
import importlib.abc, sys
class NoExtra(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split('.')[0] in ('cv2', 'numpy'):
            raise ModuleNotFoundError(f'No module named {name!r}', name=name)
        return None
sys.meta_path.insert(0, NoExtra())
"""


def test_without_the_camera_extra_every_screen_module_imports_and_teaching_says_how():
    code = BLOCK + """
import pkgutil, importlib, ui
for module in pkgutil.walk_packages(ui.__path__, 'ui.'):
    importlib.import_module(module.name)
from camera.extra import MissingExtra, require
try:
    require()
except MissingExtra as exc:
    print(exc)
"""
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True,
                          text=True, timeout=120,
                          env={"KIVY_NO_ARGS": "1", "KIVY_NO_CONSOLELOG": "1",
                               "KIVY_NO_FILELOG": "1", "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr[-2000:]
    assert "pip install '.[camera]'" in done.stdout
