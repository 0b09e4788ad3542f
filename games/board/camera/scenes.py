"""Synthetic board videos of our own design, for the tests and `make bench` (needs the extra).

No photo of any real board ships with the companion, so the board camera is measured on
boards drawn here. A *printing* (seeded) fixes how a board looks: paper, ink, side
colours, line widths, the logo, after BOARD.md's geometry (games.board.grid): the 60
track squares, the 8 slides, each colour's safety zone, START and HOME. A *scene*
(seeded) fixes the table, where the board lies (any quarter turn, a few degrees more), the
camera's perspective, the pawns' plastic and the lamp that shades them and casts their
shadows. A *recording* then plays a game on it: each card drawn from a shuffled deck (as
at the table: the referee refuses a card the pile no longer holds), the hand that moves the
pawns (bumps, slides, 7 splits, 11 switches, Sorry!), the table's life meanwhile (hands
passing or resting, a pawn lifted and held, nudges, light, a cup on the margin, a card on
the discard spot), staged wrong moves put right a little later, noise and JPEG.

Everything is deterministic in its seeds. Tests use small frames (e.g. 480x270) and seeds
below 1000; `make bench` uses 1280x720 and held-out seeds (bench.SEED), which the tests
never see.

>>> scene = BoardScene(seed=1, size=(320, 180))
>>> scene.teach_photo().shape, len(scene.corners)
((180, 320, 3), 4)
"""

from __future__ import annotations

import copy
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from games.board.grid import GRID, ZONE_RADIUS, spot
from games.board.rules import geometry as g
from games.board.rules.cards import CARDS, deck_counts
from games.board.rules.moves import Option, generate
from games.board.rules.position import Position
from games.board.rules.settings import PAWNS, Settings

Image = Any  # an HxWx3 uint8 BGR array
SIDE_BGR = {"red": (50, 50, 205), "blue": (190, 105, 40), "yellow": (40, 200, 230),
            "green": (70, 160, 60)}
PAWN_BGR = {"red": (30, 30, 180), "blue": (165, 70, 20), "yellow": (20, 185, 230),
            "green": (40, 135, 30)}
SKIN = ((80, 120, 200), (60, 100, 170), (50, 80, 140), (120, 160, 220), (40, 60, 100))
PAWN_RADIUS = 0.36  # cells: a pawn's base
NUDGE = 0.12  # cells: how far a nudge moves a pawn within its square
JITTER = 0.07  # cells: how far off its square's centre a pawn is put down
# where the pawns of a START or HOME stand, in cells from the circle's centre
SLOTS = ((-0.5, -0.5), (0.5, -0.5), (-0.5, 0.5), (0.5, 0.5))
# how often an option of each kind is picked, beside the others (the bench covers the rare)
KIND_WEIGHT = {"start": 2.0, "forward": 1.0, "backward": 1.5, "split": 2.0, "switch": 3.0,
               "sorry": 3.0, "decline": 0.0}  # a decline is tapped: no camera sees it
STAGED = 0.08  # the share of moves first put down wrong, then right
DISTURBANCES = ("pass", "rest", "light", "nudge", "hold", "cup", "card")


def _tint(bgr: tuple[int, ...], share: float) -> tuple[int, ...]:
    """`bgr` mixed with white: `share` of the colour."""
    return tuple(int(share * c + (1 - share) * 245) for c in bgr)


def _jittered(bgr: tuple[int, ...], rng: np.random.Generator, by: int) -> tuple[int, ...]:
    return tuple(int(np.clip(c + rng.integers(-by, by + 1), 0, 255)) for c in bgr)


def render_print(printing: int, cell: int) -> Image:
    """The board's print in `printing`, seen from straight above, `cell` pixels a cell."""
    rng = np.random.default_rng([printing, 11])
    n = GRID * cell
    paper = tuple(int(c) for c in rng.integers(200, 245, 3))
    track = _jittered(paper, rng, 12)
    ink = tuple(int(c) for c in rng.integers(10, 70, 3))
    sides = {c: _jittered(SIDE_BGR[c], rng, 25) for c in g.COLORS}
    pale = float(rng.uniform(0.3, 0.5))
    line = max(1, round(cell * rng.uniform(0.03, 0.07)))
    img = np.full((n, n, 3), paper, np.uint8)
    font = (cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_TRIPLEX)[
        printing % 3]

    def px(point: tuple[float, float]) -> tuple[int, int]:
        return int(point[0] * cell), int(point[1] * cell)

    def square(center: tuple[float, float], fill: tuple[int, ...]) -> None:
        x, y = center
        cv2.rectangle(img, px((x - 0.5, y - 0.5)), px((x + 0.5, y + 0.5)), fill, -1)
        cv2.rectangle(img, px((x - 0.5, y - 0.5)), px((x + 0.5, y + 0.5)), ink, line)

    # the logo and a few shapes in the middle: the margin, where nothing is played
    for _ in range(int(rng.integers(3, 8))):
        colour = sides[g.COLORS[int(rng.integers(4))]]
        x, y = rng.uniform(5.5, 10.5, 2)
        cv2.circle(img, px((x, y)), int(rng.uniform(0.3, 1.0) * cell), _tint(colour, 0.6), -1)
    scale = cell / 16
    (tw, th), _ = cv2.getTextSize("SORRY!", font, scale, max(1, cell // 8))
    cv2.putText(img, "SORRY!", (n // 2 - tw // 2, n // 2 + th // 2), font, scale,
                sides["red"], max(1, cell // 8), cv2.LINE_AA)
    for t in range(g.TRACK_LEN):
        square(spot(f"T{t}"), track)
    for slide in g.SLIDES:
        colour = sides[g.COLORS[slide.side]]
        a, b = px(spot(f"T{slide.start}")), px(spot(f"T{slide.end}"))
        cv2.line(img, a, b, colour, max(1, int(0.22 * cell)))
        d = np.subtract(b, a) / max(1.0, float(np.hypot(*np.subtract(b, a))))
        normal = np.array([-d[1], d[0]])
        tip = np.array(a) + d * 0.35 * cell
        base = np.array(a) - d * 0.3 * cell
        tri = np.array([tip, base + normal * 0.35 * cell, base - normal * 0.35 * cell], np.int32)
        cv2.fillConvexPoly(img, tri, colour, cv2.LINE_AA)
        cv2.circle(img, b, int(0.3 * cell), colour, -1, cv2.LINE_AA)
    for color in g.COLORS:
        for k in range(1, g.SAFETY_LEN + 1):
            square(spot(f"S{k}", color), _tint(sides[color], pale))
        for zone in (g.START, g.HOME):
            center = px(spot(zone, color))
            cv2.circle(img, center, int(ZONE_RADIUS * cell), _tint(sides[color], pale), -1,
                       cv2.LINE_AA)
            cv2.circle(img, center, int(ZONE_RADIUS * cell), sides[color], max(1, 2 * line),
                       cv2.LINE_AA)
            (tw, th), _ = cv2.getTextSize(zone, font, cell / 60, 1)
            cv2.putText(img, zone, (center[0] - tw // 2, center[1] + th // 2), font,
                        cell / 60, sides[color], 1, cv2.LINE_AA)
    return img


def pawn_sprite(bgr: tuple[int, ...], cell: int, light: tuple[float, float]
                ) -> tuple[Any, Any]:
    """A pawn seen from above with its shadow: colour (float32) and opacity (0..1), a
    square `2 * cell` wide centred on the pawn. The plastic is shaded towards `light`
    (a unit vector in the picture), the shadow falls away from it."""
    up = 4  # drawn large, then shrunk: smooth edges
    s = 2 * cell * up
    c = s / 2
    lx, ly = light
    colour = np.zeros((s, s, 3), np.float32)
    alpha = np.zeros((s, s), np.float32)
    shadow = np.zeros((s, s), np.float32)
    r = cell * up
    cv2.circle(shadow, (int(c - lx * 0.16 * r), int(c - ly * 0.16 * r)), int(0.4 * r), 1.0, -1)
    shadow = cv2.GaussianBlur(shadow, (0, 0), 0.08 * r) * 0.55
    base = np.array(bgr, np.float32)
    for radius, shade, shift in ((PAWN_RADIUS, 0.65, 0.0), (0.3, 0.85, 0.03),
                                 (0.24, 1.0, 0.05), (0.17, 1.1, 0.07), (0.12, 1.2, 0.08)):
        center = (int(c + lx * shift * r), int(c + ly * shift * r))
        cv2.circle(colour, center, int(radius * r), tuple(float(v) for v in
                                                          np.clip(base * shade, 0, 255)), -1)
        cv2.circle(alpha, center, int(radius * r), 1.0, -1)
    glint = (int(c + lx * 0.12 * r), int(c + ly * 0.12 * r))
    cv2.circle(colour, glint, int(0.05 * r), (235.0, 235.0, 235.0), -1)
    alpha = np.maximum(alpha, shadow)
    size = (2 * cell, 2 * cell)
    return (cv2.resize(colour, size, interpolation=cv2.INTER_AREA),
            cv2.resize(alpha, size, interpolation=cv2.INTER_AREA))


def jpeg(picture: Any, quality: int) -> Image:
    """A float picture as the camera's JPEG stream gives it back: clipped, 8 bits, lossy."""
    data = cv2.imencode(".jpg", np.clip(picture, 0, 255).astype(np.uint8),
                        [cv2.IMWRITE_JPEG_QUALITY, quality])[1]
    return cv2.imdecode(data, cv2.IMREAD_COLOR)


@dataclass
class Pawn:
    """A physical pawn: its colour, its location (BOARD.md), where exactly it stands
    (cells), and which slot of a START or HOME it fills."""

    color: str
    location: str
    x: float
    y: float
    slot: int = -1


@dataclass
class Light:
    gain: float = 1.0
    tint: tuple[float, float, float] = (1.0, 1.0, 1.0)
    slope: tuple[float, float] = (0.0, 0.0)  # brightness change across the frame, x and y
    glare: tuple[float, float, float] | None = None  # x, y (fractions), strength


@dataclass(frozen=True)
class Truth:
    """What the K-th draw of a recording was: its card, the frame it was drawn at, whose
    turn, the position before it, the option played (None: a forfeit), the first frame the
    board lay still as that option's (None: a forfeit), the first frame of the hand that
    moves its pawns, and for a staged wrong move the first frame the wrong board lay still."""

    card: str
    frame: int
    color: str
    pawns: dict[str, list[str]]
    kind: str | None
    legs: list[list[str]] | None
    rest: int | None
    start: int | None = None
    staged: int | None = None
    rest_near: int | None = None  # the rest as the bench counted it before board34

    def draw_line(self) -> dict[str, Any]:
        return {"type": "draw", "card": self.card, "frame": self.frame, "pawns": self.pawns}


@dataclass
class Recording:
    frames: list[Image] = field(default_factory=list)
    setup: dict[str, Any] = field(default_factory=dict)
    truths: list[Truth] = field(default_factory=list)
    disturbances: list[tuple[str, int]] = field(default_factory=list)

    def game_lines(self) -> list[dict[str, Any]]:
        """The GAME file of `camera watch-board`: the setup, then one line a draw."""
        return [self.setup, *(t.draw_line() for t in self.truths)]


class BoardScene:
    """One board on one table seen by one fixed camera."""

    def __init__(self, seed: int, size: tuple[int, int] = (1280, 720),
                 printing: int | None = None, edition: str = "classic",
                 colors: Sequence[str] = g.COLORS) -> None:
        self.seed, self.size, self.edition = seed, size, edition
        self.colors = tuple(c for c in g.COLORS if c in colors)
        w, h = size
        rng = np.random.default_rng([seed, 21])
        board_px = rng.uniform(0.72, 0.84) * h
        self.cell = max(6, round(board_px / GRID * 1.3))  # a little finer than the camera
        self.print_ = render_print(seed if printing is None else printing, self.cell)
        base = rng.integers(40, 130, 3).astype(np.float32)
        yy = np.arange(h, dtype=np.float32)[:, None]
        grain = 14 * np.sin(yy / h * rng.uniform(20, 40) + rng.uniform(0, 6)) + np.zeros((h, w))
        noise = cv2.GaussianBlur(rng.normal(0, 14, (h, w)).astype(np.float32), (0, 0), 3)
        self.table = np.clip(base[None, None, :] + (grain + noise)[:, :, None], 0, 255
                             ).astype(np.uint8)
        angle = math.radians(90 * int(rng.integers(4)) + rng.uniform(-6, 6))
        cx, cy = w / 2 + rng.uniform(-0.05, 0.05) * w, h / 2 + rng.uniform(-0.02, 0.02) * h
        half = board_px / 2
        corners = []
        for ux, uy in ((-1, -1), (1, -1), (1, 1), (-1, 1)):  # T0's corner first, clockwise
            x, y = ux * half, uy * half
            corners.append((cx + x * math.cos(angle) - y * math.sin(angle),
                            cy + x * math.sin(angle) + y * math.cos(angle)))
        keystone = rng.uniform(-0.025, 0.025, (4, 2)) * board_px
        self.corners = np.array(corners, np.float32) + keystone.astype(np.float32)
        n = GRID * self.cell
        self.homography = cv2.getPerspectiveTransform(
            np.array([[0, 0], [n, 0], [n, n], [0, n]], np.float32), self.corners)
        self.lamp = rng.uniform(-1, 1, 2)
        self.lamp /= np.hypot(*self.lamp)
        self.sprites = {c: pawn_sprite(_jittered(PAWN_BGR[c], rng, 15), self.cell,
                                       (float(self.lamp[0]), float(self.lamp[1])))
                        for c in g.COLORS}
        self._noise = [rng.normal(0, 3.0, (h, w, 3)).astype(np.float32) for _ in range(4)]
        self.discard = (w * (0.06 if rng.random() < 0.5 else 0.86), h * 0.4)
        self._cache: tuple[Any, Image] | None = None
        self._fields: dict[tuple[Any, ...], Any] = {}
        self._board_mask: Any = None  # where the board lies in the picture

    def moved(self, seed: int, by: float = 0.03) -> BoardScene:
        """The same board and table after the board (or the camera) moved a little
        between games: shifted up to `by` of its side and turned up to 2 degrees."""
        rng = np.random.default_rng([self.seed, seed, 7])
        out = copy.copy(self)
        centre = self.corners.mean(axis=0)
        side = float(np.linalg.norm(self.corners[1] - self.corners[0]))
        turn = math.radians(float(rng.uniform(-2, 2)))
        rotation = np.array([[math.cos(turn), -math.sin(turn)],
                             [math.sin(turn), math.cos(turn)]], np.float32)
        shift = rng.uniform(-by, by, 2).astype(np.float32) * side
        out.corners = ((self.corners - centre) @ rotation.T + centre + shift).astype(np.float32)
        n = GRID * self.cell
        out.homography = cv2.getPerspectiveTransform(
            np.array([[0, 0], [n, 0], [n, n], [0, n]], np.float32), out.corners)
        out._cache = None
        out._board_mask = None
        return out

    # --- where things are ---

    def to_image(self, point: tuple[float, float]) -> tuple[float, float]:
        """A point of the board (cells) in the picture (pixels)."""
        p = cv2.perspectiveTransform(np.array([[[point[0] * self.cell, point[1] * self.cell]]],
                                              np.float32), self.homography)
        return float(p[0, 0, 0]), float(p[0, 0, 1])

    def image_corners(self) -> list[tuple[float, float]]:
        return [(float(x), float(y)) for x, y in self.corners]

    # --- drawing ---

    def _board(self, pawns: Sequence[Pawn]) -> Image:
        """The table with the board and its pawns on it, as the camera's geometry puts
        them (no light, no hand); the last one is kept, as most frames repeat it."""
        key = tuple((p.color, round(p.x, 3), round(p.y, 3)) for p in pawns)
        if self._cache is not None and self._cache[0] == key:
            return self._cache[1]
        board = self.print_.astype(np.float32)
        n = board.shape[0]
        for p in sorted(pawns, key=lambda p: p.y):
            colour, alpha = self.sprites[p.color]
            s = colour.shape[0]
            x0, y0 = int(p.x * self.cell) - s // 2, int(p.y * self.cell) - s // 2
            a0, b0 = max(0, -x0), max(0, -y0)
            a1, b1 = min(s, n - x0), min(s, n - y0)
            if a1 <= a0 or b1 <= b0:
                continue
            roi = board[y0 + b0:y0 + b1, x0 + a0:x0 + a1]
            a = alpha[b0:b1, a0:a1, None]
            roi[:] = roi * (1 - a) + colour[b0:b1, a0:a1] * a
        w, h = self.size
        warped = cv2.warpPerspective(board, self.homography, (w, h), flags=cv2.INTER_AREA)
        mask = cv2.warpPerspective(np.ones((n, n), np.float32), self.homography, (w, h))
        out = self.table.astype(np.float32) * (1 - mask[:, :, None]) + warped
        self._cache = (key, out)
        return out

    def _light_field(self, light: Light) -> Any:
        key = (light.gain, light.tint, light.slope, light.glare)
        if key not in self._fields:
            if len(self._fields) > 8:
                self._fields.clear()
            w, h = self.size
            yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
            gain = light.gain * (1 + light.slope[0] * (xx / w - 0.5)
                                 + light.slope[1] * (yy / h - 0.5))
            field_ = gain[:, :, None] * np.array(light.tint, np.float32)[None, None, :]
            glare = np.zeros((h, w), np.float32)
            if light.glare is not None:
                gx, gy, strength = light.glare
                r2 = ((xx - gx * w) ** 2 + (yy - gy * h) ** 2) / (0.1 * w) ** 2
                glare = strength * 255 * np.exp(-r2)
            self._fields[key] = (field_, glare[:, :, None])
        return self._fields[key]

    def shoot(self, pawns: Sequence[Pawn], light: Light, rng: np.random.Generator, *,
              hand: tuple[tuple[float, float], tuple[float, float], tuple[int, int, int]]
              | None = None, held: str | None = None,
              things: Sequence[tuple[str, tuple[float, float]]] = (),
              quality: int = 85, blur: float = 0.0) -> Image:
        """One frame: the board with `pawns`, the `things` lying about (a "cup" or a
        "card", at picture pixels), a hand (where, from which edge point, its skin)
        holding a pawn of colour `held`, in `light`, with the sensor's noise and JPEG."""
        img = self._board(pawns).copy()
        h = self.size[1]
        for what, (x, y) in things:
            if what == "cup":
                r = int(0.06 * h)
                cv2.circle(img, (int(x + 0.3 * r), int(y + 0.3 * r)), r, (20, 20, 20), -1)
                cv2.circle(img, (int(x), int(y)), r, (60, 90, 160), -1)
                cv2.circle(img, (int(x), int(y)), int(0.75 * r), (30, 40, 60), -1)
            else:
                cv2.rectangle(img, (int(x - 0.07 * h), int(y - 0.1 * h)),
                              (int(x + 0.07 * h), int(y + 0.1 * h)), (230, 230, 235), -1)
                cv2.rectangle(img, (int(x - 0.06 * h), int(y - 0.09 * h)),
                              (int(x + 0.06 * h), int(y + 0.09 * h)), (60, 60, 190), -1)
        if hand is not None:
            self._hand(img, *hand, held)
        field_, glare = self._light_field(light)
        lit = img * field_ + glare
        return jpeg((cv2.GaussianBlur(lit, (0, 0), blur) if blur > 0 else lit)
                    + self._noise[int(rng.integers(len(self._noise)))], quality)

    def _hand(self, img: Image, at: tuple[float, float], edge: tuple[float, float],
              skin: tuple[int, int, int], held: str | None,
              sleeve: tuple[int, ...] | None = None,
              plastic: tuple[float, ...] | None = None) -> None:
        """The hand at `at`, its sleeve back to `edge`, holding a pawn of `held`; drawn in
        its own colours, or in `sleeve` and `plastic` (a mask of where it lies)."""
        h = self.size[1]
        if sleeve is None:
            sleeve = tuple(int(c) for c in np.random.default_rng(
                [self.seed, int(skin[0])]).integers(20, 200, 3))
        ax, ay = at
        ex, ey = edge
        if held is not None:  # the pawn between the fingers, a little above the board
            colour = plastic or tuple(float(c) for c in PAWN_BGR[held])
            cv2.circle(img, (int(ax), int(ay)), int(PAWN_RADIUS * self.cell / 1.3), colour, -1)
        hx, hy = ax + (ex - ax) * 0.12, ay + (ey - ay) * 0.12
        back = (ax + (ex - ax) * 0.05, ay + (ey - ay) * 0.05)
        cv2.line(img, (int(ex), int(ey)), (int(hx), int(hy)), sleeve, int(0.14 * h))
        cv2.ellipse(img, (int(back[0]), int(back[1])), (int(0.07 * h), int(0.05 * h)),
                    math.degrees(math.atan2(ey - ay, ex - ax)), 0, 360, skin, -1)
        for k in range(4):
            ang = math.atan2(ay - ey, ax - ex) + (k - 1.5) * 0.3
            fx, fy = ax + math.cos(ang) * 0.05 * h, ay + math.sin(ang) * 0.05 * h
            cv2.line(img, (int(back[0]), int(back[1])), (int(fx), int(fy)), skin,
                     max(2, int(0.018 * h)))

    def hand_over_board(self, at: tuple[float, float], edge: tuple[float, float],
                        held: str | None) -> bool:
        """Whether the hand at `at` (its sleeve back to `edge`, a pawn of `held` in its
        fingers) covers any pixel of the board in the picture, as `shoot` draws it."""
        if self._board_mask is None:
            n = GRID * self.cell
            self._board_mask = cv2.warpPerspective(np.ones((n, n), np.uint8), self.homography,
                                                   self.size, flags=cv2.INTER_NEAREST) > 0
        w, h = self.size
        mask = np.zeros((h, w), np.uint8)
        self._hand(mask, at, edge, (255, 255, 255), held, sleeve=(255,), plastic=(255.0,))
        return bool(np.any((mask > 0) & self._board_mask))

    def random_light(self, rng: np.random.Generator) -> Light:
        glare = None
        if rng.random() < 0.4:
            glare = (rng.uniform(0.3, 0.7), rng.uniform(0.3, 0.7), rng.uniform(0.08, 0.25))
        return Light(float(rng.uniform(0.7, 1.05)),
                     tuple(float(v) for v in rng.uniform(0.9, 1.1, 3)),  # type: ignore[arg-type]
                     tuple(float(v) for v in rng.uniform(-0.2, 0.2, 2)),  # type: ignore[arg-type]
                     glare)

    # --- pawns ---

    def pawns_at(self, pawns: Mapping[str, Sequence[str]], rng: np.random.Generator
                 ) -> list[Pawn]:
        """Physical pawns for a position (BOARD.md pawns), each put down a little off."""
        out: list[Pawn] = []
        for color in self.colors:
            for location in pawns.get(color, ()):
                out.append(self._put(out, color, location, rng))
        return out

    def _put(self, pawns: Sequence[Pawn], color: str, location: str,
             rng: np.random.Generator) -> Pawn:
        """A pawn of `color` put down on `location` (a free slot of a START or HOME)."""
        x, y = spot(location, color)
        slot = -1
        if location in (g.START, g.HOME):
            taken = {p.slot for p in pawns if p.color == color and p.location == location}
            free = [i for i in range(len(SLOTS)) if i not in taken]
            slot = int(free[int(rng.integers(len(free)))])
            x, y = x + SLOTS[slot][0], y + SLOTS[slot][1]
        jx, jy = rng.uniform(-JITTER, JITTER, 2)
        return Pawn(color, location, x + float(jx), y + float(jy), slot)

    def teach_photo(self, seed: int = 0) -> Image:
        """The photo the family teaches the board from: every seated colour's pawns in
        their START, in some light, no hand."""
        rng = np.random.default_rng([self.seed, seed, 5])
        n = PAWNS[self.edition]
        pawns = self.pawns_at({c: [g.START] * n for c in self.colors}, rng)
        light = self.random_light(rng)
        return self.shoot(pawns, light, rng, quality=int(rng.integers(80, 95)))

    # --- a game played ---

    def record(self, draws: int, seed: int, *, staged: float = STAGED,
               disturb: bool = True, into: bool = True) -> Recording:
        """A game of `draws` cards played on the board, filmed at 5 fps: from a position
        some moves into the game (played by the rules, choosing options at random), or
        from its start when not `into`."""
        return _Recorder(self, seed, staged, disturb).play(draws, into)


def _won(position: Position) -> bool:
    return any(all(loc == g.HOME for loc in ps) for ps in position.pawns_json().values())


class _Recorder:
    """Films one game on a scene: the pawns, the hand, the light, the truth."""

    def __init__(self, scene: BoardScene, seed: int, staged: float, disturb: bool) -> None:
        self.scene = scene
        self.rng = np.random.default_rng([scene.seed, seed, 6])
        self.staged, self.disturb = staged, disturb
        self.out = Recording()
        self.light = scene.random_light(self.rng)
        self.quality = int(self.rng.integers(70, 92))
        self.blur = float(self.rng.uniform(0, 1.0))
        self.skin = SKIN[int(self.rng.integers(len(SKIN)))]
        self.things: list[tuple[str, tuple[float, float]]] = []
        self.pawns: list[Pawn] = []
        self.edge = self._edge_point()
        self._found: tuple[Option, ...] = ()  # the options of the card being played
        self.pile: list[str] = []  # the cards left to draw, the next last
        self.hand_seen: list[bool] = []  # per frame: a hand over the board
        # per frame: a hand within 0.07 of the frame's height of the board (how the bench
        # counted a rest before board34, kept to give its figures beside the new ones)
        self.hand_near: list[bool] = []

    # --- filming ---

    def _shoot(self, hand_at: tuple[float, float] | None = None, held: str | None = None
               ) -> None:
        hand = None if hand_at is None else (hand_at, self.edge, self.skin)
        self.hand_seen.append(hand_at is not None
                              and self.scene.hand_over_board(hand_at, self.edge, held))
        self.hand_near.append(hand_at is not None and self._near(hand_at))
        self.out.frames.append(self.scene.shoot(self.pawns, self.light, self.rng, hand=hand,
                                                held=held, things=self.things,
                                                quality=self.quality, blur=self.blur))

    def _near(self, at: tuple[float, float]) -> bool:
        """Whether a hand at `at` (or its sleeve, back to the edge point it comes from)
        comes within 0.07 of the frame's height of the board's outline, around the line
        from `at` to the edge point: the bench's rest before board34, which also counted
        a hand beside the board (or outside the picture) as over it."""
        reach = 0.07 * self.scene.size[1]
        board = self.scene.corners.reshape(-1, 1, 2)
        ex, ey = self.edge
        return any(cv2.pointPolygonTest(board, (float(at[0] + (ex - at[0]) * t),
                                                float(at[1] + (ey - at[1]) * t)), True)
                   > -reach for t in np.linspace(0.0, 1.0, 24))

    def _rest(self, seen: Sequence[bool] | None = None) -> int:
        """The first frame of the run of frames with no hand over the board (no pixel
        of it over the board's) that ends now: the board at rest."""
        seen = self.hand_seen if seen is None else seen
        n = len(seen)
        while n > 0 and not seen[n - 1]:
            n -= 1
        return n

    def _still(self, n: int) -> None:
        for _ in range(n):
            self._shoot()

    def _edge_point(self) -> tuple[float, float]:
        w, h = self.scene.size
        side = int(self.rng.integers(4))
        t = float(self.rng.uniform(0.2, 0.8))
        return [(t * w, -0.1 * h), (1.1 * w, t * h), (t * w, 1.1 * h), (-0.1 * w, t * h)][side]

    def _hand_to(self, frm: tuple[float, float], to: tuple[float, float],
                 held: str | None = None) -> None:
        n = int(self.rng.integers(2, 4))
        for i in range(1, n + 1):
            t = i / n
            self._shoot((frm[0] + (to[0] - frm[0]) * t, frm[1] + (to[1] - frm[1]) * t), held)

    def _pawn_image(self, pawn: Pawn) -> tuple[float, float]:
        return self.scene.to_image((pawn.x, pawn.y))

    def _carry(self, pawn: Pawn, to: str, at: tuple[float, float] | None = None
               ) -> tuple[float, float]:
        """The hand (at `at`, or coming in from the edge) takes `pawn` to location `to`;
        returns where the hand is. The pawn leaves the board while held."""
        start = at or self.edge
        here = self._pawn_image(pawn)
        self._hand_to(start, here)
        self.pawns.remove(pawn)
        self._shoot(here, pawn.color)
        moved = self.scene._put(self.pawns, pawn.color, to, self.rng)
        there = self._pawn_image(moved)
        self._hand_to(here, there, pawn.color)
        self.pawns.append(moved)
        self._shoot(there)
        return there

    def _leave(self, at: tuple[float, float]) -> None:
        self._hand_to(at, self.edge)

    # --- the table's life ---

    def _disturb(self, what: str) -> None:
        rng, scene = self.rng, self.scene
        self.out.disturbances.append((what, len(self.out.frames)))
        self.edge = self._edge_point()
        board_spot = scene.to_image(tuple(rng.uniform(2, 14, 2)))
        if what == "pass":
            self._hand_to(self.edge, board_spot)
            other, self.edge = self.edge, self._edge_point()
            self._hand_to(board_spot, self.edge)
            self.edge = other
        elif what == "rest":
            self._hand_to(self.edge, board_spot)
            for _ in range(int(rng.integers(4, 12))):
                self._shoot(board_spot)
            self._leave(board_spot)
        elif what == "light":
            self.light = scene.random_light(rng)
        elif what in ("nudge", "hold") and self.pawns:
            pawn = self.pawns[int(rng.integers(len(self.pawns)))]
            here = self._pawn_image(pawn)
            self._hand_to(self.edge, here)
            i = self.pawns.index(pawn)
            if what == "hold":  # lifted, held still a moment, put back
                self.pawns.remove(pawn)
                for _ in range(int(rng.integers(3, 8))):
                    self._shoot(here, pawn.color)
                self.pawns.insert(i, pawn)
            else:
                dx, dy = rng.uniform(-NUDGE, NUDGE, 2)
                self.pawns[i] = Pawn(pawn.color, pawn.location, pawn.x + float(dx),
                                     pawn.y + float(dy), pawn.slot)
                self._shoot(here)
            self._leave(here)
        elif what == "cup":
            if any(t[0] == "cup" for t in self.things):
                self.things = [t for t in self.things if t[0] != "cup"]
            else:
                self.things.append(("cup", scene.to_image(tuple(
                    rng.uniform(6.2, 9.8, 2)))))
        elif what == "card":
            x, y = scene.discard
            self.things = [t for t in self.things if t[0] != "card"]
            self.things.append(("card", (x + float(rng.uniform(-5, 5)),
                                         y + float(rng.uniform(-5, 5)))))
        self._still(int(rng.integers(2, 5)))

    # --- the game ---

    def play(self, draws: int, into: bool) -> Recording:
        rng, scene = self.rng, self.scene
        edition = scene.edition
        settings = Settings.parse(None, edition)
        position = Position.start(edition, settings, scene.colors)
        players = [f"P{i + 1}" for i in range(len(scene.colors))]
        self.out.setup = {"type": "setup", "game": "board", "edition": edition,
                          "players": players, "colors": list(scene.colors),
                          "first": players[0]}
        turn = 0
        for _ in range(int(rng.integers(0, 40)) if into else 0):  # unfilmed
            position, turn = self._advance(position, turn, None)
        self.out.setup["first"] = players[turn % len(players)]
        self.pawns = scene.pawns_at(position.pawns_json(), rng)
        self._still(int(rng.integers(4, 8)))
        for _ in range(draws):
            position, turn = self._advance(position, turn, self.out)
            if _won(position):  # the game is over: so is the recording
                break
        return self.out

    def _advance(self, position: Position, turn: int, out: Recording | None
                 ) -> tuple[Position, int]:
        """One card for the player to move: drawn, an option picked and (when filming)
        played with the hand; the next position and whose turn."""
        rng = self.rng
        color = position.colors[turn % len(position.colors)]
        card = self._draw(position.settings)
        found = generate(position, card, color)
        option = None
        if found:
            weights = np.array([KIND_WEIGHT[o.kind] for o in found], np.float64)
            option = found[int(rng.choice(len(found), p=weights / weights.sum()))]
        if out is not None:
            self._found = found
            self._film(position, card, color, option)
        if option is not None:
            position = position.with_pawns(option.board)
            if out is None and _won(position):  # a game won unfilmed: another one
                position = Position.start(position.edition, position.settings, position.colors)
                self.pile = []  # with a fresh deck
        again = (option is not None and option.draw_again) or (
            option is None and position.edition == "classic" and card == "2")
        return position, turn if again else turn + 1

    def _draw(self, settings: Settings) -> str:
        """The next card of the shuffled deck, as the table draws it (the referee refuses
        a card the pile no longer holds: drawn with replacement, a recording soon asks
        for a sixth 1); once the pile is empty, every card is shuffled again (by then all
        are discarded, as the rules reshuffle)."""
        if not self.pile:
            counts = deck_counts(settings.deck)
            self.pile = [card for card in CARDS for _ in range(counts[card])]
            self.rng.shuffle(self.pile)
        return self.pile.pop()

    def _film(self, position: Position, card: str, color: str, option: Option | None) -> None:
        rng = self.rng
        self._still(int(rng.integers(2, 4)))
        frame = len(self.out.frames)
        before = position.pawns_json()
        if self.disturb:
            for _ in range(int(rng.integers(0, 3))):
                if rng.random() < 0.45:
                    self._disturb(DISTURBANCES[int(rng.integers(len(DISTURBANCES)))])
        if option is None:
            self._still(int(rng.integers(6, 10)))
            self.out.truths.append(Truth(card, frame, color, before, None, None, None))
            return
        self.edge = self._edge_point()
        start = len(self.out.frames)
        staged_rest = self._move(option, before, color)
        rest, rest_near = self._rest(), self._rest(self.hand_near)
        same = dict(option.pawns) == {c: tuple(ps) for c, ps in before.items()}
        self._still(int(rng.integers(12, 16) if same else rng.integers(8, 14)))
        self.out.truths.append(Truth(card, frame, color, before, option.kind,
                                     [list(leg) for leg in option.legs], rest, start,
                                     staged_rest, rest_near))

    def _transfers(self, option: Option, before: dict[str, list[str]], color: str
                   ) -> list[tuple[str, str, str]]:
        """The pawns the hand moves, in order: (colour, from, to), the mover's legs first."""
        after = {c: list(ps) for c, ps in option.pawns.items()}
        out: list[tuple[str, str, str]] = []
        gone = {c: list(before[c]) for c in before}
        new = {c: list(after[c]) for c in after}
        for c in gone:
            for loc in list(gone[c]):
                if loc in new[c]:
                    gone[c].remove(loc)
                    new[c].remove(loc)
        for src, dst in option.legs:
            if src in gone[color] and dst in new[color]:
                gone[color].remove(src)
                new[color].remove(dst)
                out.append((color, src, dst))
            elif src == dst:  # back 4 onto a slide that slides it back: lifted, put back
                out.append((color, src, dst))
        for c in gone:
            for src, dst in zip(gone[c], new[c], strict=False):
                out.append((c, src, dst))
        return out

    def _move(self, option: Option, before: dict[str, list[str]], color: str) -> int | None:
        """The hand plays `option`; maybe first wrong (a staged move), then put right.
        Returns the first still frame of the staged wrong board, if any."""
        rng = self.rng
        transfers = self._transfers(option, before, color)
        wrong = self._wrong_square(option, transfers) if rng.random() < self.staged else None
        at: tuple[float, float] | None = None
        for i, (c, src, dst) in enumerate(transfers):
            pawn = self._pawn_on(c, src)
            target = wrong if (wrong is not None and i == 0) else dst
            if i > 0 and c != color and rng.random() < 0.3 and at is not None:
                # the mover down, the bumped pawn taken away a moment before it goes home
                self._leave(at)
                at = None
            at = self._carry(pawn, target, at)
        if at is not None:
            self._leave(at)
        if wrong is None:
            return None
        staged_rest = self._rest()
        self._still(int(rng.integers(20, 26)))
        c, _src, dst = transfers[0]
        at = self._carry(self._pawn_on(c, wrong), dst)
        self._leave(at)
        return staged_rest

    def _pawn_on(self, color: str, location: str) -> Pawn:
        found = [p for p in self.pawns if p.color == color and p.location == location]
        return found[int(self.rng.integers(len(found)))]

    def _wrong_square(self, option: Option, transfers: Sequence[tuple[str, str, str]]
                      ) -> str | None:
        """A square one short of or one past the mover's first landing, free on the
        option's board and giving no option's board: the move a player miscounts."""
        if not transfers or not transfers[0][2].startswith("T"):
            return None
        color, src, dst = transfers[0]
        n = int(dst[1:])
        taken = {loc for ps in option.pawns.values() for loc in ps}
        boards = [o.pawns for o in self._found]
        for step in (-1, 1) if self.rng.random() < 0.5 else (1, -1):
            square = f"T{(n + step) % g.TRACK_LEN}"
            if square in taken or square == src:
                continue
            staged = dict(option.pawns)
            mine = list(staged[color])
            mine.remove(dst)
            staged[color] = tuple(sorted([*mine, square], key=g.order_key))
            if staged not in boards:
                return square
        return None
