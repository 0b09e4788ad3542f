"""`sorry-companion camera teach-board|watch-board` as a user runs it: real subprocesses,
real files, a recording of games.board.camera.scenes written as a folder of frames."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import cv2
import pytest

from games.board.camera.scenes import BoardScene
from tests.camera.test_camera_cli import cli, one_sentence

SIZE = (640, 360)
SEED = 9  # a scene the tests use (the bench's are 10_000 and up)


@pytest.fixture(scope="module")
def scene() -> BoardScene:
    return BoardScene(seed=SEED, size=SIZE, colors=("red", "blue", "green"))


@pytest.fixture(scope="module")
def photo(scene: BoardScene, tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("photo") / "board.jpg"
    cv2.imwrite(str(path), scene.teach_photo())
    return path


@pytest.fixture(scope="module")
def model(photo: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("model") / "camera-board.npz"
    done = cli("camera", "teach-board", str(photo), "--edition", "classic", "--colors",
               "red,blue,green", "--out", str(out))
    assert done.returncode == 0, done.stderr
    return out


def test_teach_board_finds_the_board_and_writes_its_model(model: Path, scene: BoardScene,
                                                          photo: Path, tmp_path: Path) -> None:
    out = tmp_path / "again.npz"
    done = cli("camera", "teach-board", str(photo), "--edition", "classic", "--colors",
               "green,red,blue", "--out", str(out))
    first = done.stdout.splitlines()[0]
    assert first.startswith("board found: corners ") and out.stat().st_size > 10_000
    found = [tuple(float(v) for v in p.split(",")) for p in first.split()[3:7]]
    for (x, y), (tx, ty) in zip(found, scene.image_corners(), strict=True):
        assert abs(x - tx) < 3 and abs(y - ty) < 3, (found, scene.image_corners())


@pytest.mark.parametrize("colors, says", [
    ("red,blue,yellow", "no yellow pawns are seen in its START"),
    ("red,purple", "'purple' is no colour"),
    ("red", "--colors names 2 to 4 different colours"),
])
def test_teach_board_says_what_to_change_and_writes_nothing(photo: Path, tmp_path: Path,
                                                            colors: str, says: str) -> None:
    out = tmp_path / "m.npz"
    line = one_sentence(cli("camera", "teach-board", str(photo), "--edition", "classic",
                            "--colors", colors, "--out", str(out)))
    assert says in line and line.endswith("no model was written"), line
    assert not out.exists()


def test_teach_board_with_no_board_in_view_says_move_the_camera(scene: BoardScene,
                                                                tmp_path: Path) -> None:
    table = tmp_path / "table.png"
    cv2.imwrite(str(table), scene.table)
    line = one_sentence(cli("camera", "teach-board", str(table), "--edition", "classic",
                            "--colors", "red,blue", "--out", str(tmp_path / "m.npz")))
    assert "whole board" in line and "in view" in line, line


@pytest.fixture(scope="module")
def recording(scene: BoardScene, tmp_path_factory: pytest.TempPathFactory
              ) -> tuple[Any, Path, Path]:
    rec = scene.record(8, seed=3, staged=0.5)
    root = tmp_path_factory.mktemp("rec")
    frames = root / "frames"
    frames.mkdir()
    for i, frame in enumerate(rec.frames):
        cv2.imwrite(str(frames / f"{i:05d}.jpg"), frame, [cv2.IMWRITE_JPEG_QUALITY, 95])
    game = root / "game.jsonl"
    game.write_text("".join(json.dumps(line) + "\n" for line in rec.game_lines()))
    return rec, frames, game


def test_watch_board_prints_each_move_the_board_shows(model: Path, recording: Any) -> None:
    rec, frames, game = recording
    done = cli("camera", "watch-board", str(frames), "--model", str(model), "--game", str(game),
               "--fps", "5", "--json")
    assert done.returncode == 0, done.stderr
    printed = [json.loads(line) for line in done.stdout.splitlines()]
    moves = {p["draw"]: p for p in printed if "kind" in p}
    played = [k for k, t in enumerate(rec.truths) if t.kind is not None]
    assert played and sorted(moves) == played, printed
    for k in played:
        truth = rec.truths[k]
        assert (moves[k]["kind"], moves[k]["legs"]) == (truth.kind, truth.legs)
        assert truth.rest <= moves[k]["frame"] <= truth.rest + 5
    for k, truth in enumerate(rec.truths):
        said = [p for p in printed if p["draw"] == k and "mismatch" in p]
        assert bool(said) == (truth.staged is not None), (k, said)
        if said:
            assert truth.staged <= said[0]["frame"] <= truth.staged + 15
            assert said[0]["mismatch"].count(".") <= 1


@pytest.mark.parametrize("damage, says", [
    ("model", "is not a board model this app wrote"),
    ("game", "must start with a board-game setup line"),
    ("frames", "is not a folder of frames"),
])
def test_watch_board_refuses_a_bad_input_in_one_sentence(model: Path, recording: Any,
                                                         tmp_path: Path, damage: str,
                                                         says: str) -> None:
    _rec, frames, game = recording
    args = {"model": str(model), "game": str(game), "frames": str(frames)}
    bad = tmp_path / "bad"
    bad.write_text('{"type": "draw"}\n')
    args[damage] = str(bad)
    line = one_sentence(cli("camera", "watch-board", args["frames"], "--model", args["model"],
                            "--game", args["game"]))
    assert says in line, line
