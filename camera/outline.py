"""Whether the top card was moved or a card was laid on it (needs the extra).

The same face laid within a nudge of itself shows the same print a few pixels off, just
as the top card nudged does, so its picture cannot tell them apart. The pile around it
can: a nudged card leaves the place where its edge lay (what lay beneath shows there),
while a card laid on it leaves the old card where it was, its edge still showing
wherever the new card does not cover it. So, along the old card's outline, each place
the card's move would have uncovered by at least UNCOVERED of its length is looked at
in the new frame: the old edge still there (the same step across it, light taken out)
is a card laid on it; gone, the card was moved. The move itself must be the print's
(the card's inside fits the new frame moved, not as it was), and too small a move
uncovers nothing to look at: then nothing is said and the card counts as the same.
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np

from camera.light import light_free
from camera.locate import Quad

LAID, MOVED, UNSURE, IN_PLACE = "laid", "moved", "unsure", "in place"
LIGHT_SIGMA = 8.0  # frame pixels over which the light is taken as even
SAMPLES = 24  # places looked at along each side of the card (its ends left out)
END = 0.08  # the share of a side at each end left out (corners: two sides meet)
SEARCH = 8  # the old edge is looked for this many pixels either side of the kept corners
LINE_PX = 1.0  # an edge's places lie this close to one straight line ...
LINE_MIN = 6  # ... at least this many of them
STEP = 0.3  # an edge: the light-free picture steps by this much across 3 pixels
UNCOVERED = 0.02  # of the card's long edge: a place the move uncovers at least this much
MIN_PX = 3.0  # ... and at least this many pixels (blur and JPEG reach about two)
ENOUGH = 8  # places needed to say anything
STILL_THERE = (0.6, 1.6)  # the step now over then: the old edge still there
LAID_SHARE = 0.8  # of the places, the old edge still there: a card laid on it
NEAR = 2.0  # pixels: an edge the pile showed before the card was laid, this close, is not its
MOVED_FIT = 0.6  # the card's inside fits the move at least this much better than no move


def _sample(picture: Any, points: Any) -> Any:
    """`picture` at float (x, y) points (any shape ... x 2), bilinear."""
    pts = np.asarray(points, np.float32)
    if pts.size == 0:
        return np.zeros(pts.shape[:-1], np.float32)
    flat = pts.reshape(-1, 1, 2)
    out = cv2.remap(picture, flat[..., 0], flat[..., 1], cv2.INTER_LINEAR,
                    borderMode=cv2.BORDER_REPLICATE)
    return out.reshape(pts.shape[:-1])


def _step(picture: Any, at: Any, normal: Any) -> Any:
    """The step across an edge at each point, inside (-normal) minus outside."""
    inside = (_sample(picture, at - normal) + _sample(picture, at - 2 * normal)) / 2
    outside = (_sample(picture, at + normal) + _sample(picture, at + 2 * normal)) / 2
    return inside - outside


def edge_counts(under: Any, before: Any, after: Any, quad: Quad,
                moved: Quad) -> tuple[int, int] | None:
    """Of the places along the old card's edge that its move to `moved` uncovers, how
    many still show that edge and how many do not; None when the card's inside did not
    move so. Full-size greys: `under` the pile before that card was laid, `before` with
    the card at `quad`, `after` the frame judged now. An edge `under` already showed is
    not the card's own (a card beneath lying a few pixels out, the table's grain)."""
    quad = np.asarray(quad, np.float32)
    moved = np.asarray(moved, np.float32)
    h, w = before.shape[:2]
    margin = round(3 * LIGHT_SIGMA)
    x0, y0 = (max(0, int(v) - margin) for v in np.minimum(quad.min(0), moved.min(0)))
    x1, y1 = (min(lim, int(v) + margin + 1) for v, lim in
              zip(np.maximum(quad.max(0), moved.max(0)), (w, h), strict=True))
    if x1 - x0 < 8 or y1 - y0 < 8:
        return None
    under = light_free(under[y0:y1, x0:x1], LIGHT_SIGMA)
    before = light_free(before[y0:y1, x0:x1], LIGHT_SIGMA)
    after = light_free(after[y0:y1, x0:x1], LIGHT_SIGMA)
    offset = np.array([x0, y0], np.float32)
    quad, moved = quad - offset, moved - offset
    to_after = cv2.getPerspectiveTransform(quad, moved)
    if not _print_moved(before, after, quad, to_after):
        return None
    long_edge = max(float(np.linalg.norm(quad[i] - quad[(i + 1) % 4])) for i in range(4))
    least = max(MIN_PX, UNCOVERED * long_edge)
    centre = quad.mean(axis=0)
    still = gone = 0
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        along = (b - a) / max(float(np.linalg.norm(b - a)), 1e-6)
        normal = np.array([along[1], -along[0]], np.float32)
        if float(np.dot((a + b) / 2 - centre, normal)) < 0:
            normal = -normal  # outward
        t = np.linspace(END, 1 - END, SAMPLES, dtype=np.float32)[:, None]
        points = a + t * (b - a)
        at, then = _edges(under, before, points, normal)
        if not len(at):
            continue
        there = cv2.perspectiveTransform(at[None], to_after)[0]
        uncovered = (at - there) @ normal  # how far inside the moved card's edge went
        look = uncovered >= least
        if not look.any():
            continue
        kept = _same_step(_step(after, at[look], normal), then[look])
        still += int(kept.sum())
        gone += int((~kept).sum())
    return still, gone


def laid_on(under: Any, before: Any, after: Any, quad: Quad, moved: Quad) -> str:
    """LAID when a card was laid on the card at `quad` in `before`, MOVED when that card
    was moved to `moved` in `after`, UNSURE when the move uncovers too little to tell,
    IN_PLACE when the card's inside did not move so. As `edge_counts`."""
    counts = edge_counts(under, before, after, quad, moved)
    if counts is None:
        return IN_PLACE
    still, gone = counts
    if still + gone < ENOUGH:
        return UNSURE
    return LAID if still >= LAID_SHARE * (still + gone) else MOVED


def _same_step(now: Any, then: Any) -> Any:
    """Where the step across an edge is the same now as then (the light taken out)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = now / then
    return (ratio >= STILL_THERE[0]) & (ratio <= STILL_THERE[1])


def _edges(under: Any, before: Any, points: Any, normal: Any) -> tuple[Any, Any]:
    """The card's own edge near each point, found across the side (the corners kept are
    known to a few pixels, the width a close play uncovers): the points on it and the
    step there. Its own: not an edge `under` showed within NEAR pixels (a card beneath
    lying a few pixels out), and on one straight line with the others (a card's edge)."""
    offsets = np.arange(-SEARCH, SEARCH + 1, dtype=np.float32)
    across = points[:, None, :] + offsets[None, :, None] * normal
    steps = _step(before, across, normal)  # points x offsets
    beneath = _step(under, across, normal)
    there = np.zeros(steps.shape, bool)
    near = round(NEAR)
    for k in range(-near, near + 1):
        shifted = np.roll(beneath, k, axis=1)
        there |= _same_step(shifted, steps)
    strength = np.where(there, 0.0, np.abs(steps))
    best = np.argmax(strength, axis=1)
    rows = np.arange(len(points))
    peak = strength[rows, best]
    # to a fraction of a pixel: the parabola through the peak and its neighbours
    left = strength[rows, np.clip(best - 1, 0, len(offsets) - 1)]
    right = strength[rows, np.clip(best + 1, 0, len(offsets) - 1)]
    bend = left - 2 * peak + right
    fine = np.where(bend < 0, 0.5 * (left - right) / np.where(bend < 0, bend, -1.0), 0.0)
    shift = offsets[best] + np.clip(fine, -0.5, 0.5)
    inner = (best > 0) & (best < len(offsets) - 1)  # a peak, not the search's end
    line = _on_a_line(shift, (peak >= STEP) & inner)
    at = (points + shift[:, None] * normal)[line].astype(np.float32)
    return at, _step(before, at, normal)


def _on_a_line(shift: Any, usable: Any) -> Any:
    """The usable places whose edge lies on the straight line most of them share
    (within LINE_PX), when at least LINE_MIN do; else none."""
    index = np.flatnonzero(usable)
    best = np.zeros(len(shift), bool)
    if len(index) < LINE_MIN:
        return best
    place = np.arange(len(shift), dtype=np.float32)
    for n, i in enumerate(index):
        for j in index[n + 1:]:
            slope = (shift[j] - shift[i]) / (place[j] - place[i])
            fits = usable & (np.abs(shift[i] + slope * (place - place[i]) - shift) <= LINE_PX)
            if fits.sum() > best.sum():
                best = fits
    return best if int(best.sum()) >= LINE_MIN else np.zeros(len(shift), bool)


def _print_moved(before: Any, after: Any, quad: Any, to_after: Any) -> bool:
    """Whether the card's inside in `after` fits `before` moved by `to_after` much
    better than `before` as it was: the move is the card's, not a wobble of the fit."""
    grid = np.linspace(0.15, 0.85, 24, dtype=np.float32)
    u, v = np.meshgrid(grid, grid)
    square = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)
    to_frame = cv2.getPerspectiveTransform(square, quad)
    inside = cv2.perspectiveTransform(np.stack([u.ravel(), v.ravel()], 1)[None], to_frame)[0]
    now = _sample(after, cv2.perspectiveTransform(inside[None], to_after)[0])
    as_was = _sample(after, inside)
    then = _sample(before, inside)
    return float(np.mean(np.abs(now - then))) <= MOVED_FIT * float(np.mean(np.abs(as_was
                                                                                  - then)))
