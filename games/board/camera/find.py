"""The board found in one photo, by itself (needs the extra).

The board is the large four-sided thing that differs from the table around it: the
table's colour is read along the photo's edge (the whole board must be in view), every
pixel far from it is board, and the largest such region's outline is cut to four sides,
each side fitted as a line through its own edge points, the corners where they meet.
Which corner is T0's comes from the pawns: the photo shows every seated colour's pawns
in its own START, so of the four turns of the board the one that puts the most of each
colour's hue in that colour's START is the board's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from games.board.camera import cells
from games.board.camera.read import BRIGHT, HUE_REACH, HUES, SATURATED, hue_classes
from games.board.grid import key, key_spot
from games.board.rules import geometry as g

WORK = 640  # the photo's long side while the board is looked for
EDGE = 0.04  # of the photo's size: the band along its edge where the table is read
MIN_AREA = 0.12  # of the photo: a smaller region is not the whole board
TOUCH = 0.01  # of the photo's size: a corner this close to its edge is cut off by it
# one pawn seen from above, in rectified pixels of its colour's hue (a pawn covers about
# 0.4 of a cell; its shadow and glint are not of its hue): less than half of that a pawn
# means the colour's pawns are not there
PAWN_PIXELS = 0.18 * cells.CELL ** 2
SEEN = 0.5
SAMPLES = 48  # places along each side where its edge is found at full size
REACH = 0.02  # of a side's length: how far across it the edge is looked for
EDGE_CONTRAST = 10.0  # Lab units from the table's colour to the board's: less is no edge
OUTLIER = 1.5  # pixels from a side's fitted line: farther (by the spread too) is no edge
PASSES = 3  # times a side's edge is looked for across it, each about the last pass's line


class NotFound(ValueError):
    """The board, or a colour's pawns, not found: one sentence saying what to change; `why`
    names which for a screen to say it in the family's language (its words: `missing`)."""

    def __init__(self, text: str, why: str = "", missing: tuple[str, ...] = ()) -> None:
        super().__init__(text)
        self.why, self.missing = why, missing


@dataclass(frozen=True)
class Found:
    """The board's outer corners in the photo (pixels, clockwise from T0's), the photo
    rectified, and the pawn pixels seen in each seated colour's START."""

    corners: Any
    rectified: Any
    start_pixels: dict[str, int]


def homography(corners: Any) -> Any:
    """From the photo's pixels to the rectified board's."""
    return cv2.getPerspectiveTransform(np.asarray(corners, np.float32), cells.corners_cells())


def rectify(photo: Any, corners: Any) -> Any:
    return cv2.warpPerspective(photo, homography(corners), (cells.SIZE, cells.SIZE),
                               flags=cv2.INTER_AREA)


def outline(photo: Any) -> Any:
    """The board's four outer corners in the photo, clockwise on the screen, from any."""
    h, w = photo.shape[:2]
    scale = min(1.0, WORK / max(h, w))
    small = cv2.resize(photo, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    lab = cv2.cvtColor(cv2.GaussianBlur(small, (0, 0), 1.5), cv2.COLOR_BGR2LAB).astype(
        np.float32)
    sh, sw = lab.shape[:2]
    b = max(2, int(EDGE * min(sh, sw)))
    edge = np.concatenate([lab[:b].reshape(-1, 3), lab[-b:].reshape(-1, 3),
                           lab[:, :b].reshape(-1, 3), lab[:, -b:].reshape(-1, 3)])
    table = np.median(edge, axis=0)
    spread = np.percentile(np.linalg.norm(edge - table, axis=1), 95)
    distance = np.linalg.norm(lab - table, axis=2)
    level, _ = cv2.threshold(np.clip(distance, 0, 255).astype(np.uint8), 0, 255,
                             cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    board = (distance > max(12.0, min(2.5 * spread, level))).astype(np.uint8)
    board = cv2.morphologyEx(board, cv2.MORPH_CLOSE, np.ones((7, 7), np.uint8))
    board = cv2.morphologyEx(board, cv2.MORPH_OPEN, np.ones((5, 5), np.uint8))
    found, _ = cv2.findContours(board, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    if not found:
        raise NotFound("no board is in the photo; move the camera so the whole board is in "
                       "view, on a table of another colour than the board's edge", "no_board")
    contour = max(found, key=cv2.contourArea)
    if cv2.contourArea(contour) < MIN_AREA * sh * sw:
        raise NotFound("no board fills enough of the photo; move the camera so the whole "
                       "board is in view and fills most of the picture", "too_small")
    quad = _four_sides(contour)
    if quad is None:
        raise NotFound("the board's four corners cannot be told; move the camera so the "
                       "whole board is in view, nothing lying across its edge", "no_corners")
    quad = _refined(cv2.cvtColor(photo, cv2.COLOR_BGR2LAB).astype(np.float32), table,
                    quad / scale)
    margin = TOUCH * max(h, w)
    if (quad.min(axis=0) < margin).any() or (quad[:, 0] > w - margin).any() \
            or (quad[:, 1] > h - margin).any():
        raise NotFound("the board runs off the picture; move the camera so the whole "
                       "board is in view", "off_picture")
    return quad


def _four_sides(contour: Any) -> Any:
    """Four corners of the region's outline, refined as the meeting points of lines
    fitted to each side's edge points; None when it has no four clear sides."""
    hull = cv2.convexHull(contour)
    perimeter = cv2.arcLength(hull, True)
    rough = None
    for share in (0.01, 0.02, 0.03, 0.05, 0.08):
        approx = cv2.approxPolyDP(hull, share * perimeter, True)
        if len(approx) == 4:
            rough = approx.reshape(4, 2).astype(np.float32)
            break
    if rough is None or not cv2.isContourConvex(rough.reshape(-1, 1, 2)):
        return None
    if _signed_area(rough) < 0:  # clockwise on the screen (y grows downwards)
        rough = rough[::-1].copy()
    points = contour.reshape(-1, 2).astype(np.float32)
    lines = []
    for i in range(4):
        a, b = rough[i], rough[(i + 1) % 4]
        length = float(np.linalg.norm(b - a))
        d = (b - a) / length
        rel = points - a
        along = rel @ d
        off = np.abs(rel @ np.array([-d[1], d[0]], np.float32))
        near = points[(along > 0.1 * length) & (along < 0.9 * length) & (off < 0.02 * length)]
        if len(near) < 10:
            return None
        line = _line(near)
        for _ in range(2):  # again with the points near the fitted line, not the rough one
            p, u = line
            rel = points - p
            along = rel @ u
            off = np.abs(rel @ np.array([-u[1], u[0]]))
            lo, hi = sorted((float((a - p) @ u), float((b - p) @ u)))
            span = hi - lo
            again = points[(along > lo + 0.1 * span) & (along < hi - 0.1 * span)
                           & (off < 0.02 * length)]
            if len(again) < 10:
                break
            line = _line(again)
        lines.append(line)
    return _meeting(lines)


def _line(points: Any) -> tuple[Any, Any]:
    """A line through most of `points` (a side's edge points): fitted, the points far
    from it dropped, fitted again; a pawn or a thing of the table's colour on the board's
    edge notches it inwards there, and a line fitted through all of them is tilted."""
    keep = np.ones(len(points), bool)
    p = u = np.zeros(2)
    for _ in range(4):
        vx, vy, x0, y0 = cv2.fitLine(points[keep], cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
        p, u = np.array([x0, y0]), np.array([vx, vy])
        off = np.abs((points - p) @ np.array([-u[1], u[0]]))
        spread = 1.4826 * float(np.median(off[keep]))
        near = off <= max(OUTLIER, 3.0 * spread)
        if near.sum() < max(5, len(points) // 3) or (near == keep).all():
            break
        keep = near
    return p, u


def _refined(lab: Any, table: Any, quad: Any) -> Any:
    """The corners again, at the photo's full size: across each side, at SAMPLES places,
    the edge is where the colour's distance from the table's first rises half way from
    the table's to the board's, coming from the table (the strongest change may be a
    line printed inside, a slide, a pawn's shadow); a line through most of those places
    (_line) is the side, and the corners where the sides meet. Looked for again about
    those sides (PASSES), as the first corners may be farther off than the search reaches
    (a pawn of the table's colour on a corner square cuts that corner off the outline)."""
    distance = np.linalg.norm(lab - table, axis=2).astype(np.float32)
    distance = cv2.GaussianBlur(distance, (0, 0), 1.0)
    for _ in range(PASSES):
        again = _sides(distance, quad)
        if again is None:
            break
        moved = float(np.abs(again - quad).max())
        quad = again
        if moved < 0.5:
            break
    return quad


def _sides(distance: Any, quad: Any) -> Any:
    """One pass of _refined: the corners, or None where a side shows too little edge."""
    lines = []
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        length = float(np.linalg.norm(b - a))
        d = (b - a) / length
        normal = np.array([-d[1], d[0]], np.float32)
        reach = max(4.0, REACH * length)
        along = np.linspace(0.12, 0.88, SAMPLES, dtype=np.float32)
        across = np.arange(-reach, reach + 0.5, 0.5, dtype=np.float32)
        xs = a[0] + np.outer(along, b - a)[:, :1] + across[None, :] * normal[0]
        ys = a[1] + np.outer(along, b - a)[:, 1:] + across[None, :] * normal[1]
        profile = cv2.remap(distance, xs.astype(np.float32), ys.astype(np.float32),
                            cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        at = _outer_edges(profile, across)
        keep = np.isfinite(at)
        if keep.sum() < SAMPLES // 3:
            return None
        points = (a + np.outer(along, b - a)[keep] + at[keep, None] * normal).astype(
            np.float32)
        lines.append(_line(points))
    return _meeting(lines)


def _outer_edges(profile: Any, across: Any) -> Any:
    """Per row of `profile` (distances from the table's colour sampled across a side,
    at the offsets `across`), the offset where it first rises half way from its table
    end to its board end, coming from the table end; NaN where it shows no edge."""
    ends = 6
    out = np.full(profile.shape[0], np.nan, np.float32)
    for i, row in enumerate(profile):
        outward = row[:ends].mean() > row[-ends:].mean()
        line = row[::-1] if outward else row
        offsets = across[::-1] if outward else across
        low, high = float(np.median(line[:ends])), float(np.median(line[-ends:]))
        if high - low < EDGE_CONTRAST:
            continue
        half = (low + high) / 2
        j = int(np.argmax(line >= half))
        if j == 0:
            continue
        t = (half - line[j - 1]) / max(1e-6, float(line[j] - line[j - 1]))
        out[i] = offsets[j - 1] + t * (offsets[j] - offsets[j - 1])
    return out


def _meeting(lines: list[tuple[Any, Any]]) -> Any:
    """Where each side's line meets the next's: the corners; None if two are parallel."""
    corners = []
    for i in range(4):
        (p, u), (q, v) = lines[i - 1], lines[i]
        m = np.array([u, -v]).T
        if abs(np.linalg.det(m)) < 1e-6:
            return None
        t = np.linalg.solve(m, q - p)
        corners.append(p + t[0] * u)
    return np.array(corners, np.float32)


def _signed_area(quad: Any) -> float:
    x, y = quad[:, 0], quad[:, 1]
    return float(np.sum(x * np.roll(y, -1) - np.roll(x, -1) * y) / 2)


def start_pixels(rectified: Any, colors: tuple[str, ...], hues: dict[str, float]
                 ) -> dict[str, int]:
    """Each seated colour's pixels of its hue in its START circle."""
    classes = hue_classes(rectified, hues)
    out = {}
    for color in colors:
        board_key = key(g.START, color)
        x0, y0, x1, y1 = cells.box(board_key)
        mine = (classes[y0:y1, x0:x1] == g.COLORS.index(color)) & cells.mask(board_key)
        out[color] = int(mine.sum())
    return out


def find(photo: Any, colors: tuple[str, ...], corners: Any = None) -> Found:
    """The board in `photo` (or at the `corners` given, clockwise from T0's), turned so
    that each seated colour's START holds its pawns. NotFound says what to change."""
    if corners is not None:
        quad = np.asarray(corners, np.float32)
        turns = [quad]
    else:
        quad = outline(photo)
        turns = [np.roll(quad, -i, axis=0) for i in range(4)]
    best: Found | None = None
    for turned in turns:
        rectified = rectify(photo, turned)
        seen = start_pixels(rectified, colors, HUES)
        if best is None or sum(seen.values()) > sum(best.start_pixels.values()):
            best = Found(turned, rectified, seen)
    assert best is not None
    return best


def refined_hues(rectified: Any, colors: tuple[str, ...]) -> dict[str, float]:
    """The pawns' hues as this photo shows them: each seated colour's, the circular
    mean of the saturated pixels in its START near the game's hue; the others as they
    are."""
    hsv = cv2.cvtColor(rectified, cv2.COLOR_BGR2HSV)
    out = dict(HUES)
    for color in colors:
        x0, y0, x1, y1 = cells.box(key(g.START, color))
        part = hsv[y0:y1, x0:x1][cells.mask(key(g.START, color))]
        hue = part[:, 0].astype(np.float32)
        d = (hue - HUES[color] + 90) % 180 - 90
        ok = ((np.abs(d) <= HUE_REACH[color] * 1.5) & (part[:, 1] >= SATURATED)
              & (part[:, 2] >= BRIGHT))
        if ok.sum() >= PAWN_PIXELS:
            out[color] = float((HUES[color] + np.median(d[ok])) % 180)
    return out


def spot_pixels(board_key: str) -> tuple[float, float]:
    """A location's centre in rectified pixels."""
    x, y = key_spot(board_key)
    return x * cells.CELL, y * cells.CELL
