"""A taught deck: its faces, where the pile spot is, and its file (needs the extra).

The file is one numpy .npz archive (arrays plus a JSON header), written to a temporary
name and renamed, so a crash never leaves half a model where the app looks for one.
"""

from __future__ import annotations

import json
import os
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from camera.cards import card_names
from camera.faces import TaughtFace

FORMAT = 1
SPOT_MARGIN = 0.5  # the pile spot: the taught cards' box grown by this many card lengths


class ModelError(ValueError):
    """A model file that cannot be used, in one sentence."""


@dataclass
class Model:
    """`spot`: x0, y0, x1, y1 as fractions of the frame, where cards are laid;
    `card_size`: a laid card's long edge as a fraction of the frame's width."""

    game: str
    faces: list[TaughtFace]
    spot: tuple[float, float, float, float]
    card_size: float

    def cards(self) -> list[str]:
        return sorted({f.card for f in self.faces}, key=card_names(self.game).index)

    def spot_pixels(self, width: int, height: int) -> tuple[int, int, int, int]:
        x0, y0, x1, y1 = self.spot
        return (max(0, int(x0 * width)), max(0, int(y0 * height)),
                min(width, int(x1 * width) + 1), min(height, int(y1 * height) + 1))


def spot_from(quads: list[Any], width: int, height: int) -> tuple[float, float, float, float]:
    """The pile spot from the teaching photos' card corners (pixels of a width x height
    frame): their box, grown so a card laid a little off still falls inside."""
    pts = np.concatenate([np.asarray(q, np.float32) for q in quads])
    (x0, y0), (x1, y1) = pts.min(axis=0), pts.max(axis=0)
    card = float(np.median([np.linalg.norm(np.asarray(q)[2] - np.asarray(q)[1]) for q in quads]))
    gx = gy = card * SPOT_MARGIN
    return (max(0.0, float((x0 - gx) / width)), max(0.0, float((y0 - gy) / height)),
            min(1.0, float((x1 + gx) / width)), min(1.0, float((y1 + gy) / height)))


def save(model: Model, path: str | os.PathLike[str]) -> None:
    header = {"format": FORMAT, "game": model.game, "spot": list(model.spot),
              "card_size": model.card_size, "cards": [f.card for f in model.faces]}
    arrays: dict[str, Any] = {"header": np.frombuffer(json.dumps(header).encode(), np.uint8)}
    for i, face in enumerate(model.faces):
        arrays[f"grey{i}"] = face.grey
        arrays[f"points{i}"] = face.points
        arrays[f"descriptors{i}"] = face.descriptors
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(prefix=".model-", suffix=".npz", dir=folder)
    try:
        with os.fdopen(fd, "wb") as out:
            np.savez_compressed(out, **arrays)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def load(path: str | os.PathLike[str]) -> Model:
    """The model in `path`, or ModelError saying why it cannot be used."""
    name = str(path)
    try:
        with np.load(name, allow_pickle=False) as data:
            header = json.loads(bytes(data["header"]).decode())
            if header.get("format") != FORMAT:
                raise ModelError(f"{name} is a camera model of another format; teach the "
                                 "deck again with `sorry-companion camera teach`")
            faces = [TaughtFace(card, data[f"grey{i}"], data[f"points{i}"],
                                data[f"descriptors{i}"])
                     for i, card in enumerate(header["cards"])]
            spot = tuple(float(v) for v in header["spot"])
            model = Model(str(header["game"]), faces, (spot[0], spot[1], spot[2], spot[3]),
                          float(header["card_size"]))
            card_names(model.game)
            return model
    except FileNotFoundError:
        raise ModelError(f"there is no camera model at {name}; teach the deck first with "
                         "`sorry-companion camera teach`") from None
    except IsADirectoryError:
        raise ModelError(f"{name} is a folder, not a camera model file") from None
    except ModelError:
        raise
    except (OSError, ValueError, KeyError, IndexError, TypeError, zipfile.BadZipFile,
            json.JSONDecodeError, EOFError):
        raise ModelError(f"{name} is not a camera model this app wrote (or it is damaged); "
                         "teach the deck again with `sorry-companion camera teach`") from None
