"""The camera's tests need its extra (numpy, OpenCV); without it they skip, saying how
to install it. The data are drawn by bench.camera_scenes with seeds below 1000."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from camera.extra import INSTALL_HINT, available

if not available():
    collect_ignore_glob = ["test_camera_*.py"]

    def pytest_report_header() -> str:
        return f"camera tests skipped: {INSTALL_HINT}"

SEED = 4  # a table, camera and printing the tests use (bench.camera uses 10_000 and up)


@pytest.fixture(scope="session")
def scene() -> Any:
    from bench.camera_scenes import Scene

    return Scene(seed=SEED, size=(640, 480), printing=SEED)


@pytest.fixture(scope="session")
def teach_folder(scene: Any, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One photo a face of the board game's deck, as a family would take them."""
    import cv2

    from camera.cards import card_names, folder_name

    root = tmp_path_factory.mktemp("teach")
    photos = scene.teach_photos(card_names("board"), 1, seed=0)
    for card, images in photos.items():
        sub = root / folder_name(card)
        sub.mkdir()
        for i, image in enumerate(images):
            cv2.imwrite(str(sub / f"photo{i}.jpg"), image)
    return root


@pytest.fixture(scope="session")
def model(teach_folder: Path, tmp_path_factory: pytest.TempPathFactory) -> Any:
    from camera.model import load
    from camera.teach import photos_in, teach

    taught = teach(photos_in(teach_folder, "board"), "board")
    path = tmp_path_factory.mktemp("model") / "deck.npz"
    from camera.model import save

    save(taught.model, path)
    return load(path)


@pytest.fixture(scope="session")
def revenge_model(scene: Any) -> Any:
    """The card game's deck taught from two photos a face, as the bench teaches it."""
    from camera.cards import card_names
    from camera.teach import teach

    cards = card_names("revenge")
    photos = scene.teach_photos(cards, 2, seed=1)
    return teach({c: [(f"{c}#{i}", img) for i, img in enumerate(photos[c])] for c in cards},
                 "revenge").model
