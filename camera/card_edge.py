"""A teaching photo's card by its own straight edges, at full size (needs the extra).

On a busy cloth (paisley, checks) the card's outline is broken wherever the cloth's shapes
touch it, so the outline search (camera.locate, at WORK_WIDTH) finds only the white box
printed on the face, whose edges are clean: taught so, the card's size is the box's and
faces that share a box (the sorry's and the steal's "S!", the 10's and the slide 10's)
look alike (dev paisley 20_000: 38 of 40 photos). But the card's edge is still one
straight line along most of each side, where the cloth's shapes are not: `outlines`
moves each side of a shape outward, parallel, to the lines across which the photo steps
in colour at nearly every place (a card's side, a line printed on the face; a line
through a paisley steps at some places only), and camera.teach keeps the size the deck's
photos agree on. `laid_on_edge` then lays each side on the card's edge to a fraction of a
pixel, fitted through the places along it where the edge is found (the cloth's shapes
touching it left out): the corners are where they are, at full size.
"""

from __future__ import annotations

import itertools
from typing import Any

import cv2
import numpy as np

from camera.locate import CARD_RATIO, Quad, long_edge, order_corners

STEP = 25.0  # colour step (of 255) across 3 pixels: an edge at that place
CLEAN = 0.85  # of a side's places, stepping so along one line: maybe the card's side
REACH = 0.8  # of the shape's long edge: how far out a side is looked for
PLACES = 60  # places looked at along each side (its ends left out)
END = 0.06  # the share of a side at each end left out (corners: two sides meet)
EDGE_REACH = 0.03  # of the long edge (at least EDGE_REACH_PX): how far a side may move
FINE = 0.01  # ... and then again, from there
OUTERMOST = 3.0  # pixels: of the edges found, those this near the outermost (a face's
# own frame lies inside the card's edge), the strongest
EDGE_REACH_PX = 2.0  # pixels: the least a side may move, however small the card
SHAPES = 4  # of a photo's shapes, the likeliest this many are looked at
BANDS = 5  # clean lines out from each side of a shape tried as the card's side
ON_LINE = 1.0  # pixels: a place's edge this near the side's line is on it
FIT_SHARE = 0.4  # of a side's places on one line: enough to lay the side on it
ALONG = np.linspace(END, 1 - END, PLACES)  # the places, as shares along a side


def prepared(image: Any) -> Any:
    """The photo as the edges are looked for in: float colour, its noise smoothed."""
    colour = image if image.ndim == 3 else cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    return cv2.GaussianBlur(colour.astype(np.float32), (0, 0), 0.8)


def outlines(picture: Any, shape: Quad) -> Any:
    """`shape` and the larger quads around it whose sides lie on clean straight edges
    (each side kept, or moved out parallel to one of the first BANDS lines within REACH
    across which the photo steps at CLEAN of its places), as an array of quads, each
    with its corners in `shape`'s order. Which one is the card is for the deck to say
    (camera.teach): a check cloth laid square with the card has clean lines too, but they
    lie elsewhere round each photo's card."""
    q = np.asarray(shape, np.float64)
    reach = REACH * long_edge(q)
    offsets = np.arange(3.0, reach, 1.0)
    normals, levels, choices = [], [], []
    for i in range(4):
        a, b, normal = _side(q, i)
        clean = np.mean(_steps_at(picture, _places(a, b), normal, offsets) >= STEP,
                        axis=1) >= CLEAN
        normals.append(normal)
        levels.append(float(np.dot(normal, a)))
        choices.append([0.0, *_bands(offsets, clean)[:BANDS]])
    moves = np.array(list(itertools.product(*choices)))  # quads x sides
    n = np.array(normals)
    corners = []
    for i in range(4):  # corner i: where side i-1's line meets side i's (n . x = level)
        pair = np.array([n[i - 1], n[i]])
        if abs(np.linalg.det(pair)) < 1e-6:
            return np.zeros((0, 4, 2), np.float32)
        rhs = np.stack([levels[i - 1] + moves[:, i - 1], levels[i] + moves[:, i]], axis=1)
        corners.append(np.linalg.solve(pair, rhs.T).T)
    return np.stack(corners, axis=1).astype(np.float32)


def _bands(offsets: Any, clean: Any) -> list[float]:
    """The middle of each run of at least two clean offsets, innermost first (one clean
    offset alone is a lucky line through the cloth)."""
    out, start = [], None
    for k, c in enumerate([*clean, False]):
        if c and start is None:
            start = k
        elif not c and start is not None:
            if k - start >= 2:
                out.append(float(offsets[start] + offsets[k - 1]) / 2)
            start = None
    return out


def laid_on_edge(picture: Any, quad: Quad) -> Quad | None:
    """`quad` with each side laid on the card's edge near it: moved and turned (within
    EDGE_REACH of the card's long edge) to the outermost line across which the photo steps at
    nearly every place, then fitted through the outermost step at each place within a
    pixel or two (the cloth's shapes touching the edge left out); None when a side finds
    no such line."""
    moved = _moved_to_edge(picture, quad, EDGE_REACH)
    return None if moved is None else _fitted(picture, moved)


def shapes_around(image: Any, shapes: list[Quad]) -> tuple[Any, Any]:
    """The photo `prepared`, and `outlines` of its first SHAPES distinct `shapes`
    (camera.locate's, likeliest first), in one array."""
    picture = prepared(image)
    distinct: list[Any] = []
    for shape in shapes:  # the edge levels find many shapes again
        if not any(np.abs(np.asarray(shape) - s).max() < 1.0 for s in distinct):
            distinct.append(np.asarray(shape, np.float32))
    found = [outlines(picture, shape) for shape in distinct[:SHAPES]]
    quads = np.concatenate(found) if found else np.zeros((0, 4, 2), np.float32)
    long, short = edges(quads, 1).T
    ratio = short / np.maximum(long, 1e-6)
    return picture, quads[(ratio >= CARD_RATIO[0]) & (ratio <= CARD_RATIO[1])]


def edges(quads: Any, width: int) -> Any:
    """Each quad's (quads x 4 x 2) mean long and mean short side, as shares of the
    photo's `width`."""
    q = np.asarray(quads, np.float64).reshape(-1, 4, 2)
    sides = np.linalg.norm(np.roll(q, -1, axis=1) - q, axis=2) / width
    pairs = np.stack([sides[:, 0] + sides[:, 2], sides[:, 1] + sides[:, 3]], axis=1) / 2
    return np.stack([pairs.max(axis=1), pairs.min(axis=1)], axis=1)


def _fitted(picture: Any, quad: Quad) -> Quad | None:
    """`quad` with each side on the line through the outermost step at each place within
    FINE of it (RANSAC: the cloth's shapes touching the edge left out); None when a side
    has no such line through FIT_SHARE of its places."""
    q = np.asarray(quad, np.float64)
    reach = max(EDGE_REACH_PX, FINE * long_edge(q))
    offsets = np.arange(-reach, reach + 0.125, 0.25)
    t = ALONG
    lines = []
    for i in range(4):
        a, b, normal = _side(q, i)
        steps = _step_across(picture, (a + t[:, None] * (b - a))[:, None]
                             + offsets[None, :, None] * normal, normal)
        fit = _ransac(t, _outermost(_peaks(steps), offsets))
        if fit is None:
            return None
        s0, s1 = fit
        start, end = a + s0 * normal, b + s1 * normal
        lines.append((start, end - start))
    corners = _corners(lines)
    return None if corners is None or not _card_shaped(corners) else corners


def _outermost(peak: Any, offsets: Any) -> Any:
    """At each place (row), the outermost offset that peaks (NaN where none)."""
    out = np.full(len(peak), np.nan)
    rows = np.flatnonzero(peak.any(axis=1))
    last = peak.shape[1] - 1 - np.argmax(peak[:, ::-1], axis=1)
    out[rows] = offsets[last[rows]]
    return out


def _ransac(t: Any, offset: Any) -> tuple[float, float] | None:
    """The straight line (offset against place t) most places agree on within ON_LINE,
    least squares through them, as its offsets at t = 0 and 1; None when fewer than
    FIT_SHARE of the places do."""
    ok = np.flatnonzero(~np.isnan(offset))
    best = np.zeros(len(t), bool)
    for n, i in enumerate(ok[:-1]):
        j = ok[n + 1:]
        slope = (offset[j] - offset[i]) / (t[j] - t[i])
        guess = offset[i] + slope[:, None] * (t[None, ok] - t[i])
        fits = np.abs(guess - offset[None, ok]) <= ON_LINE
        k = int(np.argmax(fits.sum(axis=1)))
        if fits[k].sum() > best.sum():
            best = np.zeros(len(t), bool)
            best[ok[fits[k]]] = True
    if best.sum() < FIT_SHARE * len(t):
        return None
    slope, cut = np.polyfit(t[best], offset[best], 1)
    return float(cut), float(cut + slope)


def _moved_to_edge(picture: Any, quad: Quad, share: float) -> Quad | None:
    """`quad` with each side on the outermost line within `share` of its long edge (ends
    moved independently, so the side may turn) across which the photo steps at CLEAN of
    its places, the strongest of those within OUTERMOST of it; None when a side has none."""
    q = np.asarray(quad, np.float64)
    reach = max(EDGE_REACH_PX, share * long_edge(q))
    ends = np.arange(-reach, reach + 1e-6, reach / 16)
    s0, s1 = (v.ravel() for v in np.meshgrid(ends, ends, indexing="ij"))
    t = ALONG
    lines = []
    for i in range(4):
        a, b, normal = _side(q, i)
        offset = s0[:, None] + (s1 - s0)[:, None] * t[None]  # lines x places
        steps = _step_across(picture, (a + t[:, None] * (b - a))[None]
                             + offset[..., None] * normal, normal)
        clean = np.flatnonzero(np.mean(steps >= STEP, axis=1) >= CLEAN)
        if not len(clean):
            return None
        middle = offset[clean].mean(axis=1)
        outer_most = clean[middle >= middle.max() - OUTERMOST]
        best = int(outer_most[np.argmax(steps[outer_most].mean(axis=1))])
        start, end = a + s0[best] * normal, b + s1[best] * normal
        lines.append((start, end - start))
    corners = _corners(lines)
    return None if corners is None or not _card_shaped(corners) else corners


def _side(q: Any, i: int) -> tuple[Any, Any, Any]:
    """Side i's ends and its outward unit normal."""
    a, b = q[i], q[(i + 1) % 4]
    along = (b - a) / max(float(np.linalg.norm(b - a)), 1e-9)
    normal = np.array([-along[1], along[0]])
    if float(np.dot(normal, (a + b) / 2 - q.mean(axis=0))) < 0:
        normal = -normal
    return a, b, normal


def _places(a: Any, b: Any) -> Any:
    return a + ALONG[:, None] * (b - a)


def _steps_at(picture: Any, points: Any, normal: Any, offsets: Any) -> Any:
    """The colour step (largest channel's) across the line each offset out (rows), at
    each place (columns)."""
    return _step_across(picture, points[None] + offsets[:, None, None] * normal, normal)


def _step_across(picture: Any, at: Any, normal: Any) -> Any:
    """The colour step (largest channel's) across 3 pixels along `normal` at each of the
    points `at` (any shape x 2), in `at`'s shape."""
    inner = _at(picture, at - 1.5 * normal)
    outer = _at(picture, at + 1.5 * normal)
    return np.abs(inner - outer).max(axis=1).reshape(at.shape[:-1])


def _peaks(steps: Any) -> Any:
    """Where, at each place (row), the step across the side peaks at STEP or more."""
    left = np.pad(steps, ((0, 0), (1, 0)), mode="edge")[:, :-1]
    right = np.pad(steps, ((0, 0), (0, 1)), mode="edge")[:, 1:]
    peak = (steps >= STEP) & (steps >= left) & (steps > right)
    peak[:, 0] = peak[:, -1] = False  # the search's ends are no peak
    return peak


def _corners(lines: list[tuple[Any, Any]]) -> Quad | None:
    """Where each side's line meets the next's, in order_corners' order; None when two
    neighbouring sides are nearly parallel."""
    out = []
    for i in range(4):
        (p, d), (r, e) = lines[i - 1], lines[i]
        m = np.array([d, -e]).T
        if abs(np.linalg.det(m)) < 1e-6 * np.linalg.norm(d) * np.linalg.norm(e):
            return None
        s, _ = np.linalg.solve(m, r - p)
        out.append(p + s * d)
    return order_corners(np.asarray(out, np.float32))


def _card_shaped(quad: Quad) -> bool:
    """Convex, with a card's proportions (camera.locate's CARD_RATIO)."""
    q = np.asarray(quad, np.float32)
    if not cv2.isContourConvex(q.reshape(-1, 1, 2)):
        return False
    rw, rh = cv2.minAreaRect(q.reshape(-1, 1, 2))[1]
    return bool(CARD_RATIO[0] <= min(rw, rh) / max(rw, rh, 1e-6) <= CARD_RATIO[1])


def _at(picture: Any, points: Any) -> Any:
    """The picture at (x, y) points (rows x places x 2, or places x 2), interpolated:
    one row of channels a point, all the points in order."""
    xy = np.asarray(points, np.float32)
    xy = xy.reshape(-1, 1, 2) if xy.ndim == 2 else xy
    out = cv2.remap(picture, xy[..., 0], xy[..., 1], cv2.INTER_LINEAR,
                    borderMode=cv2.BORDER_REPLICATE)
    return out.reshape(-1, picture.shape[2])
