"""`sorry-companion camera teach|watch` as a user runs it (real subprocesses, real files)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]


def cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "companion.cli", *args], cwd=REPO,
                          capture_output=True, text=True, timeout=300,
                          env={**os.environ, **(env or {})})


def one_sentence(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
    return lines[0]


def test_teach_writes_a_model_and_names_faces_too_alike(teach_folder: Path,
                                                         tmp_path: Path) -> None:
    out = tmp_path / "deck.npz"
    done = cli("camera", "teach", str(teach_folder), "--game", "board", "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert out.stat().st_size > 1000
    assert done.stdout.startswith("taught 11 faces of the board game from 11 photos")
    assert "look too alike to tell apart" in done.stdout  # this printing's 10, 11, 12


@pytest.mark.parametrize("damage, says", [
    ("missing", "there is no photo of the card 12: add one to the folder 12"),
    ("garbage", "cannot be read as a PNG or JPEG photo"),
    ("every photo empty", "no card was found in any photo (11 photos)"),
])
def test_teach_refuses_a_bad_folder_in_one_sentence_and_writes_nothing(
        teach_folder: Path, tmp_path: Path, scene: Any, damage: str, says: str) -> None:
    import shutil

    import cv2

    folder = tmp_path / "photos"
    shutil.copytree(teach_folder, folder)
    if damage == "missing":
        shutil.rmtree(folder / "12")
    elif damage == "garbage":
        (folder / "5" / "photo0.jpg").write_bytes(b"not a picture at all")
    else:
        for photo in folder.glob("*/photo0.jpg"):
            cv2.imwrite(str(photo), scene.table)
    out = tmp_path / "deck.npz"
    line = one_sentence(cli("camera", "teach", str(folder), "--game", "board", "--out",
                            str(out)))
    assert says in line and line.endswith("no model was written")
    assert not out.exists() and not list(tmp_path.glob(".model-*"))


def test_teach_names_a_photo_with_no_card_and_still_teaches_from_the_others(
        teach_folder: Path, tmp_path: Path, scene: Any) -> None:
    """One photo in which no card is found (here: the bare table) never loses the deck:
    it is named and left out, and the face is taught from its other photo."""
    import shutil

    import cv2

    from camera.model import load

    folder = tmp_path / "photos"
    shutil.copytree(teach_folder, folder)
    cv2.imwrite(str(folder / "3" / "photo1.jpg"), scene.table)
    out = tmp_path / "deck.npz"
    done = cli("camera", "teach", str(folder), "--game", "board", "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("taught 11 faces of the board game from 11 photos")
    unseen = [line for line in done.stdout.splitlines() if line.startswith("no card was")]
    assert len(unseen) == 1 and "3/photo1.jpg'" in unseen[0], done.stdout
    assert unseen[0].endswith("so it was not used: move the card a little or lay a plain "
                              "sheet under it, and photograph it again")
    assert load(out).cards().count("3") == 1


def test_teach_writes_the_deck_without_a_face_none_of_whose_photos_shows_it(
        teach_folder: Path, tmp_path: Path, scene: Any) -> None:
    """A face whose only photo shows no card (here: the bare table) never loses the deck
    (it did: "no card was found in any photo of the card 3", exit 2, no model): the other
    faces are taught and written, the photo is named, and the last line says in one
    sentence which face is missing and how to teach it; exit 1 (PARTLY_TAUGHT)."""
    import shutil

    import cv2

    from camera.model import load

    folder = tmp_path / "photos"
    shutil.copytree(teach_folder, folder)
    cv2.imwrite(str(folder / "3" / "photo0.jpg"), scene.table)
    out = tmp_path / "deck.npz"
    done = cli("camera", "teach", str(folder), "--game", "board", "--out", str(out))
    assert done.returncode == 1, done.stderr  # camera.command.PARTLY_TAUGHT
    lines = done.stdout.splitlines()
    assert lines[0] == "taught 10 faces of the board game from 10 photos"
    unseen = [line for line in lines if line.startswith("no card was")]
    assert len(unseen) == 1 and "3/photo0.jpg'" in unseen[0], done.stdout
    assert lines[-1] == ("the card 3 was not found in its photo, so the deck was written "
                         "without it (a card the camera may take for it is asked, never "
                         "logged): take it again on a plain sheet and run camera teach again")
    deck = load(out)
    assert "3" not in deck.cards() and deck.missing() == ["3"] and len(deck.cards()) == 10


def test_watch_prints_each_card_as_json_at_its_frame(scene: Any, model: Any,
                                                     tmp_path: Path) -> None:
    import cv2

    from camera.model import save

    seq = scene.sequence(["8", "3"], seed=11, disturb=False, after=("rest",))
    frames = tmp_path / "frames"
    frames.mkdir()
    for i, frame in enumerate(seq.frames):
        cv2.imwrite(str(frames / f"{i:05d}.jpg"), frame)
    save(model, tmp_path / "deck.npz")
    done = cli("camera", "watch", str(frames), "--model", str(tmp_path / "deck.npz"), "--json")
    assert done.returncode == 0, done.stderr
    logged = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(logged) == 2, logged
    for entry, play in zip(logged, seq.plays, strict=True):
        assert play.rest <= entry["frame"] <= play.rest + 5
        if entry["card"] is None:
            assert play.card in entry["candidates"]
        else:
            assert entry["card"] == play.card and 0.5 <= entry["confidence"] <= 1


def test_watch_refuses_a_bad_folder_or_model_in_one_sentence(tmp_path: Path, model: Any) -> None:
    from camera.model import save

    save(model, tmp_path / "deck.npz")
    line = one_sentence(cli("camera", "watch", str(tmp_path / "nope"), "--model",
                            str(tmp_path / "deck.npz")))
    assert "is not a folder of frames" in line
    (tmp_path / "frames").mkdir()
    (tmp_path / "frames" / "0.png").write_bytes(b"\x89PNG broken")
    (tmp_path / "junk.npz").write_bytes(b"PK but not a model")
    line = one_sentence(cli("camera", "watch", str(tmp_path / "frames"), "--model",
                            str(tmp_path / "junk.npz")))
    assert "is not a camera model this app wrote" in line
    line = one_sentence(cli("camera", "watch", str(tmp_path / "frames"), "--model",
                            str(tmp_path / "deck.npz")))
    assert "cannot be read as a PNG or JPEG frame" in line


BLOCK_EXTRA = ("import sys; sys.modules['cv2'] = None; from companion.cli import main; "
               "sys.exit(main(sys.argv[1:]))")


def test_without_the_extra_the_command_says_how_to_install_it(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-c", BLOCK_EXTRA, "camera", "teach", str(tmp_path),
                           "--game", "board", "--out", str(tmp_path / "m.npz")], cwd=REPO,
                          capture_output=True, text=True, timeout=60)
    line = one_sentence(done)
    assert "pip install '.[camera]'" in line
    assert not (tmp_path / "m.npz").exists()
    replay = subprocess.run([sys.executable, "-c", BLOCK_EXTRA, "--help"], cwd=REPO,
                            capture_output=True, text=True, timeout=60)
    assert replay.returncode == 0 and "camera" in replay.stdout
