"""What a still picture of the board shows, location by location (needs the extra).

The board is read against its own taught photo, rectified (games.board.camera.cells):
there, every square is empty (the pawns are all in START), so a square is empty when it
looks as it did, whatever the printing. The lamp is taken out first: the picture over the
taught photo, taken cell by cell and smoothed over a few cells (a median: a pawn or a
hand on a few cells does not move it), so a lamp dimmed, tinted or moved changes nothing.

A square that differs is occupied; its colour is the pawns' hue (red, yellow, green,
blue: the game's colours, refined from the taught START) of the pixels that changed,
where the print beneath was not already of that hue; changed pixels of no pawn's hue
(a hand, a sleeve, a cup) make it unknown. A START or HOME is read as its pixels of its
colour's hue (the watcher makes them a count: games.board.camera.watch).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from games.board.camera import cells
from games.board.grid import GRID, unkey
from games.board.rules import geometry as g

# The pawns' hue on OpenCV's 0-180 scale, before teaching refines it from the START
HUES = {"red": 0.0, "yellow": 27.0, "green": 60.0, "blue": 112.0}
# a pixel this close in hue to a pawn's, saturated and bright enough, is of that pawn:
# narrow for red and yellow, as skin lies between them (hue 9-13)
HUE_REACH = {"red": 6.0, "yellow": 8.0, "green": 14.0, "blue": 14.0}
SATURATED = 140  # of 255: a pawn's plastic (a pale print is less)
# of 255: a print this saturated is of its hue, when a change there is of that hue and no
# seated colour's (the print seen in another light, as no pawn of that colour is in play)
PRINT_SATURATED = 60
BRIGHT = 45  # of 255: darker, a pixel's hue is noise
CHANGED = 0.25  # a pixel changed: this share of the taught brightness (the lamp taken out)
EMPTY_BELOW = 0.12  # of a square's read pixels changed: empty; above OCCUPIED_FROM: a pawn
OCCUPIED_FROM = 0.2
COVERED = 0.35  # of a square's read pixels changed, of no pawn's hue: something lies on it
VOTES = 0.08  # of a square's read pixels of one pawn's hue: that pawn's colour
# ... where the print beneath was already of that hue (a red pawn on a red slide): more,
# as a print of a strong colour changes most with the lamp and the camera's compression
SAME_VOTES = 0.25
UNKNOWN = "?"
NEAR = 3  # pixels: the taught neighbourhood a pixel must leave to have changed
SOFTEN = 1.0  # pixels: both pictures softened alike, so a sharper lens or focus is no change
CLIPPED = 250  # a channel this bright may have been brighter: the camera cut it
LIGHT_CELLS = 5  # cells a side over which the lamp's gain is a median


def hue_classes(picture: Any, hues: dict[str, float], saturated: int = SATURATED) -> Any:
    """Per pixel, the index (in g.COLORS) of the pawn colour whose hue it has, or -1."""
    hsv = cv2.cvtColor(picture, cv2.COLOR_BGR2HSV)
    hue = hsv[:, :, 0].astype(np.float32)
    ok = (hsv[:, :, 1] >= saturated) & (hsv[:, :, 2] >= BRIGHT)
    out = np.full(hue.shape, -1, np.int8)
    for i, color in enumerate(g.COLORS):
        d = np.abs(hue - hues[color])
        near = (np.minimum(d, 180 - d) <= HUE_REACH[color]) & ok
        out[near] = i
    return out


@dataclass
class Reading:
    """A still board: each square's pawn colour ("" empty, "?" something else), whether
    that is doubtful, and each START's and HOME's pixels of its colour's pawns."""

    squares: dict[str, str] = field(default_factory=dict)
    doubtful: set[str] = field(default_factory=set)
    pixels: dict[str, float] = field(default_factory=dict)
    lit: Any = None  # the picture read, in the taught light

    def unknown(self) -> list[str]:
        return [k for k, v in self.squares.items() if v == UNKNOWN]


def light_free(picture: Any, reference: Any) -> Any:
    """`picture` (rectified, float32) in the light of `reference`: over each cell, the
    median ratio of the two, smoothed across cells and spread back over the board. The
    board's edge is mirrored for the median, not repeated: repeated, a corner square's
    cell counted 9 times of 25, so a pawn there (and two or three beside it) set the
    light of the cells around, and an empty square by it read as something no pawn."""
    n, k = GRID, LIGHT_CELLS // 2
    ratio = (picture + 8.0) / (reference + 8.0)
    per_cell = np.median(ratio.reshape(n, cells.CELL, n, cells.CELL, 3), axis=(1, 3))
    mirrored = cv2.copyMakeBorder(np.ascontiguousarray(per_cell, np.float32), k, k, k, k,
                                  cv2.BORDER_REFLECT_101)
    smooth = cv2.medianBlur(mirrored, LIGHT_CELLS)[k:-k, k:-k]
    gain = cv2.resize(smooth, (cells.SIZE, cells.SIZE), interpolation=cv2.INTER_LINEAR)
    return picture / gain


@dataclass
class Taught:
    """The taught board as the reader uses it: the rectified teach photo (float32), its
    darkest and brightest value around each pixel (a picture a little softer or sharper
    than it, or a pixel off, is no change), its hue classes, the pawns' hues, one pawn's
    worth of pixels per colour, the seated colours."""

    reference: Any
    hues: dict[str, float]
    per_pawn: dict[str, float]
    colors: tuple[str, ...]

    def __post_init__(self) -> None:
        near = np.ones((NEAR, NEAR), np.uint8)
        soft = cv2.GaussianBlur(self.reference, (0, 0), SOFTEN)
        self.low = cv2.erode(soft, near)
        self.high = cv2.dilate(soft, near)
        self.scale = self.reference + 24.0
        self.clipped = self.high >= CLIPPED
        picture = np.clip(self.reference, 0, 255).astype(np.uint8)
        self.classes = hue_classes(picture, self.hues)
        self.printed = hue_classes(picture, self.hues, PRINT_SATURATED)
        self.unseated = [i for i, c in enumerate(g.COLORS) if c not in self.colors]

    def refresh(self, lit: Any, board_keys: list[str]) -> None:
        """Take these locations' look again from `lit` (a still picture in the taught
        light, showing them empty): the print as the camera sees it now."""
        for board_key in board_keys:
            x0, y0, x1, y1 = cells.box(board_key)
            self.reference[y0:y1, x0:x1] = lit[y0:y1, x0:x1]
        self.__post_init__()


def changes(picture: Any, taught: Taught) -> tuple[Any, Any]:
    """The rectified `picture` (uint8 BGR) in the taught light, and where it changed."""
    raw = picture.astype(np.float32)
    lit = light_free(raw, taught.reference)
    soft = cv2.GaussianBlur(lit, (0, 0), SOFTEN)
    # a channel at its brightest may have been brighter still: a clipped value is only a
    # floor, so it tells nothing of a change that would make it brighter than it reads
    # (the taught one clipped, the picture now brighter) or darker (the picture clipped);
    # a pawn darker than a taught paper the camera cut is still a change
    darker = taught.low - soft
    darker[raw >= CLIPPED] = 0.0
    brighter = soft - taught.high
    brighter[taught.clipped] = 0.0
    away = np.maximum(darker, brighter) / taught.scale
    return lit, away.max(axis=2) > CHANGED


def read(picture: Any, taught: Taught) -> Reading:
    """Read the rectified `picture` (uint8 BGR) against the taught board."""
    lit, changed = changes(picture, taught)
    classes = hue_classes(np.clip(lit, 0, 255).astype(np.uint8), taught.hues)
    reference_classes, colors = taught.classes, taught.colors
    if taught.unseated:  # a colour no one plays, on a print of its hue: the print, no pawn
        changed &= ~(np.isin(classes, taught.unseated) & (classes == taught.printed))
    out = Reading(lit=lit)
    for board_key in cells.squares(colors):
        x0, y0, x1, y1 = cells.box(board_key)
        moved = changed[y0:y1, x0:x1]
        share = float(moved.mean())
        if share < EMPTY_BELOW:
            out.squares[board_key] = ""
            if share > EMPTY_BELOW * 0.6:
                out.doubtful.add(board_key)
            continue
        here, under = classes[y0:y1, x0:x1], reference_classes[y0:y1, x0:x1]
        new = np.bincount(here[moved & (here != under) & (here >= 0)], minlength=4)
        same = np.bincount(here[moved & (here == under) & (here >= 0)], minlength=4)
        area = moved.size
        color = _vote(new, area, VOTES) or _vote(same, area, SAME_VOTES)
        unsure = color is None and share >= OCCUPIED_FROM and _vote(same, area, VOTES)
        if unsure:  # much changed, in the hue of the print beneath: a pawn of it, maybe
            color = unsure
        owner = unkey(board_key)[0]
        if owner is not None and color not in (None, owner):
            color = None  # a safety square holds its own colour's pawns only
        if color is None and share < COVERED:  # a little changed, of no pawn's hue
            color = ""
        out.squares[board_key] = UNKNOWN if color is None else color
        if share < OCCUPIED_FROM or color == "" or unsure:
            out.doubtful.add(board_key)
    for board_key in cells.zones(colors):
        color, location = unkey(board_key)
        assert color is not None
        x0, y0, x1, y1 = cells.box(board_key)
        mine = classes[y0:y1, x0:x1] == g.COLORS.index(color)
        if location == g.HOME:  # its print was taught empty: only what changed counts
            mine &= changed[y0:y1, x0:x1]
        out.pixels[board_key] = float((mine & cells.mask(board_key)).sum())
    return out


def _vote(votes: Any, area: int, enough: float) -> str | None:
    """The colour with most of `votes` (a count per colour), if `enough` of the area."""
    best = int(np.argmax(votes))
    return g.COLORS[best] if votes[best] >= enough * area else None
