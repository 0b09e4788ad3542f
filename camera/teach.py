"""Teaching a deck from photos: one folder per card name (CAMERA.md) (needs the extra)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from camera.card_edge import edges, laid_on_edge, shapes_around
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
SAME_CARD = 0.03  # two photos' whole cards this close in both edges are the same card's
WHOLE = 0.75  # of a deck's photos, those whose whole card is found: enough to teach so
TRIES = 3  # a photo's outlines of the card's size laid on its edges, nearest first
UNSEEN_ADVICE = "move the card a little or lay a plain sheet under it, and photograph it again"


class TeachError(ValueError):
    """A teaching folder that cannot make a model, in one sentence; `unseen`: the photos
    in which no card was found, when no photo of the deck showed one (those to take
    again)."""

    def __init__(self, message: str, unseen: Iterable[str] = ()) -> None:
        super().__init__(message)
        self.unseen = tuple(unseen)


@dataclass(frozen=True)
class Taught:
    model: Model
    alike: list[tuple[str, str, float]]  # faces too alike to tell apart, with their score
    unseen: list[str] = field(default_factory=list)  # photos with no card found: not used
    # the faces none of whose photos showed the card, with those photos: left out
    missing: dict[str, list[str]] = field(default_factory=dict)

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
        if self.missing:
            lines.append(self.missing_line())
        return lines

    def missing_line(self) -> str:
        """One sentence naming the faces left out and how to teach them."""
        cards = list(self.missing)
        if len(cards) == 1:
            photos = len(self.missing[cards[0]])
            where = {1: "its photo", 2: "either photo"}.get(photos, "any of its photos")
            what, them = f"the card {cards[0]} was", "it"
        else:
            where, them = "any of their photos", "them"
            what = f"the cards {', '.join(cards[:-1])} and {cards[-1]} were"
        return (f"{what} not found in {where}, so the deck was written without {them} (a "
                f"card the camera may take for {them} is asked, never logged): take {them} "
                f"again on a plain sheet and run camera teach again")


def teach(photos: Mapping[str, Iterable[tuple[str, Any]]], game: str) -> Taught:
    """A model from (name, image) photos per card. A photo in which no card is found is
    left out and named (`Taught.unseen`), and a face none of whose photos shows it is
    left out of the deck and named (`Taught.missing`): such photos never lose the deck.
    TeachError names a missing card folder, a photo that could not be read (image None),
    or a deck none of whose photos shows a card."""
    faces: list[TaughtFace] = []
    quads: list[Any] = []
    unseen: list[str] = []
    size: tuple[int, int] | None = None
    taken: dict[str, list[tuple[str, Any]]] = {}
    for card in card_names(game):
        got = list(photos.get(card, ()))
        if not got:
            raise TeachError(f"there is no photo of the card {card}: add one to the folder "
                             f"{folder_name(card)}")
        for name, image in got:
            if image is None:
                raise TeachError(f"{quote_path(name)} cannot be read as a PNG or JPEG photo")
        taken[card] = got
    shapes = {name: card_shapes(image) for got in taken.values() for name, image in got}
    images = {name: image for got in taken.values() for name, image in got}
    cards = _whole_cards(images, shapes)
    if cards is None or _a_face_unseen(cards, taken):
        # the deck's photos agree on no whole card, or a face shows its whole card in none
        # of its photos (a folder cannot ask again): the whole deck from its outlines, as
        # before, where they show every face (a face is never taught whole beside one
        # taught as its box, and one face never loses a deck the outlines can teach)
        edge = _card_length([(images[n].shape[1], q) for n, q in shapes.items()])
        outlined = {n: _of_length(q, edge, images[n].shape[1]) for n, q in shapes.items()}
        if cards is None or not _a_face_unseen(outlined, taken):
            cards = outlined
    found: dict[str, list[tuple[Any, Any]]] = {}
    for card, got in taken.items():
        for name, image in got:
            if cards[name] is None:
                unseen.append(name)
            else:
                found.setdefault(card, []).append((image, cards[name]))
    missing = {card: [name for name, _image in got] for card, got in taken.items()
               if card not in found}
    if not found:
        raise TeachError(f"no card was found in any photo ({len(unseen)} photos): "
                         f"{UNSEEN_ADVICE}", unseen)
    for card, seen in found.items():
        for image, quad in seen:
            faces.append(teach_face(card, image, quad))
            h, w = image.shape[:2]
            size = size or (w, h)
            quads.append(np.asarray(quad) * (size[0] / w))
    assert size is not None
    long_edges = [max(np.linalg.norm(q[2] - q[1]), np.linalg.norm(q[1] - q[0])) for q in quads]
    model = Model(game, aligned(faces), spot_from(quads, *size),
                  float(np.median(long_edges)) / size[0], aligned=True)
    return Taught(model, too_alike(faces), unseen, missing)


def _a_face_unseen(cards: Mapping[str, Any], taken: Mapping[str, list[tuple[str, Any]]]
                   ) -> bool:
    """Whether a face has no photo in which its card was found (`cards`: photo name to
    its card, or None)."""
    return any(all(cards[name] is None for name, _image in got) for got in taken.values())


def _card_length(photos: list[tuple[int, list[Any]]]) -> float | None:
    """The card's long edge (a share of the photo's width) that the deck's photos agree
    on: every photo shows one card at the pile spot, seen by one camera, so the true
    outline has the same size in all of them, while a patterned cloth's blocks vary.
    The box printed on every face agrees too, but lies inside the card: so the largest
    size that at least half as many photos agree on (within SIZE_AGREE) as the best."""
    sizes = [[long_edge(q) / width for q in quads] for width, quads in photos]
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


def _whole_cards(images: Mapping[str, Any], shapes: Mapping[str, list[Any]]) \
        -> dict[str, Any] | None:
    """Each photo's whole card laid on its own edges (camera.card_edge), or None for a
    photo where none of the deck's size is found (taken again, never taught from its
    printed box: every face of a deck is taught the same way); None for the deck when
    fewer than WHOLE of its photos show such a card (a cloth whose lines are as clean
    as a card's edges: the outlines are then taken as before)."""
    around = {n: shapes_around(images[n], q) for n, q in shapes.items()}
    usual = _usual_card([(images[n].shape[1], seen) for n, (_p, seen) in around.items()])
    cards = {n: _card_in(picture, seen, usual, images[n].shape[1])
             for n, (picture, seen) in around.items()}
    laid = [edges(q, images[n].shape[1])[0] for n, q in cards.items() if q is not None]
    if len(laid) < WHOLE * len(cards):
        return None
    usual = np.median(laid, axis=0)  # of the cards laid on their edges
    return {n: None if q is None or np.max(np.abs(edges(q, images[n].shape[1])[0] / usual
                                                  - 1)) > SAME_CARD else q
            for n, q in cards.items()}


def _usual_card(photos: list[tuple[int, list[Any]]]) -> Any:
    """The card's size (camera.card_edge.edges) the deck's photos agree on, or None:
    every photo shows one card at the pile spot, seen by one camera, so the card has the
    same size in all of them (within SAME_CARD), while the cloth's lines and blocks lie
    elsewhere round each card. The box printed on every face agrees too, but lies inside
    the card: so the largest size that at least half as many photos agree on as the best."""
    sizes = [np.log(edges(quads, width)) for width, quads in photos if len(quads)]
    if not sizes:
        return None
    near = np.log1p(SAME_CARD)
    counts: Counter[tuple[int, int]] = Counter()
    for own in sizes:  # how many photos have a card of about each size (bins of `near`)
        cells = {(int(i) + di, int(j) + dj) for i, j in np.floor(own / near)
                 for di in (-1, 0, 1) for dj in (-1, 0, 1)}
        counts.update(cells)
    most = max(counts.values())
    cell = max((c for c, n in counts.items() if 2 * n >= most), key=sum)
    every = np.vstack(sizes)
    centre = (np.asarray(cell) + 0.5) * near
    around = np.abs(every - centre).max(axis=1) <= near
    return np.exp(np.median(every[around], axis=0))


def _card_in(picture: Any, quads: Any, usual: Any, width: int) -> Any:
    """Of a photo's card outlines, the nearest the usual size (within twice SAME_CARD:
    the outlines' sides lie a pixel or two out) that lays on the card's edges
    (camera.card_edge.laid_on_edge) and is still of that size; None when none is: that photo
    is taken again, never taught from another shape (its printed box, a block of the
    cloth), so every face of a deck is taught as the same whole card."""
    if usual is None or not len(quads):
        return None
    off = np.abs(edges(quads, width) / usual - 1).max(axis=1)
    for k in np.argsort(off)[:TRIES]:
        if off[k] > 2 * SAME_CARD:
            break
        card = laid_on_edge(picture, quads[k])
        if card is not None and np.max(np.abs(edges(card, width)[0] / usual - 1)) \
                <= 2 * SAME_CARD:
            return card
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
