"""When a card has been played: a new face at rest on top of the pile (needs the extra).

Every frame costs one small grey copy (MOTION_SIZE) and two differences: that is all
the camera spends while nothing happens. Recognition runs only when the picture has
been still for STILL_FRAMES frames *and* differs from the last picture it judged:

- anything moving (a hand, an arm, a card being slid) resets the stillness;
- a still change that reaches the frame's edge is an arm resting over the pile: wait
  (after LONG_STILL frames it is taken as the new normal; with no card on the pile yet
  there is nothing to wait for), unless the top card is
  surely still there as it was: then the light changed, and this is the new normal
  (the light division leaves a trace at the frame's edge: plays waited 20 still frames
  each after a lamp changed, and were missed when they came quicker);
- the light is divided out (each small pixel over its surroundings), so a change of
  light alone is no change;
- the card judged last, still on top (camera.top: its own picture, light taken out,
  found again after at most a nudge, its print unchanged), is the same card again:
  nothing;
- a change too small to judge still gets a look at the start of a rest, when the top
  card is not surely as it was: a face of its family laid square on it changes under
  1 % of the spot (its print only), and waited for the next change (20 frames late).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from camera.faces import Recogniser
from camera.model import Model
from camera.top import Top

MOTION_SIZE = (80, 60)
MOTION_LEVEL = 0.10  # a small pixel changed by this share of the mean brightness moved
MOTION_SHARE = 0.004  # this share of the small picture changed: something moves
CHANGE_SHARE = 0.01  # of the pile spot changed since the last judged picture: look again
STILL_FRAMES = 3
LONG_STILL = 20
EDGE_BAND = 3  # small pixels along the border where an arm shows
LIGHT_SIGMA = 6.0  # small pixels over which the light is taken as even


@dataclass(frozen=True)
class Seen:
    """One card the companion would log, at frame `frame` (0-based)."""

    frame: int
    card: str | None
    confidence: float
    candidates: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        if self.card is None:
            return {"frame": self.frame, "card": None, "candidates": list(self.candidates)}
        return {"frame": self.frame, "card": self.card, "confidence": self.confidence}


def _small(frame: Any) -> Any:
    """The frame, small and with the light divided out: each pixel over the brightness
    around it, so a lamp switched, dimmed or tinted, or its glare moved, changes nothing
    while a hand or a card does."""
    grey = frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    small = cv2.resize(grey, MOTION_SIZE, interpolation=cv2.INTER_AREA).astype(np.float32)
    return small / (cv2.GaussianBlur(small, (0, 0), LIGHT_SIGMA) + 1.0)


class Watcher:
    """Feed frames in time order; `feed` returns a Seen when a card is to be logged."""

    def __init__(self, model: Model, recogniser: Recogniser | None = None) -> None:
        self.model = model
        self.recogniser = recogniser or Recogniser(model.faces, model.card_size)
        self.frame = -1
        self._previous: Any = None
        self._judged: Any = None  # the small picture last judged
        self._still = 0
        self._top: Top | None = None
        self._spot_small: tuple[int, int, int, int] = model.spot_pixels(*MOTION_SIZE)
        self.recognitions = 0

    def feed(self, frame: Any) -> Seen | None:
        self.frame += 1
        small = _small(frame)
        previous, self._previous = self._previous, small
        if previous is None or previous.shape != small.shape:
            self._still = 0
            return None
        moved = float(np.mean(np.abs(small - previous) > MOTION_LEVEL))
        self._still = self._still + 1 if moved < MOTION_SHARE else 0
        if self._still < STILL_FRAMES:
            return None
        if self._judged is None:  # the first still picture: what lies there already
            return self._judge(frame, small, log=False)
        changed = np.abs(small - self._judged) > MOTION_LEVEL
        x0, y0, x1, y1 = self._spot_small
        spot = changed[y0:y1, x0:x1]
        if float(np.mean(spot)) < CHANGE_SHARE:
            # too little for a play, unless the top card's print changed (camera.top)
            if self._still == STILL_FRAMES and self._top is not None and spot.any() \
                    and self._top.reprinted(frame):
                return self._judge(frame, small, log=True)
            return None
        if self._top is not None and _reaches_edge(changed) and self._still < LONG_STILL:
            if self._still == STILL_FRAMES and self._top.still_there(frame)[1]:
                self._judged = small  # the top card lies as it did: the light changed
            return None  # an arm resting over the pile
        return self._judge(frame, small, log=True)

    def _judge(self, frame: Any, small: Any, *, log: bool) -> Seen | None:
        self._judged = small
        h, w = frame.shape[:2]
        followed, sure = (None, False) if self._top is None else self._top.still_there(frame)
        if followed is not None and sure:  # the same card again, or nudged
            self._top = followed
            return None
        self.recognitions += 1
        reading = self.recogniser.read(frame, self.model.spot_pixels(w, h))
        if reading is None:
            return None
        if followed is not None and followed.is_card(reading.candidates):
            self._top = followed  # the same face where that card lay: that card
            return None
        if self._top is not None and self._top.is_card(reading.candidates) \
                and self._top.near(reading.quad):
            return None  # that face where that card lay, seen through a hand: that card
        self._top = Top.seen(frame, reading.quad, reading.candidates)
        if not log:
            return None
        return Seen(self.frame, reading.card, reading.confidence, reading.candidates)


def _reaches_edge(changed: Any) -> bool:
    """Whether the changed pixels touch the picture's border band (an arm comes from
    there; its sleeve may match the table in the very last row)."""
    b = EDGE_BAND
    return bool(changed[:b].any() or changed[-b:].any() or changed[:, :b].any()
                or changed[:, -b:].any())
