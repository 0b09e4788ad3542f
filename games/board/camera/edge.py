"""Whether a hand lies over the board's edge in a still frame (needs the extra).

A hand resting on the board, or fingertips left over its edge as the hand pauses after
putting a pawn down, is still: two frames alike, and the squares it covers may read as
the pawn under them. But an arm always comes in from outside the board, so it crosses
the board's outline: something changed on both sides of the outline, side by side, is a
hand (or a sleeve) entering over the edge. A pawn on an edge square changes only the
inside; a hand or a card beside the board only the outside.

"Changed" is against the last still frame with nothing across the edge (and, when that
one showed something new beside the board only, a hand paused there or a lamp changed,
against the calm before it too: something lies across only when it does against both,
or the table a hand uncovers once gone, beside a pawn moved on an edge square, would
look like a hand across; 60,000 recording 6 draw 7), on a small copy
of the frame (the watcher's motion picture's size): in brightness with the lamp taken
out (camera.light), or in colour with the lamp's tint taken out (each channel's share of
the brightness, less its median change along the band: a brown hand on a brown-grey
table differs little in brightness, much in colour).
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np

INSIDE = 1.5  # small pixels: the band inside the outline looked at
OFF = 0.8  # small pixels: the outside band starts this far out (a pawn's own change,
# spread by the small picture's pixels, reaches just over the outline)
OUTSIDE = 3.0  # small pixels: the outside band ends this far out
LEVEL = 0.25  # a small pixel's brightness (the lamp taken out) changed by this: changed
TINT = 0.05  # ... or its channels' shares of the brightness, summed, by this
REACH = 2  # small pixels: a change inside this near one outside is side by side with it
ACROSS = 3  # small pixels inside changed beside the outside: something across (fewer is a
# pawn's change on an edge square meeting the table's noise)
BESIDE = 3  # small pixels outside changed: something beside the board (fewer: noise)


class EdgeWatch:
    """Feed it each still frame's small copy; `crossed` says whether something lies
    across the board's outline. A crossing that stays `settle` still frames is the
    scene's (a cup on the edge, a lamp that changed unevenly): taken as the new calm, the
    one before kept too, so a hand resting there and gone again crosses nothing."""

    def __init__(self, corners: Any, frame_width: int, size: tuple[int, int],
                 settle: int) -> None:
        poly = (np.asarray(corners, np.float32) * (size[0] / frame_width)).reshape(-1, 1, 2)
        w, h = size
        away = np.array([[cv2.pointPolygonTest(poly, (x + 0.5, y + 0.5), True)
                          for x in range(w)] for y in range(h)], np.float32)
        self.inside = (away >= 0) & (away < INSIDE)
        self.outside = (away < -OFF) & (away > -OUTSIDE)
        self.band = self.inside | self.outside
        self.settle = settle
        self._calm: list[tuple[Any, Any]] = []  # (brightness, tint) with nothing across
        self._crossing = 0  # still frames in a row with something across

    def crossed(self, small: Any, light_free: Any) -> bool:
        """Whether something lies across the outline in this still frame (`small`, BGR;
        `light_free`, its brightness over the lamp's, as the watcher's motion check)."""
        now = (light_free, _tint(small))
        if not self._calm:
            self._calm = [now]
            return False
        across, beside = self._changed(now, self._calm[0])
        if not across:  # the new calm; something new beside the board only (a hand
            # paused there, a lamp changed) keeps the calm before it too, so what it
            # uncovers once gone, beside a pawn moved on an edge square, crosses nothing
            self._calm = [now, self._calm[-1]] if beside else [now]
            self._crossing = 0
            return False
        if len(self._calm) > 1 and not self._changed(now, self._calm[1])[0]:
            self._calm[1], self._crossing = now, 0  # what settled there, still there
            return False
        self._crossing += 1
        if self._crossing >= self.settle:
            self._calm, self._crossing = [self._calm[0], now], 0
        return True

    def moved(self) -> None:
        """Something moved: a crossing seen before is no longer the same one."""
        self._crossing = 0

    def _changed(self, now: tuple[Any, Any], calm: tuple[Any, Any]) -> tuple[bool, bool]:
        """Against `calm`: whether something lies across the outline, and whether
        anything changed just outside it."""
        tint = np.abs(now[1] - calm[1])
        tint = (tint - np.median(tint[self.band], axis=0)).sum(axis=2)
        changed = (tint > TINT) | (np.abs(now[0] - calm[0]) > LEVEL)
        outside = (changed & self.outside).astype(np.uint8)
        near = np.ones((2 * REACH + 1, 2 * REACH + 1), np.uint8)
        out = cv2.dilate(outside, near)
        across = int(np.count_nonzero(changed & self.inside & (out > 0))) >= ACROSS
        return across, int(np.count_nonzero(outside)) >= BESIDE


def _tint(small: Any) -> Any:
    """Each channel's share of a pixel's brightness (the lamp's strength cancels)."""
    x = small.astype(np.float32) + 4.0
    return x / x.sum(axis=2, keepdims=True)
