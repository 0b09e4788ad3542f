"""Synthetic camera data of our own design: card faces, teaching photos, play sequences.

No photo of any real deck ships with the companion, so the camera is measured on cards
drawn here. A *printing* (seeded) fixes how a deck looks: one background per card family
(numbers, actions, SORRY! faces) as real decks do, so faces differ only by their print.
A *scene* (seeded) fixes the table, the camera's perspective and the pile spot; a
sequence then lays cards with rotation, offset, glare, blur, JPEG noise, hands passing or
resting, light switched, cards nudged or slid into place, and records the ground truth.

Everything is deterministic in its seeds. Tests use small frames (320x240) and seeds
below 1000; `make bench` uses 640x480 and seeds from 10_000, which the tests never see.

>>> scene = Scene(seed=1, size=(320, 240))
>>> seq = scene.sequence(["7", "switch"], seed=2)
>>> [p.card for p in seq.plays], seq.frames[0].shape
(['7', 'switch'], (240, 320, 3))
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

Image = Any  # an HxWx3 uint8 BGR array
FACE = (200, 280)  # a printed face's size in pixels (w, h), portrait
WORDS = {"0": "ZERO", "1": "ONE", "2": "TWO", "3": "THREE", "4": "FOUR", "5": "FIVE",
         "6": "SIX", "7": "SEVEN", "8": "EIGHT", "9": "NINE", "10": "TEN", "11": "ELEVEN",
         "12": "TWELVE", "switch": "SWITCH", "take2": "TAKE 2", "play2": "PLAY 2",
         "sorry": "SORRY!", "steal": "STEAL", "block": "DON'T BE"}
SKIN = ((80, 120, 200), (60, 100, 170), (50, 80, 140), (120, 160, 220), (40, 60, 100))


def _family(card: str) -> str:
    if card in ("sorry", "steal", "block"):
        return "sorry"
    if card.isdigit():
        return "number"
    return "action"


def _big_text(card: str) -> str:
    if card.startswith("slide:"):
        return card.split(":")[1]
    return {"switch": "<>", "take2": "+2", "play2": "x2", "sorry": "S!", "steal": "S!",
            "block": "NO"}.get(card, card)


def _small_text(card: str) -> str:
    if card.startswith("slide:"):
        return "SLIDE"
    return WORDS.get(card, card.upper())


def render_face(card: str, printing: int = 0) -> Image:
    """The face of `card` in printing `printing`: a white edge, the family's background
    and pattern, the card's big sign, its word, and corner indices both ways up."""
    rng = np.random.default_rng([printing, 7])
    w, h = FACE
    colours = {fam: tuple(int(c) for c in rng.integers(40, 200, 3))
               for fam in ("number", "action", "sorry")}
    ink = tuple(int(c) for c in rng.integers(0, 60, 3))
    font = (cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_TRIPLEX)[
        printing % 3]
    img = np.full((h, w, 3), 245, np.uint8)
    edge = 10
    cv2.rectangle(img, (edge, edge), (w - edge, h - edge), colours[_family(card)], -1)
    # the family's pattern: the same on every face of the family
    fam_rng = np.random.default_rng([printing, len(_family(card))])
    for _ in range(6):
        x, y = (int(v) for v in fam_rng.integers(20, min(w, h) - 20, 2))
        cv2.circle(img, (x, y + 40), int(fam_rng.integers(8, 20)), (235, 235, 235), 2)
    cv2.rectangle(img, (edge + 12, h // 2 - 60), (w - edge - 12, h // 2 + 50), (250, 250, 250), -1)
    big = _big_text(card)
    scale = 3.2 if len(big) == 1 else 2.4
    (tw, th), _ = cv2.getTextSize(big, font, scale, 9)
    cv2.putText(img, big, ((w - tw) // 2, h // 2 + th // 2 - 5), font, scale, ink, 9,
                cv2.LINE_AA)
    word = _small_text(card)
    ws = 0.9 if len(word) <= 6 else 0.7
    (tw, _th), _ = cv2.getTextSize(word, font, ws, 2)
    cv2.putText(img, word, ((w - tw) // 2, h - 36), font, ws, (250, 250, 250), 2, cv2.LINE_AA)
    if card.startswith("slide:") or card in ("sorry", "steal", "block"):
        label = {"sorry": "FLIP BACK", "steal": "STEAL 21", "block": "SORRY!"}.get(card, "")
        if label:
            (tw, _th), _ = cv2.getTextSize(label, font, 0.6, 2)
            cv2.putText(img, label, ((w - tw) // 2, 42), font, 0.6, (250, 250, 250), 2,
                        cv2.LINE_AA)
        else:
            cv2.arrowedLine(img, (40, 40), (w - 40, 40), (250, 250, 250), 4, tipLength=0.2)
    corner = big if len(big) <= 2 else big[:2]
    cv2.putText(img, corner, (edge + 6, edge + 28), font, 0.8, (250, 250, 250), 2, cv2.LINE_AA)
    flipped = np.zeros_like(img)
    cv2.putText(flipped, corner, (edge + 6, edge + 28), font, 0.8, (250, 250, 250), 2,
                cv2.LINE_AA)
    flipped = flipped[::-1, ::-1]
    np.copyto(img, flipped, where=flipped > 0)
    return img


@dataclass(frozen=True)
class Pose:
    """Where a card lies on the table: centre (px), rotation (degrees), in table pixels."""

    x: float
    y: float
    angle: float

    def moved(self, dx: float, dy: float, da: float) -> Pose:
        return Pose(self.x + dx, self.y + dy, self.angle + da)


@dataclass(frozen=True)
class Play:
    """Ground truth: `card` came to rest at frame `rest`; frames `start`.. belong to it."""

    card: str
    start: int
    rest: int
    on: str | None = None  # the top card it was laid almost square on, if so


@dataclass
class Sequence_:
    frames: list[Image] = field(default_factory=list)
    plays: list[Play] = field(default_factory=list)
    disturbances: list[tuple[str, int]] = field(default_factory=list)  # (what, first frame)
    layers: list[tuple[str, Pose]] = field(default_factory=list)  # the pile, bottom first


@dataclass
class _Light:
    gain: float = 1.0
    tint: tuple[float, float, float] = (1.0, 1.0, 1.0)
    glare: tuple[float, float, float] | None = None  # x, y (fractions), strength


class Scene:
    """One table seen by one fixed camera; `teach_photos` and `sequence` draw on it."""

    def __init__(self, seed: int, size: tuple[int, int] = (640, 480), printing: int = 0) -> None:
        self.seed, self.size, self.printing = seed, size, printing
        w, h = size
        rng = np.random.default_rng([seed, 1])
        base = rng.integers(50, 120, 3).astype(np.float32)
        yy = np.arange(h, dtype=np.float32)[:, None]
        grain = 12 * np.sin(yy / h * rng.uniform(20, 40) + rng.uniform(0, 6)) + np.zeros((h, w))
        noise = cv2.GaussianBlur(rng.normal(0, 14, (h, w)).astype(np.float32), (0, 0), 3)
        self.table = np.clip(base[None, None, :] + (grain + noise)[:, :, None], 0, 255).astype(
            np.uint8)
        dx = rng.uniform(0.03, 0.08) * w
        src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
        dst = np.float32([[dx, rng.uniform(0, 0.04) * h], [w - dx, 0], [w, h], [0, h]])
        self.perspective = cv2.getPerspectiveTransform(src, dst)
        self.card_h = 0.42 * h
        self.spot = (w * rng.uniform(0.45, 0.55), h * rng.uniform(0.45, 0.55))
        self._faces: dict[str, Image] = {}
        # the sensor's noise: a few fields drawn once, one picked per frame
        self._noise = [rng.normal(0, 3.0, (h, w, 3)).astype(np.float32) for _ in range(4)]
        self._glares: dict[tuple[float, float, float], Image] = {}

    def _glare(self, glare: tuple[float, float, float]) -> Image:
        """A lamp's reflection: a bright soft spot at (x, y) fractions, of `strength`."""
        if glare not in self._glares:
            w, h = self.size
            gx, gy, strength = glare
            yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
            r2 = ((xx - gx * w) ** 2 + (yy - gy * h) ** 2) / (0.12 * w) ** 2
            self._glares[glare] = (strength * 255 * np.exp(-r2)).astype(np.float32)
        return self._glares[glare]

    # --- drawing ---

    def face(self, card: str) -> Image:
        if card not in self._faces:
            self._faces[card] = render_face(card, self.printing)
        return self._faces[card]

    def face_mask(self, card: str) -> Image:
        """Where the face of `card` is card and not table (255): its whole rectangle."""
        return np.full((FACE[1], FACE[0]), 255, np.uint8)

    def _lay(self, canvas: Image, card: str, pose: Pose, cover: Image | None = None) -> None:
        """Draw `card` at `pose` on `canvas` (table pixels), with a soft shadow; only the
        card's own box is computed, so a frame costs little however big it is. `cover`
        (one channel, if given) gets 255 where the card lies."""
        fw, fh = FACE
        scale = self.card_h / fh
        m = cv2.getRotationMatrix2D((fw / 2, fh / 2), pose.angle, scale)
        m[0, 2] += pose.x - fw / 2
        m[1, 2] += pose.y - fh / 2
        w, h = self.size
        corners = cv2.transform(np.float32([[[0, 0], [fw, 0], [fw, fh], [0, fh]]]), m)[0]
        x0, y0 = (max(0, int(v) - 8) for v in corners.min(axis=0))
        x1, y1 = (min(lim, int(v) + 8) for v, lim in zip(corners.max(axis=0), (w, h),
                                                          strict=True))
        if x1 <= x0 or y1 <= y0:
            return
        m[0, 2] -= x0
        m[1, 2] -= y0
        box = (x1 - x0, y1 - y0)
        face = self.face(card)
        warped = cv2.warpAffine(face, m, box, flags=cv2.INTER_AREA)
        mask = cv2.warpAffine(self.face_mask(card), m, box)
        roi = canvas[y0:y1, x0:x1]
        shadow = np.roll(np.roll(cv2.GaussianBlur(mask, (0, 0), 3), 3, 0), 2, 1)
        roi[:] = (roi * (1 - 0.35 / 255 * shadow[:, :, None].astype(np.float32))).astype(np.uint8)
        np.copyto(roi, warped, where=mask[:, :, None] > 127)
        if cover is not None:
            cover[y0:y1, x0:x1][mask > 127] = 255

    def _hand(self, canvas: Image, at: tuple[float, float], edge: tuple[float, float],
              skin: tuple[int, int, int]) -> None:
        h = self.size[1]
        sleeve = tuple(int(c) for c in np.random.default_rng(
            [self.seed, int(skin[0])]).integers(20, 200, 3))
        ax, ay = at
        ex, ey = edge
        hx, hy = ax + (ex - ax) * 0.15, ay + (ey - ay) * 0.15
        cv2.line(canvas, (int(ex), int(ey)), (int(hx), int(hy)), sleeve, int(0.2 * h))
        cv2.ellipse(canvas, (int(ax), int(ay)), (int(0.11 * h), int(0.08 * h)),
                    math.degrees(math.atan2(ey - ay, ex - ax)), 0, 360, skin, -1)
        for k in range(4):  # fingers
            ang = math.atan2(ay - ey, ax - ex) + (k - 1.5) * 0.25
            fx, fy = ax + math.cos(ang) * 0.15 * h, ay + math.sin(ang) * 0.15 * h
            cv2.line(canvas, (int(ax), int(ay)), (int(fx), int(fy)), skin, int(0.03 * h))

    def _camera(self, canvas: Image, light: _Light, rng: np.random.Generator, *,
                blur: float, quality: int) -> Image:
        w, h = self.size
        img = cv2.warpPerspective(canvas, self.perspective, (w, h),
                                  borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
        img *= light.gain * np.float32(light.tint)[None, None, :]
        if light.glare is not None:
            img += self._glare(light.glare)[:, :, None]
        if blur > 0:
            img = cv2.GaussianBlur(img, (0, 0), blur)
        img += self._noise[int(rng.integers(len(self._noise)))]
        out = np.clip(img, 0, 255).astype(np.uint8)
        ok, data = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, quality])
        assert ok
        return cv2.imdecode(data, cv2.IMREAD_COLOR)

    def _random_light(self, rng: np.random.Generator) -> _Light:
        glare = None
        if rng.random() < 0.5:
            glare = (rng.uniform(0.3, 0.7), rng.uniform(0.3, 0.7), rng.uniform(0.15, 0.45))
        return _Light(rng.uniform(0.7, 1.25), tuple(rng.uniform(0.88, 1.12, 3)), glare)

    def _laid_pose(self, rng: np.random.Generator) -> Pose:
        ox, oy = self.spot
        c = self.card_h
        angle = rng.normal(0, 12) + (180 if rng.random() < 0.2 else 0)
        return Pose(ox + rng.uniform(-0.15, 0.15) * c, oy + rng.uniform(-0.1, 0.1) * c, angle)

    # --- teaching photos ---

    def teach_photos(self, cards: Sequence[str], per_face: int,
                     seed: int) -> dict[str, list[Image]]:
        """`per_face` photos of each card alone on the pile spot, as the teach screen takes."""
        rng = np.random.default_rng([self.seed, seed, 3])
        photos: dict[str, list[Image]] = {}
        for card in cards:
            photos[card] = []
            for _ in range(per_face):
                canvas = self.table.copy()
                self._lay(canvas, card, self._laid_pose(rng))
                photos[card].append(self._camera(canvas, self._random_light(rng), rng,
                                                 blur=rng.uniform(0, 1.2),
                                                 quality=int(rng.integers(70, 95))))
        return photos

    # --- play sequences ---

    def sequence(self, cards: Sequence[str], seed: int, *, disturb: bool = True,
                 before: Sequence[str] = (), after: Sequence[str] = (),
                 hold: int = 0, square: float = 0.0,
                 glare: tuple[float, float, float] | None = None) -> Sequence_:
        """Frames at 10 fps of `cards` laid one by one on the pile, with the table's life
        in between when `disturb` (hands passing or resting, light, nudges), and the
        disturbances `before` ("pass", "rest", "light", "nudge") before each card, then
        those `after` in that order. The hand that lays a card stays still on it for
        `hold` frames before it leaves. A share `square` of the cards is laid almost
        square on the top card (within a nudge of it): rare when cards fall where they
        may, and then only the print changes. `glare` (x, y as fractions of the frame,
        strength) puts that lamp's reflection in every frame, whatever the light does."""
        rng = np.random.default_rng([self.seed, seed, 4])
        out = Sequence_()
        pile = self.table.copy()
        light = self._random_light(rng)
        blur = rng.uniform(0, 1.5)
        quality = int(rng.integers(60, 92))
        skin = SKIN[int(rng.integers(len(SKIN)))]
        top: tuple[str, Pose] | None = None
        w, h = self.size

        def shoot(canvas: Image) -> None:
            lamp = light if glare is None else _Light(light.gain, light.tint, glare)
            out.frames.append(self._camera(canvas, lamp, rng, blur=blur, quality=quality))

        def edge_point() -> tuple[float, float]:
            side = int(rng.integers(4))
            t = rng.uniform(0.2, 0.8)
            return [(t * w, -0.1 * h), (1.1 * w, t * h), (t * w, 1.1 * h), (-0.1 * w, t * h)][side]

        def still(n: int) -> None:
            for _ in range(n):
                shoot(pile)

        def hand_path(frm: tuple[float, float], to: tuple[float, float], n: int,
                      card: str | None = None, card_to: Pose | None = None) -> None:
            for i in range(1, n + 1):
                t = i / n
                at = (frm[0] + (to[0] - frm[0]) * t, frm[1] + (to[1] - frm[1]) * t)
                canvas = pile.copy()
                if card is not None and card_to is not None:
                    self._lay(canvas, card, Pose(at[0], at[1], card_to.angle * t))
                self._hand(canvas, at, edge, skin)
                shoot(canvas)

        def disturb_once(what: str) -> None:
            nonlocal light, pile, top, edge
            if what == "nudge" and top is None:
                return
            out.disturbances.append((what, len(out.frames)))
            edge = edge_point()
            target = (self.spot[0] + rng.uniform(-40, 40) * w / 640,
                      self.spot[1] + rng.uniform(-30, 30) * h / 480)
            if what == "pass":
                other = edge_point()
                hand_path(edge, target, int(rng.integers(3, 6)))
                hand_path(target, other, int(rng.integers(3, 6)))
            elif what == "rest":
                hand_path(edge, target, int(rng.integers(3, 6)))
                canvas = pile.copy()
                self._hand(canvas, target, edge, skin)
                for _ in range(int(rng.integers(5, 15))):
                    shoot(canvas)
                hand_path(target, edge, int(rng.integers(3, 6)))
            elif what == "light":
                light = self._random_light(rng)
            elif what == "nudge" and top is not None:
                hand_path(edge, (top[1].x, top[1].y), int(rng.integers(3, 6)))
                pose = self._nudged(top[1], rng)
                pile = self._rebuild(out, top[0], pose)
                top = (top[0], pose)
                hand_path((pose.x, pose.y), edge, int(rng.integers(3, 6)))
            still(int(rng.integers(3, 8)))

        edge = edge_point()
        still(int(rng.integers(4, 8)))
        for card in cards:
            if disturb:
                for _ in range(int(rng.integers(0, 3))):
                    disturb_once(("pass", "rest", "light", "nudge")[int(rng.integers(4))])
            for what in before:
                disturb_once(what)
            start = len(out.frames)
            edge = edge_point()
            pose = self._laid_pose(rng)
            on = None
            if square and top is not None and rng.random() < square:
                pose, on = self._nudged(top[1], rng), top[0]
            if rng.random() < 0.3:  # slid into place from a little way off
                off = pose.moved(rng.uniform(-0.5, 0.5) * self.card_h,
                                 rng.uniform(-0.5, 0.5) * self.card_h, 0)
                hand_path(edge, (off.x, off.y), int(rng.integers(3, 6)), card, off)
                for i in range(1, int(rng.integers(4, 8)) + 1):
                    t = i / 7
                    p = Pose(off.x + (pose.x - off.x) * min(1, t),
                             off.y + (pose.y - off.y) * min(1, t), pose.angle)
                    canvas = pile.copy()
                    self._lay(canvas, card, p)
                    self._hand(canvas, (p.x, p.y), edge, skin)
                    shoot(canvas)
                p_final = pose
            else:
                hand_path(edge, (pose.x, pose.y), int(rng.integers(3, 6)), card, pose)
                p_final = pose
            self._lay(pile, card, p_final)
            out.layers.append((card, p_final))
            top = (card, p_final)
            for _ in range(hold):
                canvas = pile.copy()
                self._hand(canvas, (p_final.x, p_final.y), edge, skin)
                shoot(canvas)
            back = int(rng.integers(3, 6))
            canvas_hand_from = (p_final.x, p_final.y)
            for i in range(1, back + 1):
                t = i / back
                at = (canvas_hand_from[0] + (edge[0] - canvas_hand_from[0]) * t,
                      canvas_hand_from[1] + (edge[1] - canvas_hand_from[1]) * t)
                canvas = pile.copy()
                self._hand(canvas, at, edge, skin)
                shoot(canvas)
            out.plays.append(Play(card, start, len(out.frames), on))
            still(int(rng.integers(8, 16)))
        for what in after:
            disturb_once(what)
        return out

    def _nudged(self, pose: Pose, rng: np.random.Generator) -> Pose:
        """`pose` moved by a nudge: a few pixels and degrees."""
        return pose.moved(rng.uniform(-0.04, 0.04) * self.card_h,
                          rng.uniform(-0.04, 0.04) * self.card_h, rng.uniform(-3, 3))

    def _rebuild(self, out: Sequence_, card: str, pose: Pose) -> Image:
        """The pile redrawn with its top card moved to `pose` (a nudge)."""
        out.layers[-1] = (card, pose)
        pile = self.table.copy()
        for c, p in out.layers:
            self._lay(pile, c, p)
        return pile
