"""The card on top of the pile as last judged, and whether it is still the one on top.

The same physical card seen again (after a hand, a change of light or a nudge) must log
nothing, and the recogniser's own answer cannot tell: its corners come from whichever
taught photo matched best, so they wander by more than a nudge, and a re-read may name
another face. So the picture itself is kept: the top card brought upright along its
corners, with the light taken out (`light.flatten`). A later frame brought upright along
the same corners is aligned to it by ECC (a correlation that a brighter or dimmer lamp
does not change) allowing a small turn and shift, then compared at full size where the
print is: the same print after a small move is the same card. A new card laid on it
(another face, or the same face laid elsewhere) correlates poorly, needs a bigger move
or shows another print (another face of the same family laid almost square correlates
0.6-0.97: only the print differs); when only the print differs, the recogniser decides:
the same face as the one logged is the same card. A correlation alone (from 0.9) took
such a face for the same card; and from 0.6 the same print is the same card too (a card
nudged under a new lamp: the recogniser, asked, misread one).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from camera.light import ecc, flatten
from camera.locate import CANON, Quad, upright

MAYBE_CORRELATION = 0.6  # ECC correlation from which the picture may be the same card's
NUDGE_SHIFT = 0.06  # a nudge moves the card's centre less than this share of its long edge ...
NUDGE_TURN = 5.0  # ... and turns it less than this (degrees)
ECC_STEPS = 40
ECC_SCALE = 0.5  # aligned at half the upright size: quick, and blind to sensor noise
# The print compared at full upright size: the squared difference of the two light-free
# pictures, pooled over PRINT_POOL pixels, peaks over PRINT_DIFFERS somewhere on a face
# of the same family (dev seeds 32000-34000: 3.9 and up) and stays under it on the same
# card nudged, relit or passed over (1.6 at most; a hand resting on it reaches 3.0, and
# the recogniser then says it is that card). PRINT_BORDER pixels along the edge are left
# out: a nudge uncovers what lay beneath there.
PRINT_DIFFERS = 2.0
PRINT_POOL = 2.0
PRINT_BORDER = 6


def _looks(frame: Any, quad: Quad) -> tuple[Any, Any]:
    """The card at `quad` brought upright, light-free: at full size (the print) and at
    ECC_SCALE (the alignment)."""
    grey = upright(frame, quad)
    small = cv2.resize(grey, (round(CANON[0] * ECC_SCALE), round(CANON[1] * ECC_SCALE)),
                       interpolation=cv2.INTER_AREA)
    return (np.ascontiguousarray(flatten(grey).astype(np.float32)),
            np.ascontiguousarray(flatten(small).astype(np.float32)))


def _angle(quad: Any) -> float:
    """The direction of a quad's first (short) edge, degrees."""
    dx, dy = quad[1] - quad[0]
    return float(np.degrees(np.arctan2(dy, dx)))


@dataclass
class Top:
    """The top card: its corners in the frame and its light-free upright picture."""

    quad: Quad
    face: Any  # light-free, upright, full size
    look: Any  # the same at ECC_SCALE
    cards: tuple[str, ...] = ()  # the face logged for it, or the candidates asked

    @classmethod
    def seen(cls, frame: Any, quad: Quad, cards: tuple[str, ...] = ()) -> Top:
        return cls(np.asarray(quad, np.float32), *_looks(frame, quad), cards)

    def is_card(self, cards: tuple[str, ...]) -> bool:
        """Whether a reading (its face, or the candidates asked) can be this card's face."""
        return bool(set(cards) & set(self.cards))

    def near(self, quad: Quad, shift_share: float = NUDGE_SHIFT, most_turn: float = NUDGE_TURN
             ) -> bool:
        """Whether a card found at `quad` lies within a nudge of this one (or within the
        given shift, a share of its long edge, and turn)."""
        here, there = np.asarray(self.quad, np.float32), np.asarray(quad, np.float32)
        length = float(np.linalg.norm(here[2] - here[1]))
        shift = float(np.linalg.norm(here.mean(axis=0) - there.mean(axis=0)))
        turn = abs(_angle(here) - _angle(there)) % 180
        return shift <= shift_share * length and min(turn, 180 - turn) <= most_turn

    def still_there(self, frame: Any) -> tuple[Top | None, bool]:
        """This card followed to where it lies in `frame`, if it has moved at most a nudge
        and its picture correlates at least MAYBE_CORRELATION (else None); and whether its
        print is the same, so that it is surely the same card."""
        face, now = _looks(frame, self.quad)
        found = ecc(self.look, now, cv2.MOTION_EUCLIDEAN, steps=ECC_STEPS)
        if found is None:  # no convergence: the picture is not this card's any more
            return None, False
        correlation, warp = found
        w, h = CANON[0] * ECC_SCALE, CANON[1] * ECC_SCALE
        centre = np.array([w / 2, h / 2], np.float32)
        moved = warp[:, :2] @ centre + warp[:, 2]
        shift = float(np.hypot(*(moved - centre))) / h
        turn = abs(float(np.degrees(np.arctan2(warp[1, 0], warp[0, 0]))))
        if correlation < MAYBE_CORRELATION or shift > NUDGE_SHIFT or turn > NUDGE_TURN:
            return None, False
        sure = not self._reprinted(face, warp)
        return Top.seen(frame, self._followed(warp), self.cards), sure

    def _reprinted(self, face: Any, warp: Any) -> bool:
        """Whether `face` (full size, taken at this card's corners) differs from this
        card's picture by a print's stroke once moved back by `warp` (found at ECC_SCALE)."""
        return self.print_difference(face, warp) > PRINT_DIFFERS

    def print_difference(self, face: Any, warp: Any) -> float:
        """The peak of the pooled squared difference between this card's picture and
        `face` moved back by `warp`, where `face` covers it (less PRINT_BORDER pixels:
        along the card's edge a nudge uncovers what lay beneath)."""
        full = warp.copy()
        full[:, 2] /= ECC_SCALE
        h, w = self.face.shape
        inverse = cv2.WARP_INVERSE_MAP
        back = cv2.warpAffine(face, full, (w, h), flags=cv2.INTER_LINEAR | inverse,
                              borderMode=cv2.BORDER_REPLICATE)
        covered = cv2.warpAffine(np.ones((h, w), np.uint8), full, (w, h),
                                 flags=cv2.INTER_NEAREST | inverse, borderValue=0)
        border = np.ones((2 * PRINT_BORDER + 1,) * 2, np.uint8)
        inside = cv2.erode(covered, border, borderValue=0).astype(np.float32)
        squared = (self.face - back) ** 2 * inside
        return float(cv2.GaussianBlur(squared, (0, 0), PRINT_POOL).max())

    def _followed(self, warp: Any) -> Quad:
        """The corners after the move `warp` (in the small upright picture's pixels)."""
        w, h = CANON
        s = ECC_SCALE
        corners = np.array([[0, 0], [w * s, 0], [w * s, h * s], [0, h * s]], np.float32)
        moved = corners @ warp[:, :2].T + warp[:, 2]
        to_frame = cv2.getPerspectiveTransform(corners, self.quad)
        return cv2.perspectiveTransform(moved[None].astype(np.float32), to_frame)[0]
