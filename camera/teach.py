"""Teaching a deck from photos: one folder per card name (CAMERA.md) (needs the extra)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from camera.cards import MAX_PHOTOS_A_FACE, card_names, folder_name
from camera.faces import TaughtFace, aligned, teach_face, too_alike
from camera.files import UnusableFile
from camera.image_file import read_image
from camera.locate import card_shapes, long_edge
from camera.model import Model, spot_from
from camera.sources import PHOTO_SUFFIXES
from companion.safe_text import quote_path

ALIKE_ADVICE = ("more light on the pile, the camera closer or straight above it, or "
                "teach those faces again")
# what to do about a photo in which no card is found (the teach screen says the same)
SIZE_AGREE = 0.15  # two photos' card outlines this close in size are the same card's
UNSEEN_ADVICE = "move the card a little or lay a plain sheet under it, and photograph it again"


class TeachError(ValueError):
    """A teaching folder that cannot make a model, in one sentence; `unseen`: the photos
    in which no card was found, when a face was left with none (those to take again)."""

    def __init__(self, message: str, unseen: Iterable[str] = ()) -> None:
        super().__init__(message)
        self.unseen = tuple(unseen)


@dataclass(frozen=True)
class Taught:
    model: Model
    alike: list[tuple[str, str, float]]  # faces too alike to tell apart, with their score
    unseen: list[str] = field(default_factory=list)  # photos with no card found: not used

    def report(self) -> list[str]:
        cards = self.model.cards()
        lines = [f"taught {len(cards)} faces of the {self.model.game} game from "
                 f"{len(self.model.faces)} photos"]
        for name in self.unseen:
            lines.append(f"no card was found in {quote_path(name)}, so it was not used: "
                         f"{UNSEEN_ADVICE}")
        for a, b, score in self.alike:
            lines.append(f"{a} and {b} look too alike to tell apart ({score:.2f}): "
                         f"{ALIKE_ADVICE}")
        return lines


def teach(photos: Mapping[str, Iterable[tuple[str, Any]]], game: str) -> Taught:
    """A model from (name, image) photos per card. A photo in which no card is found is
    left out and named (`Taught.unseen`): one such photo never loses the deck. TeachError
    names a missing card, a photo that could not be read (image None) or a card none of
    whose photos shows it."""
    faces: list[TaughtFace] = []
    quads: list[Any] = []
    unseen: list[str] = []
    size: tuple[int, int] | None = None
    shapes: dict[str, list[tuple[str, Any, list[Any]]]] = {}
    for card in card_names(game):
        got = list(photos.get(card, ()))
        if not got:
            raise TeachError(f"there is no photo of the card {card}: add one to the folder "
                             f"{folder_name(card)}")
        for name, image in got:
            if image is None:
                raise TeachError(f"{quote_path(name)} cannot be read as a PNG or JPEG photo")
        shapes[card] = [(name, image, card_shapes(image)) for name, image in got]
    edge = _card_length(shapes.values())
    found: dict[str, list[tuple[Any, Any]]] = {}
    for card, taken in shapes.items():
        for name, image, shapes_seen in taken:
            quad = _of_length(shapes_seen, edge, image.shape[1])
            if quad is None:
                unseen.append(name)
            else:
                found.setdefault(card, []).append((image, quad))
    for card, taken in shapes.items():
        if card not in found:
            names = ", ".join(quote_path(name) for name, _image, _quads in taken)
            raise TeachError(f"no card was found in any photo of the card {card} ({names}): "
                             f"{UNSEEN_ADVICE}", unseen)
        for image, quad in found[card]:
            faces.append(teach_face(card, image, quad))
            h, w = image.shape[:2]
            size = size or (w, h)
            quads.append(np.asarray(quad) * (size[0] / w))
    assert size is not None
    long_edges = [max(np.linalg.norm(q[2] - q[1]), np.linalg.norm(q[1] - q[0])) for q in quads]
    model = Model(game, aligned(faces), spot_from(quads, *size),
                  float(np.median(long_edges)) / size[0], aligned=True)
    return Taught(model, too_alike(faces), unseen)


def _card_length(taken: Iterable[list[tuple[str, Any, list[Any]]]]) -> float | None:
    """The card's long edge (a share of the photo's width) that the deck's photos agree
    on: every photo shows one card at the pile spot, seen by one camera, so the true
    outline has the same size in all of them, while a patterned cloth's blocks vary.
    The box printed on every face agrees too, but lies inside the card: so the largest
    size that at least half as many photos agree on (within SIZE_AGREE) as the best."""
    sizes = [[long_edge(q) / image.shape[1] for q in quads] for _n, image, quads in
             (t for photos in taken for t in photos)]
    agreed = {size: sum(any(abs(s / size - 1) <= SIZE_AGREE for s in photo)
                        for photo in sizes) for photo in sizes for size in photo}
    if not agreed:
        return None
    most = max(agreed.values())
    return float(max(size for size, n in agreed.items() if 2 * n >= most))


def _of_length(quads: list[Any], edge: float | None, width: int) -> Any:
    """The likeliest of a photo's card shapes whose long edge is `edge` (a share of the
    width) within SIZE_AGREE; None when none is."""
    for quad in quads:
        if edge is not None and abs(long_edge(quad) / width / edge - 1) <= SIZE_AGREE:
            return quad
    return None


def photos_in(folder: str | Path, game: str) -> dict[str, list[tuple[str, Any]]]:
    """The photos of a teaching folder, read; TeachError when the folder is not there, a
    face has more than MAX_PHOTOS_A_FACE photos or a photo cannot be used (not a regular
    PNG or JPEG file, larger than a frame: camera.image_file)."""
    root = Path(folder)
    if not root.is_dir():
        raise TeachError(f"{quote_path(str(root))} is not a folder of photos (one sub-folder per "
                         "card name)")
    out: dict[str, list[tuple[str, Any]]] = {}
    for card in card_names(game):
        sub = root / folder_name(card)
        if not sub.is_dir():
            continue
        files = sorted(p for p in sub.iterdir() if p.suffix.lower() in PHOTO_SUFFIXES)
        if len(files) > MAX_PHOTOS_A_FACE:
            raise TeachError(f"the folder {quote_path(str(sub))} holds {len(files)} photos; keep "
                             f"at most {MAX_PHOTOS_A_FACE} of the card {card}")
        try:
            out[card] = [(str(p), read_image(p, "photo")) for p in files]
        except UnusableFile as exc:
            raise TeachError(str(exc)) from None
    return out
