"""Where a card was laid: the part of the pile that changed (needs the extra).

The recogniser finds a card by its features; a lamp's glare or blur can leave a card so
few that no pose found holds it, or only a rough one, while the card itself is plain to
see. Between the still picture of the pile before the card was laid and the one now,
light taken out, only the new card (and its shadow) changed: the smallest rectangle
holding what changed is its outline, when it has a laid card's size.
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np

from camera.light import light_free
from camera.locate import CARD_RATIO, Quad, order_corners
from camera.outline import LIGHT_SIGMA

SCALE = 0.5  # compared at half size: quick, and blind to the sensor's noise
CHANGED = 0.2  # light-free difference (blurred over BLUR pixels) of a changed pixel
BLUR = 1.0
# A laid card's long edge, over the taught one: within this share, the change is that
# card (dev glare scenes: 1.00-1.02 for the new card; a lower CHANGED takes in its
# shadow and the sensor's noise, 1.04-1.14)
SIZE_CLOSE = 0.06


def laid_card(before: Any, now: Any, long_edge: float) -> Quad | None:
    """The corners of the card laid between the greys `before` and `now` (full size,
    both still), if what changed is one card whose long edge is `long_edge` pixels;
    else None."""
    small = [cv2.resize(g, None, fx=SCALE, fy=SCALE, interpolation=cv2.INTER_AREA)
             for g in (before, now)]
    difference = np.abs(light_free(small[0], LIGHT_SIGMA) - light_free(small[1], LIGHT_SIGMA))
    changed = (cv2.GaussianBlur(difference, (0, 0), BLUR) > CHANGED).astype(np.uint8)
    changed = cv2.morphologyEx(changed, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    points = cv2.findNonZero(changed)
    if points is None:
        return None
    rect = cv2.minAreaRect(points)
    short, long = sorted(rect[1])
    if abs(long / SCALE / long_edge - 1) > SIZE_CLOSE \
            or not CARD_RATIO[0] <= short / long <= CARD_RATIO[1]:
        return None
    return order_corners(cv2.boxPoints(rect) / SCALE)
