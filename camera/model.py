"""A taught deck: its faces, where the pile spot is, and its file (needs the extra).

The file is one numpy .npz archive (arrays plus a JSON header), written to a temporary
name and renamed, so a crash never leaves half a model where the app looks for one.
"""

from __future__ import annotations

import io
import json
import math
import os
import re
import zipfile
import zlib
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.lib import format as npformat

from camera.archive import write_npz
from camera.cards import MAX_PHOTOS_A_FACE, card_names, games
from camera.faces import ORB_FEATURES, TaughtFace
from camera.files import NoSuchFile, UnusableFile, read_regular
from camera.locate import CANON
from companion.safe_text import quote, quote_path

FORMAT = 1
SPOT_MARGIN = 0.5  # the pile spot: the taught cards' box grown by this many card lengths
HEADER = "header.npy"
PARTS = ("grey", "points", "descriptors")  # the arrays of one photo, numbered from 0
MEMBER = re.compile(r"(header|grey|points|descriptors)(\d{0,3})\.npy")
DESCRIPTOR_BYTES = 32  # an ORB descriptor: 256 bits
MAX_HEADER_BYTES = 1 << 16  # the JSON header: a few hundred bytes for a whole deck
NPY_HEADER = 4096  # an .npy member's own header, at most (numpy writes 128 bytes)
# features a photo keeps: ORB_FEATURES, and the ties at the cut that OpenCV's retainBest keeps
MAX_FEATURES = 2 * ORB_FEATURES
# what each part unpacks to at most: a grey CANON picture, MAX_FEATURES points and descriptors
PART_BYTES = {"header": MAX_HEADER_BYTES + NPY_HEADER,
              "grey": CANON[0] * CANON[1] + NPY_HEADER,
              "points": MAX_FEATURES * 2 * 4 + NPY_HEADER,
              "descriptors": MAX_FEATURES * DESCRIPTOR_BYTES + NPY_HEADER}
MAX_PHOTOS = MAX_PHOTOS_A_FACE * max(len(card_names(game)) for game in games())
MAX_MEMBERS = 1 + len(PARTS) * MAX_PHOTOS
# the largest model: every part at its largest, stored, with the archive's own records
MAX_MODEL_BYTES = (PART_BYTES["header"] + MAX_PHOTOS * sum(PART_BYTES[p] for p in PARTS)
                   + MAX_MEMBERS * 256)


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
    aligned: bool = False  # its faces' greys laid on one another (camera.faces.aligned)

    def cards(self) -> list[str]:
        return sorted({f.card for f in self.faces}, key=card_names(self.game).index)

    def missing(self) -> list[str]:
        """The game's faces this deck was not taught (none of their photos showed the
        card): the watcher asks rather than log a card it might take one of them for."""
        taught = {f.card for f in self.faces}
        return [card for card in card_names(self.game) if card not in taught]

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
              "card_size": model.card_size, "cards": [f.card for f in model.faces],
              "aligned": model.aligned}
    arrays: dict[str, Any] = {"header": np.frombuffer(json.dumps(header).encode(), np.uint8)}
    for i, face in enumerate(model.faces):
        arrays[f"grey{i}"] = face.grey
        arrays[f"points{i}"] = face.points
        arrays[f"descriptors{i}"] = face.descriptors
    write_npz(path, arrays)


def load(path: str | os.PathLike[str]) -> Model:
    """The model in `path`, or ModelError saying in one sentence why it cannot be used.

    Everything is checked before it is used: the file is a regular one of at most
    MAX_MODEL_BYTES (camera.files); the archive holds exactly a model's members, none
    unpacking to more than a model's part can be (a zip bomb is refused from the archive's
    directory, before anything is unpacked); each array's dtype and shape are read from its
    .npy header first; then the values: finite, inside the card, a face for every card.
    """
    name = quote_path(os.fspath(path))
    try:
        data = read_regular(path, MAX_MODEL_BYTES, "a camera model")
    except NoSuchFile:
        raise ModelError(f"there is no camera model at {name}; teach the deck first with "
                         "`sorry-companion camera teach`") from None
    except UnusableFile as exc:
        raise ModelError(str(exc)) from None
    try:
        return _read(data)
    except _Damaged as exc:
        why = f": {exc}" if str(exc) else ""
        raise ModelError(f"{name} is not a camera model this app wrote (or it is damaged)"
                         f"{why}; teach the deck again with `sorry-companion camera teach`"
                         ) from None
    except (OSError, ValueError, KeyError, IndexError, TypeError, EOFError, RuntimeError,
            NotImplementedError, zipfile.BadZipFile, zlib.error):
        raise ModelError(f"{name} is not a camera model this app wrote (or it is damaged); "
                         "teach the deck again with `sorry-companion camera teach`") from None


class _Damaged(ValueError):
    """Why a model's bytes are not a model (words after "damaged: ")."""


def _read(data: bytes) -> Model:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        members = _checked_members(archive)
        header = _header(archive, members)
        cards = header["cards"]
        expected = {HEADER} | {f"{part}{i}.npy" for part in PARTS for i in range(len(cards))}
        if set(members) != expected:
            raise _Damaged(f"it holds {len(members)} parts where its header names "
                           f"{len(cards)} photos")
        shapes = {member: _array_header(archive, info) for member, info in members.items()}
    for i in range(len(cards)):
        _check_face(i, shapes)
    with np.load(io.BytesIO(data), allow_pickle=False) as arrays:
        faces = [TaughtFace(card, arrays[f"grey{i}"], arrays[f"points{i}"],
                            arrays[f"descriptors{i}"]) for i, card in enumerate(cards)]
    w, h = CANON
    for i, face in enumerate(faces):
        pts = face.points
        if not (np.isfinite(pts).all() and (pts >= 0).all() and (pts[:, 0] <= w).all()
                and (pts[:, 1] <= h).all()):
            raise _Damaged(f"the features of its photo {i + 1} lie outside the card")
    return Model(header["game"], faces, header["spot"], header["card_size"],
                 header["aligned"])


def _checked_members(archive: zipfile.ZipFile) -> dict[str, zipfile.ZipInfo]:
    """The archive's members by name, each no larger unpacked than a model's part."""
    infos = archive.infolist()
    if len(infos) > MAX_MEMBERS:
        raise _Damaged(f"it holds {len(infos)} parts, more than a model has ({MAX_MEMBERS})")
    members: dict[str, zipfile.ZipInfo] = {}
    for info in infos:
        match = MEMBER.fullmatch(info.filename)
        if match is None or info.filename in members:
            raise _Damaged(f"it holds a part named {quote(info.filename)}")
        if info.flag_bits & 0x1 or info.compress_type not in (zipfile.ZIP_STORED,
                                                               zipfile.ZIP_DEFLATED):
            raise _Damaged(f"its part {quote(info.filename)} is encrypted or compressed in "
                           "a way the app never writes")
        if info.file_size > PART_BYTES[match.group(1)]:
            raise _Damaged(f"its part {quote(info.filename)} would unpack to "
                           f"{info.file_size} bytes, more than such a part can be "
                           f"({PART_BYTES[match.group(1)]})")
        members[info.filename] = info
    return members


def _array_header(archive: zipfile.ZipFile, info: zipfile.ZipInfo) -> tuple[Any, Any]:
    """An .npy member's (shape, dtype), read from its header alone."""
    with archive.open(info) as member:
        version = npformat.read_magic(member)
        read = {(1, 0): npformat.read_array_header_1_0,
                (2, 0): npformat.read_array_header_2_0}.get(version)
        if read is None:
            raise _Damaged(f"its part {quote(info.filename)} is of an unknown .npy version")
        shape, fortran, dtype = read(member)
    if fortran:
        raise _Damaged(f"its part {quote(info.filename)} is not laid out as the app writes")
    return shape, dtype


def _header(archive: zipfile.ZipFile, members: dict[str, zipfile.ZipInfo]) -> dict[str, Any]:
    """The model's JSON header, every field checked."""
    if HEADER not in members:
        raise _Damaged("it has no header")
    shape, dtype = _array_header(archive, members[HEADER])
    if dtype != np.dtype(np.uint8) or len(shape) != 1:
        raise _Damaged("its header is not text")
    with archive.open(members[HEADER]) as member:
        raw = bytes(npformat.read_array(member, allow_pickle=False))
    try:
        header = json.loads(raw.decode(), parse_constant=_no_constant)
    except UnicodeDecodeError:
        raise _Damaged("its header is not text") from None
    if not isinstance(header, dict):
        raise _Damaged("its header is not a model's")
    if header.get("format") != FORMAT:
        raise _Damaged(f"it is of another format ({quote(header.get('format'))}, not "
                       f"{FORMAT})")
    game, cards = header.get("game"), header.get("cards")
    if game not in games():
        raise _Damaged(f"it is for a game this app does not know ({quote(game)})")
    names = card_names(game)
    if not isinstance(cards, list) or not all(c in names for c in cards):
        raise _Damaged(f"its cards are not all cards of the {game} game")
    if not cards:
        raise _Damaged("it holds no photo of any card")
    for card in names:  # a face none of whose photos showed the card has none (teach)
        if cards.count(card) > MAX_PHOTOS_A_FACE:
            raise _Damaged(f"it holds {cards.count(card)} photos of the card {card}, more "
                           f"than {MAX_PHOTOS_A_FACE}")
    spot: Any = header.get("spot")
    card_size: Any = header.get("card_size")
    if not (isinstance(spot, list) and len(spot) == 4 and all(_fraction(v) for v in spot)
            and spot[0] < spot[2] and spot[1] < spot[3]):
        raise _Damaged("its pile spot is not a box inside the frame")
    if not (_fraction(card_size) and card_size > 0):
        raise _Damaged("its card size is not a share of the frame's width")
    return {"game": game, "cards": cards, "card_size": float(card_size),
            "spot": (float(spot[0]), float(spot[1]), float(spot[2]), float(spot[3])),
            "aligned": header.get("aligned") is True}  # a model taught before: aligned at start


def _check_face(i: int, shapes: dict[str, tuple[Any, Any]]) -> None:
    """Photo i's arrays have the dtypes and shapes TaughtFace's have."""
    w, h = CANON
    grey, points, descriptors = (shapes[f"{part}{i}.npy"] for part in PARTS)
    features = points[0][0] if len(points[0]) == 2 else -1
    if grey != ((h, w), np.dtype(np.uint8)) \
            or points != ((features, 2), np.dtype(np.float32)) \
            or descriptors != ((features, DESCRIPTOR_BYTES), np.dtype(np.uint8)) \
            or not 0 <= features <= MAX_FEATURES:
        raise _Damaged(f"its photo {i + 1} is not stored as the app stores one")


def _fraction(value: Any) -> bool:
    """A finite number from 0 to 1 (JSON true/false are not numbers here)."""
    return (isinstance(value, (int, float)) and not isinstance(value, bool)
            and math.isfinite(value) and 0 <= value <= 1)


def _no_constant(word: str) -> Any:
    raise _Damaged(f"its header holds {word}, not a number")
