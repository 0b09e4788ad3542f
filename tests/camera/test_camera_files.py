"""Issue 33, camera files: what a family (or anyone) hands `camera watch` and `camera teach`
is checked before it is used. Each test fails on the code before the fix: a 20000x20000
PNG decoded whole (35 s, 2.4 GB on a Pi), a model zip bomb unpacked (118 s, 3.5 GB), a FIFO
waited on forever, a model of wrong dtypes, shapes, NaNs or no faces taken (exit 70 or
watching silently), a file's name printed raw. Real files, the real CLI as a subprocess."""

from __future__ import annotations

import os
import re
import shutil
import unicodedata
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hostile_files import (
    broken,
    huge_png,
    model_arrays,
    model_zip,
    npy_header,
    run_cli,
    zeros_member,
)

from camera.files import UnusableFile
from camera.image_file import limits_in_force, read_image
from camera.model import ModelError, load, save

# a refused file costs what the command's own start costs (~110 MB here): far below what
# decoding a 20000x20000 picture or unpacking a bomb takes (1.2 GB, 500 MB)
RSS_LIMIT_MB = 300
NASTY_NAME = "\x1b[2J\x1b]0;owned\x07frame\u202e.png"


def one_sentence(run: Any) -> str:
    assert run.status == 2, (run.status, run.stderr[-2000:])
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in run.stderr, run.stderr[-2000:]
    assert not [c for c in run.stderr if c != "\n" and unicodedata.category(c) in
                ("Cc", "Cf")], repr(run.stderr)
    return lines[0]


@pytest.fixture
def deck(model: Any, tmp_path: Path) -> Path:
    path = tmp_path / "deck.npz"
    save(model, path)
    return path


def frames_with(tmp_path: Path, name: str, data: bytes | None) -> Path:
    """A folder of frames holding one file `name` (None: a FIFO)."""
    folder = tmp_path / "frames"
    folder.mkdir()
    if data is None:
        os.mkfifo(folder / name)
    else:
        (folder / name).write_bytes(data)
    return folder


def photos_with(teach_folder: Path, tmp_path: Path, name: str, data: bytes | None) -> Path:
    """The teaching folder with card 1's photo replaced by `name` (None: a FIFO)."""
    folder = tmp_path / "photos"
    shutil.copytree(teach_folder, folder)
    for photo in (folder / "1").iterdir():
        photo.unlink()
    if data is None:
        os.mkfifo(folder / "1" / name)
    else:
        (folder / "1" / name).write_bytes(data)
    return folder


@pytest.fixture(scope="module")
def png_20000() -> bytes:
    return huge_png(20000, 20000)  # 390 KB; 400 MB of grey pixels, 1.2 GB once in colour


def test_a_20000x20000_png_is_refused_from_its_header_in_watch(png_20000: bytes, deck: Path,
                                                               tmp_path: Path) -> None:
    run = run_cli("camera", "watch", str(frames_with(tmp_path, "0.png", png_20000)),
                  "--model", str(deck))
    assert "0.png' is larger than 1920x1080 pixels; a frame may be at most 1920x1080" \
        in one_sentence(run)
    assert run.max_rss_mb < RSS_LIMIT_MB, run


def test_a_20000x20000_png_is_refused_from_its_header_in_teach(png_20000: bytes,
                                                               teach_folder: Path,
                                                               tmp_path: Path) -> None:
    out = tmp_path / "deck.npz"
    run = run_cli("camera", "teach", str(photos_with(teach_folder, tmp_path, "p.png",
                                                     png_20000)),
                  "--game", "board", "--out", str(out))
    line = one_sentence(run)
    assert "p.png' is larger than 1920x1080 pixels; a photo may be at most" in line
    assert line.endswith("no model was written") and not out.exists()
    assert run.max_rss_mb < RSS_LIMIT_MB, run


def test_opencv_itself_refuses_a_picture_one_pixel_too_wide(tmp_path: Path) -> None:
    import cv2

    assert limits_in_force()
    for name, image in (("wide.png", np.zeros((10, 1921, 3), np.uint8)),
                        ("tall.jpg", np.zeros((1081, 10, 3), np.uint8)),
                        ("fits.png", np.zeros((1080, 1920, 3), np.uint8))):
        cv2.imwrite(str(tmp_path / name), image)
    with pytest.raises(UnusableFile, match=re.escape("wide.png' is larger than 1920x1080")):
        read_image(tmp_path / "wide.png")
    with pytest.raises(UnusableFile, match=re.escape("tall.jpg' is larger than 1920x1080")):
        read_image(tmp_path / "tall.jpg")
    assert read_image(tmp_path / "fits.png").shape == (1080, 1920, 3)


def test_a_fifo_named_like_a_frame_is_refused_at_once_in_watch(deck: Path,
                                                              tmp_path: Path) -> None:
    run = run_cli("camera", "watch", str(frames_with(tmp_path, "x.png", None)),
                  "--model", str(deck), timeout=100)
    assert "x.png' is a FIFO, not a regular file; a frame must be a regular file" \
        in one_sentence(run)


def test_a_fifo_named_like_a_photo_is_refused_at_once_in_teach(teach_folder: Path,
                                                              tmp_path: Path) -> None:
    run = run_cli("camera", "teach", str(photos_with(teach_folder, tmp_path, "x.png", None)),
                  "--game", "board", "--out", str(tmp_path / "deck.npz"), timeout=100)
    assert "x.png' is a FIFO, not a regular file; a photo must be a regular file" \
        in one_sentence(run)


def test_a_fifo_or_a_device_as_the_model_is_refused(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "deck.npz")
    with pytest.raises(ModelError, match="is a FIFO, not a regular file"):
        load(tmp_path / "deck.npz")
    with pytest.raises(ModelError, match="is a device, not a regular file"):
        load("/dev/zero")


def test_a_model_zip_bomb_is_refused_before_anything_is_unpacked(model: Any, deck: Path,
                                                                tmp_path: Path) -> None:
    arrays = model_arrays(model)
    del arrays["grey0"]
    bomb = zeros_member("grey0.npy", npy_header("|u1", (500_000_000,)), 500_000_000)
    (tmp_path / "bomb.npz").write_bytes(model_zip(arrays, (bomb,)))
    assert (tmp_path / "bomb.npz").stat().st_size < 5_000_000
    frames = frames_with(tmp_path, "0.png", huge_png(64, 48))
    run = run_cli("camera", "watch", str(frames), "--model", str(tmp_path / "bomb.npz"))
    line = one_sentence(run)
    assert "is not a camera model this app wrote (or it is damaged): its part 'grey0.npy' " \
        "would unpack to 500000128 bytes, more than such a part can be" in line
    assert run.max_rss_mb < RSS_LIMIT_MB, run


@pytest.mark.parametrize("damage, says", [
    ("float64 descriptors", "its photo 1 is not stored as the app stores one"),
    ("int64 grey", "its part 'grey1.npy' would unpack to 161408 bytes, more than such a "
                   "part can be (24256)"),
    ("small grey", "its photo 3 is not stored as the app stores one"),
    ("points of 3", "its photo 1 is not stored as the app stores one"),
    ("fewer descriptors", "its photo 4 is not stored as the app stores one"),
    ("NaN points", "the features of its photo 2 lie outside the card"),
    ("inf points", "the features of its photo 2 lie outside the card"),
    ("NaN spot", "its header holds NaN, not a number"),
    ("no faces", "it holds no photo of any card"),
    ("every photo of one card", "it holds 11 photos of the card 1, more than 3"),
    ("zero card size", "its card size is not a share of the frame's width"),
])
def test_a_model_of_wrong_dtypes_shapes_nans_or_no_faces_is_refused_saying_why(
        model: Any, tmp_path: Path, damage: str, says: str) -> None:
    path = tmp_path / "deck.npz"
    path.write_bytes(model_zip(broken(model, damage)))
    with pytest.raises(ModelError) as refused:
        load(path)
    assert str(refused.value) == (
        f"'{path}' is not a camera model this app wrote (or it is damaged): {says}; teach "
        "the deck again with `sorry-companion camera teach`")


def test_watch_with_a_model_of_float_descriptors_is_one_sentence_not_exit_70(
        model: Any, tmp_path: Path) -> None:
    (tmp_path / "deck.npz").write_bytes(model_zip(broken(model, "float64 descriptors")))
    frames = frames_with(tmp_path, "0.png", huge_png(64, 48))
    line = one_sentence(run_cli("camera", "watch", str(frames), "--model",
                                str(tmp_path / "deck.npz")))
    assert "its photo 1 is not stored as the app stores one" in line


def test_a_file_name_with_terminal_escapes_is_printed_escaped(deck: Path,
                                                              teach_folder: Path,
                                                              tmp_path: Path) -> None:
    watch = tmp_path / "watch"
    watch.mkdir()
    line = one_sentence(run_cli("camera", "watch", str(frames_with(watch, NASTY_NAME,
                                                                   b"not a picture")),
                                "--model", str(deck)))
    assert "\\x1b[2J\\x1b]0;owned\\x07frame\\u202e.png' cannot be read as a PNG or JPEG " \
        "frame" in line
    teach = tmp_path / "teach"
    teach.mkdir()
    line = one_sentence(run_cli("camera", "teach", str(photos_with(
        teach_folder, teach, NASTY_NAME, b"not a picture")), "--game", "board", "--out",
        str(teach / "deck.npz")))
    assert "\\x1b[2J\\x1b]0;owned\\x07frame\\u202e.png' cannot be read as a PNG or JPEG " \
        "photo" in line


def test_a_huge_file_is_not_read_and_a_foreign_picture_not_decoded(tmp_path: Path) -> None:
    import cv2

    with open(tmp_path / "huge.jpg", "wb") as sparse:
        sparse.truncate(200_000_000)  # 200 MB, none of it on the disk
    with pytest.raises(UnusableFile, match=re.escape("huge.jpg' is larger than a frame can be")):
        read_image(tmp_path / "huge.jpg")
    cv2.imwrite(str(tmp_path / "bitmap.bmp"), np.zeros((8, 8, 3), np.uint8))
    os.rename(tmp_path / "bitmap.bmp", tmp_path / "bitmap.png")
    with pytest.raises(UnusableFile, match=re.escape("bitmap.png' cannot be read as a PNG")):
        read_image(tmp_path / "bitmap.png")


def test_teach_refuses_more_photos_of_a_face_than_a_model_holds(teach_folder: Path,
                                                                tmp_path: Path) -> None:
    from camera.teach import TeachError, photos_in

    folder = tmp_path / "photos"
    shutil.copytree(teach_folder, folder)
    photo = next((folder / "7").iterdir())
    for i in range(3):
        shutil.copy(photo, folder / "7" / f"more{i}.jpg")
    with pytest.raises(TeachError, match="holds 4 photos; keep at most 3 of the card 7"):
        photos_in(folder, "board")


def test_frames_of_another_size_than_the_first_are_refused(tmp_path: Path) -> None:
    from camera.sources import FolderSource, SourceError

    folder = frames_with(tmp_path, "0.png", huge_png(64, 48))
    (folder / "1.png").write_bytes(huge_png(48, 64))
    frames = FolderSource(folder).frames()
    assert next(frames).shape == (48, 64, 3)
    with pytest.raises(SourceError, match=re.escape("1.png' is 48x64 but the frames "
                                                          "before it are 64x48")):
        next(frames)
