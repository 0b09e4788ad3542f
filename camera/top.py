"""The card on top of the pile as last judged, and whether it is still the one on top.

The same physical card seen again (after a hand, a change of light or a nudge) must log
nothing, and the recogniser's own answer cannot tell: its corners come from whichever
taught photo matched best, so they wander by more than a nudge, and a re-read may name
another face. So the picture itself is kept: the top card brought upright along its
corners, with the light taken out (`light.flatten`). A later frame brought upright along
the same corners is aligned to it by ECC (a correlation that a brighter or dimmer lamp
does not change) allowing a small turn and shift: a high correlation after a small move
is the same card; a new card laid on it (another face, or the same face laid elsewhere)
correlates poorly or needs a bigger move. Between the two (another face of the same
family laid almost square on it correlates well: only the print differs) the recogniser
decides: the same face as the one logged is the same card.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from camera.light import ecc, flatten
from camera.locate import CANON, Quad, upright

SAME_CORRELATION = 0.9  # ECC correlation from which the picture is the same card's
MAYBE_CORRELATION = 0.6  # from here (after a small move) the recogniser decides
NUDGE_SHIFT = 0.06  # a nudge moves the card's centre less than this share of its long edge ...
NUDGE_TURN = 5.0  # ... and turns it less than this (degrees)
ECC_STEPS = 40
ECC_SCALE = 0.5  # aligned at half the upright size: quick, and blind to sensor noise


def _look(frame: Any, quad: Quad) -> Any:
    grey = upright(frame, quad)
    small = cv2.resize(grey, (round(CANON[0] * ECC_SCALE), round(CANON[1] * ECC_SCALE)),
                       interpolation=cv2.INTER_AREA)
    return np.ascontiguousarray(flatten(small).astype(np.float32))


def _angle(quad: Any) -> float:
    """The direction of a quad's first (short) edge, degrees."""
    dx, dy = quad[1] - quad[0]
    return float(np.degrees(np.arctan2(dy, dx)))


@dataclass
class Top:
    """The top card: its corners in the frame and its light-free upright picture."""

    quad: Quad
    look: Any
    cards: tuple[str, ...] = ()  # the face logged for it, or the candidates asked

    @classmethod
    def seen(cls, frame: Any, quad: Quad, cards: tuple[str, ...] = ()) -> Top:
        return cls(np.asarray(quad, np.float32), _look(frame, quad), cards)

    def is_card(self, cards: tuple[str, ...]) -> bool:
        """Whether a reading (its face, or the candidates asked) can be this card's face."""
        return bool(set(cards) & set(self.cards))

    def near(self, quad: Quad) -> bool:
        """Whether a card found at `quad` lies within a nudge of this one."""
        here, there = np.asarray(self.quad, np.float32), np.asarray(quad, np.float32)
        length = float(np.linalg.norm(here[2] - here[1]))
        shift = float(np.linalg.norm(here.mean(axis=0) - there.mean(axis=0)))
        turn = abs(_angle(here) - _angle(there)) % 180
        return shift <= NUDGE_SHIFT * length and min(turn, 180 - turn) <= NUDGE_TURN

    def still_there(self, frame: Any) -> tuple[Top | None, bool]:
        """This card followed to where it lies in `frame`, if it has moved at most a nudge
        and its picture correlates at least MAYBE_CORRELATION (else None); and whether it
        correlates so well that it is surely the same card."""
        now = _look(frame, self.quad)
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
        return Top.seen(frame, self._followed(warp), self.cards), correlation >= SAME_CORRELATION

    def _followed(self, warp: Any) -> Quad:
        """The corners after the move `warp` (in the small upright picture's pixels)."""
        w, h = CANON
        s = ECC_SCALE
        corners = np.array([[0, 0], [w * s, 0], [w * s, h * s], [0, h * s]], np.float32)
        moved = corners @ warp[:, :2].T + warp[:, 2]
        to_frame = cv2.getPerspectiveTransform(corners, self.quad)
        return cv2.perspectiveTransform(moved[None].astype(np.float32), to_frame)[0]
