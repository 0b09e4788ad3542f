"""The card on top of the pile as last judged, and whether it is still the one on top.

The same physical card seen again (after a hand, a change of light or a nudge) must log
nothing, and the recogniser's own answer cannot tell: its corners come from whichever
taught photo matched best, so they wander by more than a nudge, and a re-read may name
another face. So the picture itself is kept: the top card brought upright along its
corners, with the light taken out (`faces.flatten`). A later frame brought upright along
the same corners is aligned to it by ECC (a correlation that a brighter or dimmer lamp
does not change) allowing a small turn and shift: a high correlation after a small move
is the same card; a new card laid on it (another face, or the same face laid elsewhere)
correlates poorly or needs a bigger move.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from camera.faces import flatten
from camera.locate import CANON, Quad, upright

SAME_CORRELATION = 0.75  # ECC correlation from which the picture is the same card's
NUDGE_SHIFT = 0.06  # a nudge moves the card's centre less than this share of its long edge ...
NUDGE_TURN = 5.0  # ... and turns it less than this (degrees)
ECC_STEPS = 40
ECC_SCALE = 0.5  # aligned at half the upright size: quick, and blind to sensor noise


def _look(frame: Any, quad: Quad) -> Any:
    grey = upright(frame, quad)
    small = cv2.resize(grey, (round(CANON[0] * ECC_SCALE), round(CANON[1] * ECC_SCALE)),
                       interpolation=cv2.INTER_AREA)
    return np.ascontiguousarray(flatten(small).astype(np.float32))


def _whole(image: Any) -> Any:
    return np.full(image.shape[:2], 255, np.uint8)


@dataclass
class Top:
    """The top card: its corners in the frame and its light-free upright picture."""

    quad: Quad
    look: Any

    @classmethod
    def seen(cls, frame: Any, quad: Quad) -> Top:
        return cls(np.asarray(quad, np.float32), _look(frame, quad))

    def still_there(self, frame: Any) -> Top | None:
        """This card, followed to where it lies in `frame`, if it is still the one on top
        and has moved at most a nudge; None when another card (or nothing) is there."""
        now = _look(frame, self.quad)
        warp: Any = np.eye(2, 3, dtype=np.float32)
        criteria = (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, ECC_STEPS, 1e-4)
        try:
            correlation, warp = cv2.findTransformECC(self.look, now, warp, cv2.MOTION_EUCLIDEAN,
                                                     criteria, _whole(now), 3)
        except cv2.error:  # no convergence: the picture is not this card's any more
            return None
        w, h = CANON[0] * ECC_SCALE, CANON[1] * ECC_SCALE
        centre = np.array([w / 2, h / 2], np.float32)
        moved = warp[:, :2] @ centre + warp[:, 2]
        shift = float(np.hypot(*(moved - centre))) / h
        turn = abs(float(np.degrees(np.arctan2(warp[1, 0], warp[0, 0]))))
        if correlation < SAME_CORRELATION or shift > NUDGE_SHIFT or turn > NUDGE_TURN:
            return None
        return Top.seen(frame, self._followed(warp))

    def _followed(self, warp: Any) -> Quad:
        """The corners after the move `warp` (in the small upright picture's pixels)."""
        w, h = CANON
        s = ECC_SCALE
        corners = np.array([[0, 0], [w * s, 0], [w * s, h * s], [0, h * s]], np.float32)
        moved = corners @ warp[:, :2].T + warp[:, 2]
        to_frame = cv2.getPerspectiveTransform(corners, self.quad)
        return cv2.perspectiveTransform(moved[None].astype(np.float32), to_frame)[0]
