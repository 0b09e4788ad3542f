"""Recognising the card on top of the pile from the family's own photos (needs the extra).

Two steps, each chosen to survive what a table does to a picture:
- *where*: ORB features of each taught face, matched to the pile spot and checked by a
  RANSAC rotation, scale and shift, find the card roughly whatever its rotation or
  offset; a card half under another gives few inliers. When the pose the print favours
  reads no card (a glare or blur leaves too few features, or a wrong pose won), where the
  pile changed as the card was laid (camera.change) and every other pose are tried;
- *which*: the frame is warped back upright along the best candidate's pose and compared
  with every taught face by normalised grey correlation at two coarse scales (blurred, so
  focus and JPEG noise matter little; normalised, so the light's brightness does not),
  both ways up. Faces of one family share their layout and differ only by their print,
  which a pose a few pixels off blurs away: so a fine stage lays the taught photos on the
  card by ECC (a homography, from the features' rough pose), ranks the faces again on the
  card brought upright along those exact corners, lays the best few on it (and the face
  with most feature inliers, which coarse correlation can rank low), and duels them only
  where they differ. The confidence comes from that margin: when it is small the
  card is asked, never guessed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from camera.light import flatten
from camera.locate import CANON, Quad, upright

# the pile spot's features at most (a taught face has 100-200): matching them to every
# taught one was 150 ms a read at 1200, and a busy dev cloth reads the same at 600
ORB_FEATURES = 600
RANSAC_ITERATIONS = 300
MAX_HAMMING = 64  # a feature match closer than this (of 256 bits) counts
TRIED_FACES = 40  # the faces with most matches get a geometric check
MIN_INLIERS = 10  # fewer: no card found there ...
FEW_INLIERS = 6  # ... unless no face has more; then this many, if the card's photo
FEW_CORRELATION = 0.8  # laid on it by ECC correlates at least this well, or
WASHED_CORRELATION = 0.6  # this well when the face is read sure and the card found has
SIZE_CLOSE = 0.1  # the taught card's long edge within this share (a glare washed its print)
CANDIDATES = 3  # faces whose homographies are checked by correlation
# poses tried again when the first reads no card (where the pile changed, then the poses
# the most inliers found): each try lays a dozen photos by ECC, and a frame with no new
# card in it tried every pose, 1.1-1.5 s of CPU (issue 37)
MAX_TRIES = 3
SIZE_SLACK = 1.6  # a found card's size may differ this much from the taught one
SCALES = ((20, 28), (40, 56))  # correlation sizes (w, h)
VIEW_MARGIN = 0.12  # the fine stage looks this share of the card beyond its found corners
FINE_BLUR = 1.0
# ECC's iterations at most, each stage: 50 ran out on most lays, at 8 ms each, while the
# dev homes read the same at 20 (issue 37's CPU round)
ALIGN_STEPS = 20
ALIGN_PASSES = 2
VARY_BLUR = 2.0  # pixels over which two photos' differences are pooled
SHIFT_FORGIVEN = 1  # pixels two faces' laid photos may disagree by at a shared edge
EDGE_SPARED = 4  # pixels inside the photos' own edge not weighed (resampled, blurred)
NOISE_FLOOR = 0.2  # of the mean squared difference: the least a pixel is taken to vary
DETAIL_BLUR = 3.0  # a face taught from one photo duels on the detail finer than this (px)
SHORTLIST = 4  # faces whose photos the fine stage lays on the card
# the second best face's photos refine the corners too only when none of the best one's
# fit the card this well: a face of the same family (the coarse order's usual mistake)
# shares the layout, so either finds the same corners; each refining lay costs two ECCs
REFINED_FIT = 0.8
DUEL_MARGIN = 0.4  # a relative distance margin this large between two faces: certain
ASK_BELOW = 0.5  # confidence under this: the card is asked
ALIKE = 0.9  # two taught faces correlating this well are too alike to tell apart


@dataclass
class TaughtFace:
    """One photo of one face, upright: its grey picture and its ORB features."""

    card: str
    grey: Any  # CANON grey uint8
    points: Any  # Nx2 float32, in CANON pixels
    descriptors: Any  # Nx32 uint8


@dataclass(frozen=True)
class Reading:
    """What recognition says about the top card: `card` None means asked between
    `candidates` (best first); `quad` its corners in the frame (laid on a taught photo
    by ECC, so within a pixel or two)."""

    card: str | None
    confidence: float
    candidates: tuple[str, ...]
    quad: Quad

    def pose(self) -> tuple[float, float, float]:
        """Centre x, y and the angle (degrees, mod 180) of the card's short edge."""
        q = np.asarray(self.quad, np.float32)
        cx, cy = q.mean(axis=0)
        dx, dy = q[1] - q[0]
        return float(cx), float(cy), float(np.degrees(np.arctan2(dy, dx)) % 180)

    def size(self) -> float:
        q = np.asarray(self.quad, np.float32)
        return float(np.linalg.norm(q[2] - q[1]))


def _orb() -> Any:
    return cv2.ORB.create(nfeatures=ORB_FEATURES, scaleFactor=1.2, nlevels=6, edgeThreshold=15,
                          patchSize=15, fastThreshold=10)


def _signatures(grey: Any) -> list[Any]:
    """The face at the correlation sizes, zero-mean and unit-norm (one vector each)."""
    out = []
    flat = flatten(grey)
    for size in SCALES:
        small = cv2.resize(cv2.GaussianBlur(flat, (0, 0), 1.5), size,
                           interpolation=cv2.INTER_AREA).astype(np.float32)
        small -= small.mean()
        out.append(small / (np.linalg.norm(small) + 1e-6))
    return out


def similarity(a: Any, b: Any) -> float:
    """Correlation of two upright greys, the better of both ways up (-1..1)."""
    sa = _signatures(a)
    best = -1.0
    for turned in (b, b[::-1, ::-1]):
        sb = _signatures(np.ascontiguousarray(turned))
        best = max(best, float(np.mean([np.sum(x * y) for x, y in zip(sa, sb, strict=True)])))
    return best


def teach_face(card: str, image: Any, quad: Quad) -> TaughtFace:
    """A TaughtFace from one photo and the card's corners in it."""
    grey = upright(image, quad)
    points, descriptors = features(grey)
    return TaughtFace(card, grey, points, descriptors)


def features(grey: Any, mask: Any = None) -> tuple[Any, Any]:
    keypoints, descriptors = _orb().detectAndCompute(grey, mask)
    if descriptors is None:
        return np.zeros((0, 2), np.float32), np.zeros((0, 32), np.uint8)
    return np.array([k.pt for k in keypoints], np.float32), descriptors


@dataclass
class Recogniser:
    """The taught faces, ready to read frames: `read(frame, spot)`."""

    faces: list[TaughtFace]
    card_size: float | None = None  # a laid card's long edge / the frame's width, if known
    aligned: bool = False  # the faces' greys are laid on one another already (`aligned`)
    _signs: list[tuple[str, list[Any], list[Any]]] = field(default_factory=list)
    _stacked: list[Any] = field(default_factory=list)  # `_photo_scores`' table
    _flat: dict[int, list[Any]] = field(default_factory=dict)
    _seen: dict[bytes, Any] = field(default_factory=dict)
    _laid: dict[tuple[int, int, bool, bool], Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._matcher = cv2.BFMatcher(cv2.NORM_HAMMING)
        # every taught descriptor in one table, with the face each belongs to: one
        # brute-force pass per frame instead of one per face
        usable = [f.descriptors for f in self.faces if len(f.descriptors)]
        self._train = np.vstack(usable) if usable else None
        self._owner = np.concatenate([np.full(len(f.descriptors), i)
                                      for i, f in enumerate(self.faces)]) if usable else None
        greys = [f.grey for f in self.faces] if self.aligned else _aligned_greys(self.faces)
        for face, grey in zip(self.faces, greys, strict=True):
            turned = np.ascontiguousarray(grey[::-1, ::-1])
            self._signs.append((face.card, _signatures(grey), _signatures(turned)))
            self._flat[id(face)] = [_prepared(grey), _prepared(turned)]
        # every photo's signatures, both ways up, one row each (photo i's ways at 2i, 2i+1),
        # a table a scale: `_photo_scores`
        self._stacked = [np.stack([ways[k].ravel() for _card, *both in self._signs
                                   for ways in both]) for k in range(len(SCALES))]

    def _matches(self, descriptors: Any, points: Any) -> list[tuple[int, Any, Any]]:
        """The faces with most close feature matches (best first): (index, their points,
        the frame's points)."""
        if self._train is None or self._owner is None:
            return []
        matches = [m for m in self._matcher.match(descriptors, self._train)
                   if m.distance <= MAX_HAMMING]
        if not matches:
            return []
        train = np.array([m.trainIdx for m in matches])
        query = np.array([m.queryIdx for m in matches])
        owners = self._owner[train]
        counts = np.bincount(owners, minlength=len(self.faces))
        starts = np.concatenate([[0], np.cumsum([len(f.descriptors) for f in self.faces])])
        out = []
        for index in np.argsort(-counts)[:TRIED_FACES]:
            if counts[index] < FEW_INLIERS:
                break
            mine = owners == index
            out.append((int(index), self.faces[index].points[train[mine] - starts[index]],
                        points[query[mine]]))
        return out

    def _poses(self, matched: list[tuple[int, Any, Any]], least: int
               ) -> dict[str, tuple[int, Any]]:
        """Each face's best pose found with at least `least` inliers: (inliers, pose)."""
        best: dict[str, tuple[int, Any]] = {}
        for index, src, dst in matched:
            hom = _card_homography(src, dst, least)
            if hom is not None:
                count, h = hom
                card = self.faces[index].card
                if count > best.get(card, (0, None))[0]:
                    best[card] = (count, h)
        return best

    def read(self, frame: Any, spot: tuple[int, int, int, int] | None = None,
             laid: Quad | None = None) -> Reading | None:
        """The card on top within `spot` (x0, y0, x1, y1 pixels; None: the whole frame);
        `laid`: where the pile changed as a card was laid (camera.change), if known."""
        grey = frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        self._seen, self._laid = {}, {}  # this frame's views and lays, made once
        x0, y0 = (0, 0) if spot is None else spot[:2]
        crop = grey if spot is None else grey[spot[1]:spot[3], spot[0]:spot[2]]
        points, descriptors = features(crop)
        matched = self._matches(descriptors, points) if len(points) >= MIN_INLIERS else []
        poses = self._poses(matched, FEW_INLIERS)  # RANSAC runs once whatever the least
        best = {card: pose for card, pose in poses.items() if pose[0] >= MIN_INLIERS}
        few = not best  # a pale face among a busy pile's edges: try with fewer inliers
        if few:
            best = poses
        shift = np.array([[1, 0, x0], [0, 1, y0], [0, 0, 1]], np.float64)
        expected = None if self.card_size is None else self.card_size * grey.shape[1]
        ranked = sorted(best.items(), key=lambda kv: -kv[1][0])[:CANDIDATES]
        quads: dict[str, Any] = {}
        scores = self._scores(grey, self._sized_quads([shift @ h for _c, (_n, h) in ranked],
                                                      expected), quads)
        reading, fit = None, -1.0
        if scores:
            order = sorted(scores, key=lambda c: -scores[c])[:CANDIDATES]
            found = ranked[0][0]  # the face whose features found the card best
            reading, fit = self._verdict(grey, quads[order[0]], order, (found,), few,
                                         expected)
        sure = reading is not None and reading.card is not None
        if sure and fit >= WASHED_CORRELATION:
            return reading
        # Not read there, or its photos fit it poorly. The corners the fine stage starts
        # from, and the two faces whose photos refine them, came from the coarse print,
        # which a glare or a wrong pose (a card beneath, features matched across two
        # cards) can mislead, and a glare or blur can leave too few features for any pose.
        # So where the pile changed is tried, then each pose found even with FEW_INLIERS,
        # refined first by the face whose features found it; each is held to the test of
        # a pose found with few inliers, and the best fit read sure is the card. A card
        # asked stays asked unless a try fits better, and its candidates are laid at every
        # try: a card's photos that fit it well say it lies there (a try fitting worse is
        # another card's pose, one beneath), and a try that duels without one of the two
        # faces it could be reads the other sure (one photo a face: a sorry as a steal).
        tries: list[tuple[str | None, Quad]] = [] if laid is None else [(None, laid)]
        for card, (_count, hom) in sorted(poses.items(), key=lambda kv: -kv[1][0]):
            tries += [(card, quad) for quad in self._sized_quads([shift @ hom], expected)]
        best_fit = fit if reading is not None else -1.0
        asked = () if reading is None or sure else reading.candidates
        for face, quad in tries[:MAX_TRIES]:
            at = self._scores(grey, [quad], {})
            order = [c for c in [face] if c] + [c for c in sorted(at, key=lambda c: -at[c])
                                                if c != face]
            kept = tuple(c for c in [face] if c) + asked
            again, fit = self._verdict(grey, quad, order[:CANDIDATES], kept, True, expected)
            if again is not None and again.card is not None and fit > best_fit:
                reading, best_fit = again, fit
                if fit >= FEW_CORRELATION:
                    break
        return reading

    @staticmethod
    def _sized_quads(poses: list[Any], expected: float | None) -> list[Any]:
        """The corners of the card at each pose (homographies from the upright face to
        the frame) that has the size of a card lying on the table at the taught distance."""
        w, h = CANON
        corners = np.array([[[0, 0], [w, 0], [w, h], [0, h]]], np.float32)
        out = []
        for pose in poses:
            quad = cv2.perspectiveTransform(corners, pose)[0]
            long_edge = float(np.linalg.norm(quad[2] - quad[1]))
            if expected is None or 1 / SIZE_SLACK < long_edge / expected < SIZE_SLACK:
                out.append(quad)
        return out

    def _scores(self, grey: Any, found: list[Any], quads: dict[str, Any]) -> dict[str, float]:
        """Each face's best coarse correlation with the card brought upright along any of
        the corners `found`; `quads` gets, for each face, the corners it was best at."""
        scores: dict[str, float] = {}
        for quad in found:
            best = self._photo_scores(_signatures(upright(grey, quad))).max(axis=1)
            for (card, *_ways), score in zip(self._signs, best.tolist(), strict=True):
                if score > scores.get(card, -2.0):
                    scores[card] = score
                    quads[card] = quad
        return scores

    def _verdict(self, grey: Any, quad: Quad, order: list[str], found: tuple[str, ...],
                 few: bool, expected: float | None) -> tuple[Reading | None, float]:
        """The fine stage's reading of the card near `quad` (None: no card there), and how
        well the best face's photos fit it."""
        card, confidence, runner, quad, fit = self._aligned(grey, quad, order, found,
                                                            halved=not few)
        if few and fit < FEW_CORRELATION and not (
                fit >= WASHED_CORRELATION and confidence >= ASK_BELOW
                and expected is not None and _sized(quad, expected)):
            return None, fit  # so few features, and no taught photo fits there: no card
        if confidence < ASK_BELOW:
            return Reading(None, round(confidence, 3), (card, runner), quad), fit
        return Reading(card, round(confidence, 3), (card,), quad), fit

    def _aligned(self, grey: Any, quad: Quad, order: list[str], found: tuple[str, ...],
                 halved: bool = True) -> tuple[str, float, str, Quad, float]:
        """The fine stage. The two best candidates' photos (the second's only when none of
        the first's fits well: REFINED_FIT), each the way up the coarse correlation
        favours (laying both ways doubled the fine stage's cost), are laid on the card seen
        by ECC (a homography: the corners found by features need only be near)
        to find its corners exactly; brought upright along them, the card ranks every face
        again by the coarse correlation; the best few faces' photos, and those of the face
        `found` (the one with most feature inliers; a card asked: its candidates too), are
        laid on it by ECC, and duel where they differ.
        The coarse correlation sees mostly the layout a family shares, and a face taught
        from one photo whose corners were found a little off ranks low there even on its
        own card (a nudged 5 ranked sixth, behind the 3 and the 8, and was read as an 8);
        its features, which hold its print, still found it by far the most inliers."""
        view = self._view(grey, quad)
        refined = None
        for rank, card in enumerate(order[:2]):
            if rank and refined is not None and refined[0] >= REFINED_FIT:
                break  # the best face's photo lies on it well: its corners are found
            for _face, template in self._ways(grey, quad, {card}):
                got = self._lay(template, view, reach=True, halved=False)
                if got is not None and (refined is None or got[0] > refined[0]):
                    refined = got
        if refined is not None:
            quad = view.quad_of(refined[3])
            view = self._view(grey, quad)
        seen = _signatures(upright(grey, quad))
        by_card: dict[str, float] = {}
        best = self._photo_scores(seen).max(axis=1)
        for (card, *_ways), score in zip(self._signs, best.tolist(), strict=True):
            by_card[card] = max(by_card.get(card, -2.0), score)
        shortlist = set(sorted(by_card, key=lambda c: -by_card[c])[:SHORTLIST])
        shortlist |= set(found)
        photos: dict[str, list[tuple[float, Any, Any, Any]]] = {}
        for face, template in self._ways(grey, quad, shortlist, seen):
            got = self._lay(template, view, reach=refined is None, halved=halved)
            if got is not None:
                photos.setdefault(face.card, []).append(got)
        laid = {card: _Laid.of(got) for card, got in photos.items()}
        ranked = sorted(laid, key=lambda c: -laid[c].correlation)
        if not ranked:
            return order[0], 0.0, order[min(1, len(order) - 1)], quad, -1.0
        fit = laid[ranked[0]].correlation  # how well the best face's photos lie on it
        if len(ranked) == 1:
            return ranked[0], 1.0, ranked[0], quad, fit
        return (*_duel(view.prepared, ranked, laid), quad, fit)

    def _view(self, grey: Any, quad: Quad) -> _MarginView:
        """The margin view of `grey` at `quad`, made once a read (`_seen`)."""
        key = np.asarray(quad, np.float32).tobytes()
        if key not in self._seen:
            self._seen[key] = _MarginView(grey, quad)
        return self._seen[key]  # type: ignore[no-any-return]

    def _lay(self, template: Any, view: _MarginView, *, reach: bool, halved: bool
             ) -> tuple[float, Any, Any, Any] | None:
        """`_lay` of `template` on `view`, done once a read: the poses tried again after
        a read's first look often start from the same corners, and lay the same photos
        on the same view (ECC is deterministic: the same answer, without its cost)."""
        key = (id(template), id(view), reach, halved)
        if key not in self._laid:
            self._laid[key] = _lay(template, view.prepared, view.margin, reach=reach,
                                   halved=halved)
        return self._laid[key]  # type: ignore[no-any-return]

    def _ways(self, grey: Any, quad: Quad, cards: set[str], seen: list[Any] | None = None
              ) -> list[tuple[TaughtFace, Any]]:
        """Each taught photo of `cards`, prepared, the way up that correlates best with
        the card seen."""
        ways = np.argmax(self._photo_scores(seen or _signatures(upright(grey, quad))),
                         axis=1)  # the first of equal ones, as max() took
        return [(face, self._flat[id(face)][int(ways[index])])
                for index, face in enumerate(self.faces) if face.card in cards]

    def _photo_scores(self, seen: list[Any]) -> Any:
        """The coarse correlation of the card `seen` (its `_signatures`) with every taught
        photo, upright and turned (one row a photo): each scale's signatures multiplied and
        summed, the mean over the scales. One product a scale over the whole deck: scored
        photo by photo and way by way it was 0.3-0.7 s of `camera watch` on the busy dev
        recordings, in Python's overhead."""
        sums = [(table * part.ravel()).sum(axis=1) for table, part in zip(self._stacked, seen,
                                                                            strict=True)]
        return (sum(sums) / len(sums)).reshape(len(self._signs), -1)


def aligned(faces: list[TaughtFace]) -> list[TaughtFace]:
    """The faces with their greys laid on one another (`_aligned_greys`), done once when a
    deck is taught: a Recogniser told so starts without it (it was most of `camera
    watch`'s start, 4 s of CPU on a busy host). Their features stay the photos' own."""
    return [TaughtFace(f.card, grey, f.points, f.descriptors)
            for f, grey in zip(faces, _aligned_greys(faces), strict=True)]


def _aligned_greys(faces: list[TaughtFace]) -> list[Any]:
    """The taught photos brought onto one another: each photo's corners were found on its
    own, a pixel or two off, and the fine stage's ranking compares them with the card seen
    at one alignment. Each photo, the way up that fits best, is laid by ECC on the mean of
    them all (the layout a deck's faces share) and resampled there; twice, as the second
    mean is sharper."""
    if not faces:
        return []
    greys = [face.grey for face in faces]
    for _ in range(ALIGN_PASSES):
        reference = _prepared(np.mean(np.stack(greys), axis=0).astype(np.uint8))
        out = []
        for grey in greys:
            best: tuple[float, Any] | None = None
            for way in (grey, np.ascontiguousarray(grey[::-1, ::-1])):
                got = _onto(reference, way)
                if got is not None and (best is None or got[0] > best[0]):
                    best = got
            out.append(grey if best is None else best[1])
        greys = out
    return greys


def _onto(reference: Any, grey: Any) -> tuple[float, Any] | None:
    """`grey` resampled onto `reference` (prepared) by ECC, with the correlation."""
    found = _ecc(reference, _prepared(grey), np.eye(3, dtype=np.float32))
    if found is None:
        return None
    correlation, warp = found
    size = (grey.shape[1], grey.shape[0])
    return float(correlation), cv2.warpPerspective(
        grey, warp, size, flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
        borderMode=cv2.BORDER_REPLICATE)


def _ecc(template: Any, image: Any, warp: Any, reach: bool = True, halved: bool = False
         ) -> tuple[float, Any] | None:
    """ECC's correlation and the homography laying `template` on `image` (prepared
    pictures), from `warp`: first an affine move at half size (it reaches further), then
    the homography at full size; None when it does not converge or is no card's move.
    `reach` False: `warp` is within a pixel or two already: the affine step is spared,
    and with `halved` the homography is found at half size alone (a quarter of the
    pixels: each full-size lay was 8-10 ms of the refined card's dozen, most of `camera
    watch`'s CPU on a busy cloth; laid back at full size it lies within a pixel, which
    the duel forgives: SHIFT_FORGIVEN), the correlation given the half size's. Only a
    read's first look, where the features found the card, lays at half size: the poses
    tried again after it stop at the first that fits at FEW_CORRELATION, and half-size
    lays moved such fits by a hundredth (dev paisley recording 20_500: a steal's photo
    fitted a sorry at 0.808 where it had fitted 0.793 and the sorry's pose was tried next:
    read as the steal)."""
    criteria = (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, ALIGN_STEPS, 1e-4)
    half = np.diag([0.5, 0.5, 1.0]).astype(np.float32)
    try:
        if not reach and halved:
            small = (half @ warp @ np.linalg.inv(half)).astype(np.float32)
            smaller = _halved(image)
            correlation, small = cv2.findTransformECC(
                _halved(template), smaller, small, cv2.MOTION_HOMOGRAPHY, criteria,
                _everywhere(smaller), 1)
            warp = (np.linalg.inv(half) @ small @ half).astype(np.float32)
            return (float(correlation), warp) if _plausible(warp) else None
        if reach:
            small = (half @ warp @ np.linalg.inv(half))[:2].astype(np.float32)
            smaller = _halved(image)
            _, small = cv2.findTransformECC(_halved(template), smaller, small,
                                            cv2.MOTION_AFFINE, criteria,
                                            _everywhere(smaller), 1)
            warp = (np.linalg.inv(half) @ np.vstack([small, [0, 0, 1]]) @ half
                    ).astype(np.float32)
        correlation, warp = cv2.findTransformECC(template, image, warp, cv2.MOTION_HOMOGRAPHY,
                                                 criteria, _everywhere(image), 1)
    except cv2.error:
        return None
    return (float(correlation), warp) if _plausible(warp) else None


def _sized(quad: Quad, expected: float) -> bool:
    """Whether a card found at `quad` has the taught card's long edge (within SIZE_CLOSE):
    where a glare washed out part of a card's print, few features are found on it and its
    photos fit it less well, but the fine stage still lays them on its very outline."""
    q = np.asarray(quad, np.float32)
    long_edge = max(float(np.linalg.norm(q[2] - q[1])), float(np.linalg.norm(q[3] - q[0])))
    return abs(long_edge / expected - 1) <= SIZE_CLOSE


def _everywhere(picture: Any) -> Any:
    return np.full(picture.shape[:2], 255, np.uint8)


def _halved(picture: Any) -> Any:
    return cv2.resize(cv2.GaussianBlur(picture, (0, 0), 1.0), None, fx=0.5, fy=0.5,
                      interpolation=cv2.INTER_AREA)


def _prepared(grey: Any) -> Any:
    """A picture as the fine stage compares it: light taken out, a little blurred (focus
    and JPEG differ between the teaching photo and the frame)."""
    return cv2.GaussianBlur(flatten(grey), (0, 0), FINE_BLUR).astype(np.float32)


class _MarginView:
    """The card at CANON scale with a margin all round (its corners found by features may
    be off by some pixels), prepared; `margin` (x, y) in pixels."""

    def __init__(self, grey: Any, quad: Quad) -> None:
        w, h = CANON
        mx, my = round(w * VIEW_MARGIN), round(h * VIEW_MARGIN)
        self.margin = (mx, my)
        to_frame = cv2.getPerspectiveTransform(
            np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32),
            np.asarray(quad, np.float32))
        grown = np.array([[[-mx, -my], [w + mx, -my], [w + mx, h + my], [-mx, h + my]]],
                         np.float32)
        corners = cv2.perspectiveTransform(grown, to_frame)[0]
        size = (w + 2 * mx, h + 2 * my)
        view = np.array([[0, 0], [size[0], 0], [size[0], size[1]], [0, size[1]]], np.float32)
        self.to_view = cv2.getPerspectiveTransform(corners, view)
        self.prepared = _prepared(cv2.warpPerspective(grey, self.to_view, size,
                                                      flags=cv2.INTER_AREA,
                                                      borderMode=cv2.BORDER_REPLICATE))

    def quad_of(self, warp: Any) -> Quad:
        """The frame corners of a CANON face laid on this view by `warp`."""
        w, h = CANON
        corners = np.array([[[0, 0], [w, 0], [w, h], [0, h]]], np.float32)
        to_frame = np.linalg.inv(self.to_view) @ warp
        return cv2.perspectiveTransform(corners, to_frame)[0]


def _lay(template: Any, seen: Any, margin: tuple[int, int], reach: bool = True,
         halved: bool = False) -> tuple[float, Any, Any, Any] | None:
    """`template` (a prepared taught face) laid on `seen` (a prepared margin view) by ECC:
    (correlation, the template in the view's pixels, where it covers them, the warp), or
    None when ECC does not converge. `reach` False: the view's corners were refined by a
    face's photo already, so it is laid at half size alone (`_ecc`)."""
    found = _ecc(template, seen,
                 np.array([[1, 0, margin[0]], [0, 1, margin[1]], [0, 0, 1]], np.float32),
                 reach, halved)
    if found is None:
        return None
    correlation, warp = found
    size = (seen.shape[1], seen.shape[0])
    laid = cv2.warpPerspective(template, warp, size)
    covered = cv2.warpPerspective(np.ones(template.shape, np.float32), warp, size) > 0.99
    if not reach and halved:  # laid at half size: how well it fits is measured at full size
        correlation = _fit(laid, seen, covered)
    return float(correlation), laid, covered, warp


def _fit(laid: Any, seen: Any, covered: Any) -> float:
    """The correlation of a laid photo with the view where it covers it (as ECC's own)."""
    a, b = laid[covered], seen[covered]
    if a.size < 2:
        return -1.0
    a, b = a - a.mean(), b - b.mean()
    return float(np.dot(a, b) / (np.sqrt(np.dot(a, a) * np.dot(b, b)) + 1e-9))


@dataclass(frozen=True)
class _Laid:
    """A face's photos laid on the card seen: their best correlation, their mean and
    variance pixel by pixel (what differs between two photos of one face is the light's,
    the focus' and the JPEG's doing, not the print), and where they all cover the view."""

    correlation: float
    mean: Any
    variance: Any
    cover: Any
    photos: int

    @classmethod
    def of(cls, photos: list[tuple[float, Any, Any, Any]]) -> _Laid:
        pictures = np.stack([p[1] for p in photos])
        cover = np.logical_and.reduce([p[2] for p in photos])
        return cls(max(p[0] for p in photos), pictures.mean(axis=0), pictures.var(axis=0),
                   cover, len(photos))


def _duel(seen: Any, order: list[str], laid: dict[str, _Laid]) -> tuple[str, float, str]:
    """Which of the candidate faces `seen` is, looking only where they differ: two faces of
    one family share their whole layout, and only their print tells them apart. Each pixel
    weighs as the two faces differ there over how much their own photos vary there (a
    glare or a blur in one photo is no difference of print). Every face laid duels every
    other: the correlation `order` ranks them by sees mostly the layout a family shares,
    and a face taught from one photo can rank fourth on its own card; such a face duels
    on the pictures' detail only (`_detail`). Returns the winner, its confidence (0..1,
    the worst of its duels) and the closest rival."""
    wins: dict[str, float] = {c: 1.0 for c in order}
    rival: dict[str, str] = {c: c for c in order}
    detail = _detail(seen)
    for i, a in enumerate(order):
        for b in order[i + 1:]:
            ta, tb, view = laid[a].mean, laid[b].mean, seen
            if min(laid[a].photos, laid[b].photos) < 2:
                ta, tb, view = _detail(ta), _detail(tb), detail
            both = cv2.erode((laid[a].cover & laid[b].cover).astype(np.uint8),
                             np.ones((2 * EDGE_SPARED + 1,) * 2, np.uint8)) > 0
            differ = cv2.GaussianBlur(_unlike(ta, tb), (0, 0), 1.0) ** 2
            vary = cv2.GaussianBlur(laid[a].variance + laid[b].variance, (0, 0), VARY_BLUR)
            floor = NOISE_FLOOR * float(differ[both].mean()) if both.any() else 1.0
            weight = differ / (vary + floor + 1e-9) * both
            weight /= float(weight.sum()) + 1e-9
            da, db = 1 - _correlation(view, ta, weight), 1 - _correlation(view, tb, weight)
            margin = (db - da) / (db + da + 1e-12)  # > 0: a is nearer
            winner, loser = (a, b) if margin >= 0 else (b, a)
            score = min(1.0, abs(margin) / DUEL_MARGIN)
            if score < wins[winner]:
                wins[winner], rival[winner] = score, loser
            wins[loser] = 0.0 if wins[loser] > 0 else wins[loser]
            if rival[loser] == loser:
                rival[loser] = winner
    card = max(order, key=lambda c: wins[c])
    if wins[card] == 0.0:  # no one beat everyone: the two best by correlation
        return order[0], 0.0, order[1]
    return card, wins[card], rival[card]


def _detail(picture: Any) -> Any:
    """A picture's detail finer than DETAIL_BLUR: a face taught from one photo has no
    second photo to say how its pixels vary, and a glare in that photo, smooth, passed
    for print (a 0's photo beat an 8's whose top corner a glare lit)."""
    return picture - cv2.GaussianBlur(picture, (0, 0), DETAIL_BLUR)


def _unlike(a: Any, b: Any) -> Any:
    """How much two laid pictures differ pixel by pixel, forgiving a shift of up to
    SHIFT_FORGIVEN pixels either way: each face's photos were laid on their own, and an
    edge they share but place a pixel apart is no difference of print."""
    r = SHIFT_FORGIVEN
    pa = cv2.copyMakeBorder(a, r, r, r, r, cv2.BORDER_REPLICATE)
    pb = cv2.copyMakeBorder(b, r, r, r, r, cv2.BORDER_REPLICATE)
    h, w = a.shape
    a_to_b = np.full(a.shape, np.inf, np.float32)
    b_to_a = np.full(a.shape, np.inf, np.float32)
    for dy in range(2 * r + 1):
        for dx in range(2 * r + 1):
            a_to_b = np.minimum(a_to_b, np.abs(a - pb[dy:dy + h, dx:dx + w]))
            b_to_a = np.minimum(b_to_a, np.abs(b - pa[dy:dy + h, dx:dx + w]))
    return np.maximum(a_to_b, b_to_a)


def _correlation(a: Any, b: Any, weight: Any) -> float:
    """The weighted correlation of two pictures (weights summing to 1): blind to their
    contrast, which focus and light change between a photo and a frame."""
    da = a - float(np.sum(weight * a))
    db = b - float(np.sum(weight * b))
    return float(np.sum(weight * da * db)
                 / (np.sqrt(np.sum(weight * da * da) * np.sum(weight * db * db)) + 1e-9))


def _card_homography(src: Any, dst: Any, least: int) -> tuple[int, Any] | None:
    """A face's points mapped onto the frame's: a rotation, scale and shift found by
    RANSAC (two points a sample, so quick among many wrong matches). (inlier count,
    homography) or None. No perspective: refitted on a few inliers it could skew the
    card wildly; the fine stage's ECC finds it from this start."""
    affine, inliers = cv2.estimateAffinePartial2D(src, dst, method=cv2.RANSAC,
                                                  ransacReprojThreshold=5.0,
                                                  maxIters=RANSAC_ITERATIONS)
    if affine is None or inliers is None:
        return None
    keep = inliers.ravel().astype(bool)
    count = int(keep.sum())
    if count < least:
        return None
    h = np.vstack([affine, [0, 0, 1]])
    return (count, h) if _plausible(h) else None


def _plausible(h: Any) -> bool:
    """A homography a card lying on a table can have: not mirrored, not squashed."""
    det = h[0, 0] * h[1, 1] - h[0, 1] * h[1, 0]
    return bool(det > 0.05 and det < 50 and abs(h[2, 0]) < 0.01 and abs(h[2, 1]) < 0.01)


def too_alike(faces: list[TaughtFace]) -> list[tuple[str, str, float]]:
    """Pairs of different cards whose taught photos correlate at ALIKE or more."""
    pairs: dict[tuple[str, str], float] = {}
    for i, a in enumerate(faces):
        for b in faces[i + 1:]:
            if a.card == b.card:
                continue
            key = (a.card, b.card) if a.card < b.card else (b.card, a.card)
            pairs[key] = max(pairs.get(key, -1.0), similarity(a.grey, b.grey))
    return [(a, b, s) for (a, b), s in sorted(pairs.items()) if s >= ALIKE]
