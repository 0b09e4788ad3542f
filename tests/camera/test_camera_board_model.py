"""The board model file (games.board.camera.model): written whole, read back the same,
and anything else refused in one sentence naming what to do."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import numpy as np
import pytest

from games.board.camera.model import ModelError, load, save, teach
from games.board.camera.scenes import BoardScene


@pytest.fixture(scope="module")
def model_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    scene = BoardScene(seed=14, size=(480, 270), colors=("blue", "yellow"))
    path = tmp_path_factory.mktemp("m") / "camera-board.npz"
    save(teach(scene.teach_photo(), "classic", scene.colors), path)
    return path


def test_a_saved_model_reads_back_as_it_was_taught(model_file: Path) -> None:
    model = load(model_file)
    assert model.colors == ("blue", "yellow") and model.edition == "classic"
    assert model.size == (480, 270) and model.reference.shape == (320, 320, 3)
    assert set(model.per_pawn) == {"blue", "yellow"}


def _rewritten(model_file: Path, tmp_path: Path, change: str) -> Path:
    with np.load(model_file) as arrays:
        parts = {k: arrays[k] for k in arrays.files}
    header = json.loads(bytes(parts["header"]).decode())
    if change == "nan corners":
        header["corners"][0][0] = float("nan")
    elif change == "unknown colour":
        header["colors"] = ["purple"]
    elif change == "small picture":
        parts["reference"] = parts["reference"][:10]
    parts["header"] = np.frombuffer(json.dumps(header).encode(), np.uint8)
    out = tmp_path / "bad.npz"
    buffer = io.BytesIO()
    np.savez(buffer, **parts)
    if change == "extra part":
        with zipfile.ZipFile(buffer, "a") as archive:
            archive.writestr("faces.npy", b"x")
    out.write_bytes(buffer.getvalue())
    return out


@pytest.mark.parametrize("change", ["nan corners", "unknown colour", "small picture",
                                    "extra part", "truncated", "missing"])
def test_a_damaged_or_foreign_model_is_one_sentence(model_file: Path, tmp_path: Path,
                                                    change: str) -> None:
    if change == "truncated":
        path = tmp_path / "cut.npz"
        path.write_bytes(model_file.read_bytes()[:5000])
    elif change == "missing":
        path = tmp_path / "none.npz"
    else:
        path = _rewritten(model_file, tmp_path, change)
    with pytest.raises(ModelError) as caught:
        load(path)
    said = str(caught.value)
    assert "\n" not in said and "teach" in said and "teach-board" in said, said
