"""A taught board and its file, `camera-board.npz` in the data folder (needs the extra).

What teaching keeps: where the board lies in the camera's picture (its outer corners,
clockwise from T0's, and the picture's size), the board rectified as the teach photo
showed it (every square empty), the pawns' hues and one pawn's worth of pixels of its
colour, per seated colour. The file is one numpy .npz archive (the picture and a JSON
header), written whole or not at all (camera.archive);
read back with every part checked first (its size, its members, their shapes, the
header's fields), so a damaged or foreign file is one sentence.
"""

from __future__ import annotations

import io
import json
import math
import os
import zipfile
import zlib
from dataclasses import dataclass
from typing import Any

import numpy as np

from camera.archive import write_npz
from camera.files import NoSuchFile, UnusableFile, read_regular
from companion.safe_text import quote_path
from games.board.camera import cells
from games.board.camera.find import PAWN_PIXELS, SEEN, find, refined_hues, start_pixels
from games.board.camera.read import Taught
from games.board.rules import geometry as g
from games.board.rules.settings import PAWNS

FORMAT = 1
FILE_NAME = "camera-board.npz"
MEMBERS = {"header.npy": 1 << 16, "reference.npy": cells.SIZE * cells.SIZE * 3 + 4096}
MAX_BYTES = sum(MEMBERS.values()) + 4096
MAX_SIDE = 4096  # pixels: a camera's picture is smaller
TEACH_AGAIN = "teach the board again with `sorry-companion camera teach-board`"


class ModelError(ValueError):
    """A board model that cannot be used, in one sentence."""


@dataclass
class BoardModel:
    edition: str
    colors: tuple[str, ...]
    corners: Any  # 4x2 float32, pixels of a `size` picture, clockwise from T0's corner
    size: tuple[int, int]
    reference: Any  # the rectified teach photo, uint8 BGR
    hues: dict[str, float]
    per_pawn: dict[str, float]  # one pawn's pixels of its hue, per seated colour

    def __post_init__(self) -> None:
        self.taught = Taught(self.reference.astype(np.float32), self.hues, self.per_pawn,
                             self.colors)

    def corners_for(self, width: int, height: int) -> Any:
        """The corners in a picture of another size from the same camera (scaled);
        ModelError when its shape is not the taught picture's."""
        w, h = self.size
        if abs(width / height - w / h) > 0.01:
            raise ModelError(f"the frames are {width}x{height} but the board was taught from "
                             f"a {w}x{h} picture; {TEACH_AGAIN} from this camera")
        return self.corners * np.float32(width / w)

    def header(self) -> dict[str, Any]:
        return {"format": FORMAT, "edition": self.edition, "colors": list(self.colors),
                "corners": self.corners.tolist(), "size": list(self.size),
                "hues": self.hues, "per_pawn": self.per_pawn}


def teach(photo: Any, edition: str, colors: tuple[str, ...], corners: Any = None
          ) -> BoardModel:
    """The board taught from one photo of it set up for a game (every seated colour's
    pawns in START); find.NotFound says what to change."""
    from games.board.camera.find import NotFound

    found = find(photo, colors, corners)
    hues = refined_hues(found.rectified, colors)
    seen = start_pixels(found.rectified, colors, hues)
    n = PAWNS[edition]
    missing = [c for c in colors if seen[c] < SEEN * n * PAWN_PIXELS]
    if missing:
        raise NotFound(f"no {' or '.join(missing)} pawns are seen in "
                       f"{'their' if len(missing) > 1 else 'its'} START; put each seated "
                       "colour's pawns in its own START, in view and in good light, and take "
                       "the photo again", "no_pawns", tuple(missing))
    h, w = photo.shape[:2]
    return BoardModel(edition, colors, np.asarray(found.corners, np.float32), (w, h),
                      found.rectified, hues, {c: seen[c] / n for c in colors})


def save(model: BoardModel, path: str | os.PathLike[str]) -> None:
    arrays = {"header": np.frombuffer(json.dumps(model.header()).encode(), np.uint8),
              "reference": model.reference}
    write_npz(path, arrays)


def load(path: str | os.PathLike[str]) -> BoardModel:
    """The board model in `path`, or ModelError saying in one sentence why not."""
    name = quote_path(os.fspath(path))
    try:
        return _read(read_regular(path, MAX_BYTES, "a board model"))
    except NoSuchFile:
        raise ModelError(f"there is no board model at {name}; teach the board first with "
                         "`sorry-companion camera teach-board`") from None
    except UnusableFile as exc:
        raise ModelError(str(exc)) from None
    except (OSError, ValueError, KeyError, IndexError, TypeError, EOFError, RuntimeError,
            zipfile.BadZipFile, zlib.error):
        raise ModelError(f"{name} is not a board model this app wrote (or it is damaged); "
                         f"{TEACH_AGAIN}") from None


def _read(data: bytes) -> BoardModel:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        infos = {i.filename: i for i in archive.infolist()}
        if set(infos) != set(MEMBERS) or any(i.file_size > MEMBERS[n] or i.flag_bits & 1
                                             for n, i in infos.items()):
            raise ValueError("not a board model's members")
    with np.load(io.BytesIO(data), allow_pickle=False) as arrays:
        raw, reference = arrays["header"], arrays["reference"]
    if raw.dtype != np.uint8 or raw.ndim != 1:
        raise ValueError("no header")
    if reference.dtype != np.uint8 or reference.shape != (cells.SIZE, cells.SIZE, 3):
        raise ValueError("no rectified board")
    header = json.loads(bytes(raw).decode())
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise ValueError("another format")
    edition, colors = header["edition"], tuple(header["colors"])
    if edition not in PAWNS or not colors or len(set(colors)) != len(colors) \
            or not all(c in g.COLORS for c in colors):
        raise ValueError("no game")
    size = tuple(int(v) for v in header["size"])
    corners = np.array(header["corners"], np.float32)
    if len(size) != 2 or not all(0 < v <= MAX_SIDE for v in size) \
            or corners.shape != (4, 2) or not np.isfinite(corners).all():
        raise ValueError("no board")
    hues = {c: _number(header["hues"][c], 0, 180) for c in g.COLORS}
    per_pawn = {c: _number(header["per_pawn"][c], 1, cells.SIZE ** 2) for c in colors}
    return BoardModel(edition, colors, corners, (size[0], size[1]), reference, hues, per_pawn)


def _number(value: Any, low: float, high: float) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) \
            or not math.isfinite(value) or not low <= value <= high:
        raise ValueError("not a number in range")
    return float(value)
