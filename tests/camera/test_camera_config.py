"""`[camera]` in the config, the doctor's camera line, and the worker started from both."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

from camera.worker import Listener, start_from_config
from companion.config import load_config
from companion.errors import ConfigError
from hardware.doctor import check_camera


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(f'data_dir = "{tmp_path}"\n{text}')
    return path


def test_the_camera_is_off_by_default_and_the_doctor_says_so(tmp_path: Path) -> None:
    config = load_config(write(tmp_path, ""))
    assert config.camera.enabled is False
    assert check_camera(config).result == "off"


@pytest.mark.parametrize("spot", ["[0.5, 0.2, 0.4, 0.8]", "[1, 2]", '"middle"', "[0, 0, 2, 1]"])
def test_a_bad_pile_spot_is_one_sentence(tmp_path: Path, spot: str) -> None:
    with pytest.raises(ConfigError, match=r"spot.*x0 < x1 and y0 < y1"):
        load_config(write(tmp_path, f"[camera]\nspot = {spot}\n"))


def test_the_doctor_asks_for_a_taught_deck_then_says_ok(tmp_path: Path, model: Any) -> None:
    from camera.model import save

    config = load_config(write(tmp_path, '[camera]\nenabled = true\nsource = "usb:1"\n'))
    check = check_camera(config)
    assert (check.result, check.detail) == ("warn", "no deck taught yet")
    assert "sorry-companion camera teach" in check.fix
    save(model, config.camera.model_file(config.data_dir, "board"))
    check = check_camera(config)
    assert (check.result, check.detail) == ("ok", "usb:1; decks taught: board")


def test_the_app_starts_the_worker_from_the_config_with_its_pile_spot(
        tmp_path: Path, model: Any, scene: Any) -> None:
    import cv2

    from camera.model import save
    from companion.session import Session

    frames = tmp_path / "frames"
    frames.mkdir()
    for i, frame in enumerate(scene.sequence(["4"], seed=3, disturb=False).frames):
        cv2.imwrite(str(frames / f"{i:04d}.png"), frame)
    config = load_config(write(tmp_path, f'[camera]\nenabled = true\nsource = "{frames}"\n'
                                         "spot = [0.0, 0.0, 1.0, 1.0]\n"))
    save(model, config.camera.model_file(config.data_dir, "board"))
    stopped = threading.Event()
    seen: list[Any] = []
    session = Session()
    session.new_game(Session.setup({"type": "setup", "game": "board", "edition": "classic",
                                    "players": ["Ann", "Bob"], "colors": ["red", "blue"]}))
    worker = start_from_config(session, config, "board", Listener(
        logged=lambda s, result: seen.append(result), asked=seen.append,
        stopped=lambda why: stopped.set()))
    assert worker is not None and worker.model.spot == (0.0, 0.0, 1.0, 1.0)
    assert stopped.wait(120)
    assert len(seen) == 1  # the board game's draw (or the question, if not sure)
    assert session.update is not None
