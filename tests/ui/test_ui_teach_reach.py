"""Menu > Teach the camera at a table (issue 35.2), by touch on the real app.

Without a camera the screen was a dead end: an empty preview under "Lay a 0 on the pile",
a developer's sentence ("picamera2 is not installed … --system-site-packages"), and
"teach one face again" buttons 19-21 px tall. Now it says in a family's words what to
plug in, and stops there; with a camera every face's button is full size and no label is
cut, at every display in both languages.
"""

from __future__ import annotations

import pytest
from kivy.core.window import Window
from layout_helpers import SIZES, picture, problems, resize, shot_path, size_id

from companion.config import CameraConfig, Config
from ui.layout import MIN_TARGET_PX

PLUG = {"en": "plug the camera's flat ribbon cable into the Raspberry Pi's CAMERA socket",
        "fr": "branchez la nappe plate de la caméra dans la prise CAMERA du Raspberry Pi"}
ENGINEER_WORDS = ("picamera2", "pip", "site-packages", "install", "numpy", "module")


@pytest.fixture
def window_back():
    yield
    Window.size = (800, 480)


def to_teach(d) -> None:
    d.app.show("menu")
    d.frames(3)
    d.tap_id("menu", "menu_camera")
    assert d.screen == "camera_teach"


def shown_texts(d) -> list[str]:
    return [w.text for w in d.widgets() if getattr(w, "text", "").strip() and d.visible(w)]


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_without_a_camera_the_screen_says_what_to_plug_in_and_stops(driver, window_back,
                                                                     lang):
    d = driver(language=lang)  # the default camera, a Pi camera: none answers here
    to_teach(d)
    teach = d.app.screen("camera_teach")
    d.tap_id("camera_teach", "teach_revenge")
    assert teach.no_camera and teach.game == "" and teach.preview is None
    texts = shown_texts(d)
    assert any(PLUG[lang] in t for t in texts), texts
    assert not any(word in t for t in texts for word in ENGINEER_WORDS), texts
    assert not any(t.startswith(("Lay a", "Posez")) for t in texts), texts
    for wid in ("teach_take", "teach_view", "teach_faces"):
        assert not d.visible(teach.ids[wid]), f"{wid} is still shown with no camera"
    found = []
    for size in SIZES:
        resize(d, size)
        found += [f"{size_id(size)}: {p}" for p in problems(d)]
        picture(d, shot_path(size, "camera-teach-no-camera", lang), settled=True)
    assert not found, "\n".join(found)
    resize(d, SIZES[0])
    d.tap_id("camera_teach", "teach_board")  # the other deck: the same words, no more
    assert teach.no_camera and teach.game == ""


def test_a_usb_camera_that_is_not_there_is_asked_for_as_a_webcam(driver):
    d = driver(config=Config(camera=CameraConfig(source="usb:7")))
    to_teach(d)
    d.tap_id("camera_teach", "teach_board")
    assert any("Plug a USB webcam into" in t for t in shown_texts(d))


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_with_a_camera_every_face_button_is_full_size_and_uncut(driver, tmp_path,
                                                                 window_back, lang):
    cv2 = pytest.importorskip("cv2", reason="the camera's extra is not installed")
    import numpy as np

    frames = tmp_path / "frames"
    frames.mkdir()
    cv2.imwrite(str(frames / "0000.png"), np.full((480, 640, 3), 90, np.uint8))
    d = driver(language=lang, config=Config(camera=CameraConfig(source=str(frames))))
    to_teach(d)
    teach = d.app.screen("camera_teach")
    d.tap_id("camera_teach", "teach_revenge")
    assert not teach.no_camera and teach.game == "revenge"
    faces = list(teach.ids.teach_faces.children)
    assert len(faces) == 20
    found = []
    for size in SIZES:
        resize(d, size)
        found += [f"{size_id(size)}: {p}" for p in problems(d)]
        found += [f"{size_id(size)}: face {b.text!r} {[round(v) for v in b.size]}"
                  for b in faces
                  if b.height < MIN_TARGET_PX or b.width < MIN_TARGET_PX or b.clipped]
        picture(d, shot_path(size, "camera-teach-card-deck", lang), settled=True)
    assert not found, "\n".join(found)
