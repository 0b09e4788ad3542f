"""Each teaching photo's card told from the table the deck's photos share (needs the extra).

On a busy cloth (a paisley, flowers, checks) a card's own outline is broken where the
cloth's shapes touch it, while the box printed on its face keeps clean edges: teaching
took the box for the card (dev paisley seed 20_000: 38 of 40 photos; dev gingham's
full-bleed printing), so the card's size was the box's and faces sharing a box (the
sorry's and the steal's "S!", the 10's and the slide's "10") were read as one another.

But every photo of a deck is taken by one camera over one table, each with the card laid
a little elsewhere: pixel by pixel, most photos show the table, whose colour they agree
on (each photo's lamp taken out by its border, where no card lies), and a card is where
its photo differs from it. Near the pile spot's centre every photo has a card: there the
table is not known, and that place is inside each card. A card's soft shadow darkens the
table evenly in every channel: that is the table still.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import cv2
import numpy as np

from camera.locate import CARD_RATIO, MAX_CARD_SHARE, MIN_CARD_SHARE, Quad, order_corners

WORK_WIDTH = 320  # photos are compared at this width
BORDER = 0.06  # of the width: the band along the border where no card lies (the lamp's)
FEWEST = 4  # photos needed to know the table at a pixel (and in all)
DIFFERS = 30.0  # colour distance (of 255, the lamp taken out) of a card from the table
SHADOW_TINT = 0.08  # channels darkened within this share of one another: a shadow ...
SHADOW_DARK = (0.4, 0.98)  # ... darkened to between these shares of the table
SNAP = 6  # pixels: each side moves to the straightest edge this near (the mask is coarse)
SAMPLES = 40  # places along a side where its edge is looked for
OPEN = 5  # small pixels: a region thinner than this is no card's (a rim of its shadow)
CLOSE = 9  # small pixels: a card's parts as even as the table (its box on a white check)


def cards_on_backdrop(photos: Sequence[Any]) -> list[Quad | None]:
    """Each photo's card as corners in its pixels (None where none stands out), the table
    being what most of `photos` (one camera's, one card each) agree on; all None when
    the photos are too few or not of one size."""
    if len(photos) < FEWEST or len({p.shape for p in photos}) != 1:
        return [None] * len(photos)
    h, w = photos[0].shape[:2]
    scale = WORK_WIDTH / w
    size = (WORK_WIDTH, max(1, round(h * scale)))
    small = np.stack([_evened(cv2.resize(p, size, interpolation=cv2.INTER_AREA))
                      for p in photos])
    table = np.median(small, axis=0)
    for _ in range(2):  # again from the photos that show the table there (their mean)
        shows = ~_apart(small, table)
        count = np.sum(shows, axis=0)
        known = count >= FEWEST
        mean = np.einsum("nhw,nhwc->hwc", shows.astype(np.float32), small) \
            / np.maximum(count, 1)[..., None]
        table = np.where(known[..., None], mean, table)
    apart = _apart(small, table) | ~known[None]
    out: list[Quad | None] = []
    for photo, mask in zip(photos, apart, strict=True):
        quad = _card(mask, scale)
        out.append(None if quad is None else _snapped(photo, quad))
    return out


def _evened(picture: Any) -> Any:
    """The picture (BGR) with its lamp taken out: each channel over its median along the
    border, times 128."""
    x = picture.astype(np.float32)
    b = max(1, round(BORDER * x.shape[1]))
    band = np.concatenate([x[:b].reshape(-1, 3), x[-b:].reshape(-1, 3),
                           x[:, :b].reshape(-1, 3), x[:, -b:].reshape(-1, 3)])
    return x * (128.0 / (np.median(band, axis=0) + 1.0))


def _apart(small: Any, table: Any) -> Any:
    """Where each photo differs from the table, a shadow (the table evenly darker) not."""
    ratio = (small + 1.0) / (table[None] + 1.0)
    shadow = ((ratio.max(axis=-1) - ratio.min(axis=-1) <= SHADOW_TINT)
              & (ratio.max(axis=-1) >= SHADOW_DARK[0]) & (ratio.max(axis=-1) <= SHADOW_DARK[1]))
    far = np.abs(small - table[None]).max(axis=-1) > DIFFERS
    return far & ~shadow


def _card(mask: Any, scale: float) -> Quad | None:
    """The largest region of `mask`, as a card's corners at full size, or None when it
    has no card's size or proportions."""
    opened = cv2.morphologyEx(mask.astype(np.uint8) * 255, cv2.MORPH_OPEN,
                              np.ones((OPEN, OPEN), np.uint8))
    clean = cv2.morphologyEx(opened, cv2.MORPH_CLOSE, np.ones((CLOSE, CLOSE), np.uint8))
    contours, _ = cv2.findContours(clean, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        return None
    biggest = max(contours, key=cv2.contourArea)
    hull = cv2.convexHull(biggest)
    sh, sw = mask.shape
    if not MIN_CARD_SHARE <= cv2.contourArea(hull) / (sw * sh) <= MAX_CARD_SHARE:
        return None
    rect = cv2.minAreaRect(hull)
    corners = cv2.boxPoints(rect)
    rw, rh = rect[1]
    if not CARD_RATIO[0] <= min(rw, rh) / max(rw, rh, 1e-6) <= CARD_RATIO[1]:
        return None
    return order_corners(np.asarray(corners, np.float32) / scale)


def _snapped(photo: Any, quad: Quad) -> Quad:
    """`quad` with each side moved, within SNAP pixels along its normal, to where the
    photo steps most along the whole side: the card's edge is one straight step, the
    cloth's shapes are not (the mask, found small and with the shadow's rim, is a few
    pixels off). The sides' lines meet in the new corners."""
    grey = photo if photo.ndim == 2 else cv2.cvtColor(photo, cv2.COLOR_BGR2GRAY)
    grey = cv2.GaussianBlur(grey.astype(np.float32), (0, 0), 1.0)
    q = np.asarray(quad, np.float64)
    centre = q.mean(axis=0)
    lines = []
    for i in range(4):
        a, b = q[i], q[(i + 1) % 4]
        along = (b - a) / (np.linalg.norm(b - a) + 1e-9)
        normal = np.array([-along[1], along[0]])
        if np.dot(normal, (a + b) / 2 - centre) < 0:
            normal = -normal  # outward
        t = np.linspace(0.1, 0.9, SAMPLES)[:, None]
        points = a + t * (b - a)
        best, best_step = 0.0, -1.0
        for offset in np.arange(-SNAP, SNAP + 0.5, 0.5):
            inner = points + (offset - 1.0) * normal
            outer = points + (offset + 1.0) * normal
            step = abs(float(np.mean(_at(grey, inner) - _at(grey, outer))))
            if step > best_step:
                best, best_step = float(offset), step
        lines.append((a + best * normal, along))
    corners = [_meet(lines[i - 1], lines[i]) for i in range(4)]
    if any(c is None for c in corners):
        return quad
    return order_corners(np.asarray(corners, np.float32))


def _at(grey: Any, points: Any) -> Any:
    """The picture at (x, y) points, interpolated."""
    xy = np.asarray(points, np.float32).reshape(-1, 1, 2)
    return cv2.remap(grey, xy[..., 0], xy[..., 1], cv2.INTER_LINEAR,
                     borderMode=cv2.BORDER_REPLICATE).ravel()


def _meet(first: tuple[Any, Any], second: tuple[Any, Any]) -> Any:
    """Where two lines (a point, a direction) cross; None if nearly parallel."""
    (p, d), (r, e) = first, second
    m = np.array([d, -e]).T
    if abs(np.linalg.det(m)) < 1e-6:
        return None
    s, _ = np.linalg.solve(m, r - p)
    return p + s * d
