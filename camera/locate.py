"""Finding a card in a photo and bringing it to one upright rectangle (needs the extra).

A teaching photo shows one card on the table: its outline is the strongest closed edge
in the picture, a convex four-sided shape with a card's proportions (the largest such
one; the white box printed inside a face is smaller). When no outline is found (a card
with no border, a busy table), the largest region whose colour differs from the table's
(taken from the photo's edges) stands in. Its four corners, in the
order top-left, top-right, bottom-right, bottom-left of an upright card (short edge
first), warp it to CANON: every face is compared at that size, whatever the camera.
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np

CANON = (120, 168)  # (w, h) of a card brought upright, pixels
WORK_WIDTH = 320  # teaching photos are searched at this width (any size up to 1920x1080)
MIN_CARD_SHARE = 0.015  # a card covers at least this share of the picture
MAX_CARD_SHARE = 0.6
CANNY_LEVELS = ((30, 90), (15, 45), (50, 150))  # tried in turn until an outline is found
CARD_RATIO = (0.55, 0.85)  # short / long edge of a card seen from above, with perspective
FILLED = 0.9  # an outline covers this much of its bounding rectangle: four straight edges

Quad = Any  # 4x2 float32 corners in the image's pixels


def order_corners(points: Any) -> Quad:
    """Four corners clockwise from the one that starts a short edge, so the card is
    portrait: the first edge (0->1) is a short one."""
    pts = np.asarray(points, np.float32).reshape(4, 2)
    centre = pts.mean(axis=0)
    angles = np.arctan2(pts[:, 1] - centre[1], pts[:, 0] - centre[0])
    pts = pts[np.argsort(angles)]  # clockwise in image coordinates (y down)
    first = int(np.argmin(pts.sum(axis=1)))  # nearest the top-left
    pts = np.roll(pts, -first, axis=0)
    if np.linalg.norm(pts[1] - pts[0]) > np.linalg.norm(pts[2] - pts[1]):
        pts = np.roll(pts, -1, axis=0)  # make the first edge the short one
    return pts


def find_card(image: Any) -> Quad | None:
    """The corners of the one card lying on the table in `image`, or None."""
    found = card_shapes(image)
    return found[0] if found else None


def card_shapes(image: Any) -> list[Quad]:
    """Every card-shaped outline in `image`, likeliest first: at the first edge level
    that finds any, largest first, then those of the other levels; the region unlike the
    table's colour when no outline is found. On a patterned cloth the largest is often
    not the card (a block of checks, the white box printed on a face): camera.teach then
    takes, in each photo, the shape whose size the deck's photos agree on."""
    h, w = image.shape[:2]
    scale = WORK_WIDTH / w
    small = cv2.resize(image, (WORK_WIDTH, max(1, round(h * scale))), interpolation=cv2.INTER_AREA)
    shapes = _outlines(small)
    if not shapes:
        corners = _by_colour(small)
        shapes = [] if corners is None else [corners]
    return [order_corners(corners / scale) for corners in shapes]


def long_edge(quad: Quad) -> float:
    q = np.asarray(quad, np.float32)
    return max(float(np.linalg.norm(q[(i + 1) % 4] - q[i])) for i in range(4))


def _outlines(small: Any) -> list[Any]:
    """The card-shaped closed edges at each Canny level, each level's largest first, the
    first level that finds any first; as 4 corners each."""
    grey = cv2.GaussianBlur(cv2.cvtColor(small, cv2.COLOR_BGR2GRAY), (3, 3), 0)
    sh, sw = grey.shape
    out: list[Any] = []
    for low, high in CANNY_LEVELS:
        edges = cv2.dilate(cv2.Canny(grey, low, high), np.ones((3, 3), np.uint8))
        contours, _ = cv2.findContours(edges, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
        found: list[tuple[float, Any]] = []
        for contour in contours:
            hull = cv2.convexHull(contour)
            area = cv2.contourArea(hull)
            if not MIN_CARD_SHARE <= area / (sw * sh) <= MAX_CARD_SHARE:
                continue
            approx = cv2.approxPolyDP(hull, 0.04 * cv2.arcLength(hull, True), True)
            rw, rh = cv2.minAreaRect(hull)[1]
            ratio = min(rw, rh) / max(rw, rh, 1e-6)
            if (len(approx) == 4 and CARD_RATIO[0] <= ratio <= CARD_RATIO[1]
                    and area >= FILLED * rw * rh):
                found.append((area, approx.reshape(4, 2).astype(np.float32)))
        out += [quad for _area, quad in sorted(found, key=lambda f: -f[0])]
    return out


def _by_colour(small: Any) -> Any:
    """The largest region unlike the table's colour, as 4 corners, or None."""
    lab = cv2.cvtColor(cv2.GaussianBlur(small, (5, 5), 0), cv2.COLOR_BGR2LAB).astype(np.float32)
    sh, sw = lab.shape[:2]
    b = max(2, sw // 25)
    edges = np.concatenate([lab[:b].reshape(-1, 3), lab[-b:].reshape(-1, 3),
                            lab[:, :b].reshape(-1, 3), lab[:, -b:].reshape(-1, 3)])
    table = np.median(edges, axis=0)
    spread = np.percentile(np.linalg.norm(edges - table, axis=1), 95)
    dist = np.linalg.norm(lab - table, axis=2)
    dist8 = np.clip(dist * 2, 0, 255).astype(np.uint8)
    otsu, _ = cv2.threshold(dist8, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    level = max(otsu, min(255, 2 * (spread * 2 + 8)))
    mask = (dist8 > level).astype(np.uint8) * 255
    kernel = np.ones((5, 5), np.uint8)
    mask = cv2.morphologyEx(cv2.morphologyEx(mask, cv2.MORPH_CLOSE, kernel), cv2.MORPH_OPEN,
                            kernel)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        return None
    biggest = max(contours, key=cv2.contourArea)
    share = cv2.contourArea(biggest) / (sw * sh)
    if not MIN_CARD_SHARE <= share <= MAX_CARD_SHARE:
        return None
    hull = cv2.convexHull(biggest)
    approx = cv2.approxPolyDP(hull, 0.03 * cv2.arcLength(hull, True), True)
    four = len(approx) == 4
    corners = approx.reshape(4, 2) if four else cv2.boxPoints(cv2.minAreaRect(hull))
    return np.asarray(corners, np.float32)


def upright(image: Any, quad: Quad) -> Any:
    """The card inside `quad` warped to CANON, in grey."""
    w, h = CANON
    target = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    m = cv2.getPerspectiveTransform(np.asarray(quad, np.float32), target)
    grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    return cv2.warpPerspective(grey, m, (w, h), flags=cv2.INTER_AREA)
