"""A family's table, drawn here: the homes the camera meets (issue 37).

bench.camera_scenes draws one kind of table (a plain mat with a faint grain) seen nearly
straight down under one lamp. A *home* varies what a real kitchen table does:

- the table: a plain mat, a red gingham cloth, a paisley, a floral cloth, a blue check,
  walnut, oak;
- the camera: up to 30 degrees off vertical and rolled a few degrees, 640x480 to
  1920x1080, its JPEG quality (40-60 on a cheap webcam), its white balance (warm, cool);
- the deck's printing: a white margin, full-bleed faces (no margin), rounded corners,
  glossy (a highlight that wanders over the cards as the lamp and the people move);
- the table's life, between plays: hands passing or resting, a lamp switched, the top
  card nudged, a person leaning in for 3-4 s (their shadow, swaying, while the camera's
  auto-exposure follows), the auto-exposure stepping, the camera refocusing (a blur that
  swells and settles), a child's hand resting on the pile for 2-4 s;
- the plays: cards laid crooked (15 degrees or more), overhanging the pile by a third,
  two cards laid within a second, slid into place.

Every play is tagged with how it was laid and what happened just before it, so the bench
can say right/plays per condition. Deterministic in its seeds; `HOMES` lists the homes,
each development (tuning allowed) or held out (only `make bench` runs them, on seeds from
HELD_OUT_SEED, which nothing is tuned on).

>>> home = HOMES["gingham"]
>>> scene = HomeScene(home, seed=3, size=(320, 240))
>>> seq = scene.sequence(["7", "switch", "3"], seed=2)
>>> [p.card for p in seq.plays], seq.frames[0].shape
(['7', 'switch', '3'], (240, 320, 3))
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from bench.camera_scenes import FACE, SKIN, Image, Pose, Scene, render_face

DEV_SEED = 20_000  # development seeds: look at them, tune on them
HELD_OUT_SEED = 40_000  # the bench's: never tuned on, never seen by a test
BALANCES = {"neutral": (1.0, 1.0, 1.0), "warm": (0.74, 0.95, 1.18),  # B, G, R gains
            "cool": (1.2, 1.02, 0.8)}
CLOTHS = ("plain", "gingham", "paisley", "floral", "check", "walnut", "oak")
PRINTINGS = ("margin", "full-bleed", "rounded", "glossy")
CARD_SHARE = 0.36  # a card's height over the frame's, straight down
GLOSS = 130  # a glossy card's highlight at its brightest (of 255)
ROUNDED = 22  # corner radius of a rounded printing, face pixels (of FACE's 200 wide)
# what happens between plays, how often (weights), and how each is laid
DISTURBANCES = {"pass": 3, "rest": 2, "light": 1, "nudge": 2, "shadow": 2, "exposure": 2,
                "refocus": 2, "child": 2}
LAYS = {"laid": 4, "crooked": 2, "overhang": 2, "quick": 2}


@dataclass(frozen=True)
class Home:
    """One family's table and camera; `held_out`: only the bench measures it."""

    name: str
    cloth: str
    tilt: float = 0.0  # degrees off vertical
    roll: float = 0.0  # degrees about the camera's axis
    size: tuple[int, int] = (640, 480)
    printing: str = "margin"
    balance: str = "neutral"
    quality: tuple[int, int] = (60, 92)  # JPEG quality range of its frames
    held_out: bool = False


_HOMES = (
    # development homes: tune on these
    Home("plain", "plain"),
    Home("gingham", "gingham", tilt=12, roll=2, printing="full-bleed", balance="warm"),
    Home("walnut", "walnut", tilt=20, roll=-3, size=(1280, 720), quality=(40, 60)),
    # a busy irregular print to develop on (the floral and blue check are held out): a
    # paisley's teardrops, not flowers or stripes, in its own colours
    Home("paisley", "paisley", tilt=10, roll=-2),
    # held out: cloths, a lamp (cool), an angle (30 degrees, rolled), printings (rounded,
    # glossy) that nothing is tuned on
    Home("floral", "floral", tilt=15, roll=1, held_out=True),
    Home("blue check", "check", tilt=8, roll=-2, printing="rounded", balance="warm",
         size=(960, 540), held_out=True),
    Home("oak, 30 degrees", "oak", tilt=30, roll=4, printing="glossy", balance="cool",
         held_out=True),
    Home("oak, full HD", "oak", tilt=24, roll=-3, size=(1920, 1080), printing="full-bleed",
         balance="cool", quality=(40, 60), held_out=True),
    Home("gingham, glossy", "gingham", tilt=5, roll=3, printing="glossy", balance="cool",
         quality=(40, 60), held_out=True),
)
HOMES = {home.name: home for home in _HOMES}


@dataclass(frozen=True)
class HomePlay:
    """Ground truth, as bench.camera_scenes.Play, with how the card was laid (LAYS, or
    "quick second") and what happened just before it (a DISTURBANCES name, or "")."""

    card: str
    start: int
    rest: int
    lay: str = "laid"
    after: str = ""
    on: str | None = None


@dataclass
class HomeSequence:
    frames: list[Image] = field(default_factory=list)
    plays: list[HomePlay] = field(default_factory=list)
    disturbances: list[tuple[str, int]] = field(default_factory=list)


# --- the table ---

def cloth(kind: str, w: int, h: int, rng: np.random.Generator) -> Image:
    """The table's top, `w` x `h` table pixels, BGR."""
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    noise = cv2.GaussianBlur(rng.normal(0, 1, (h, w)).astype(np.float32), (0, 0), 1.5)
    if kind == "plain":
        base = rng.integers(40, 110, 3).astype(np.float32)
        img = base[None, None, :] + 6 * noise[:, :, None]
    elif kind == "gingham":
        period = w / rng.uniform(16, 24)
        ink = np.float32(rng.choice([(40, 40, 190), (60, 140, 40), (150, 70, 30)]))
        across = ((xx // (period / 2)) % 2).astype(np.float32)
        down = ((yy // (period / 2)) % 2).astype(np.float32)
        share = (across + down) / 2  # 0 white, 0.5 a stripe, 1 where two cross
        white = np.float32([235, 235, 235])
        img = white + share[:, :, None] * (ink - white) + 5 * noise[:, :, None]
    elif kind == "check":
        period = w / rng.uniform(8, 12)
        base = np.float32([150, 80, 30])
        img = np.broadcast_to(base, (h, w, 3)).copy()
        for offset, width, colour in ((0.0, 0.18, (90, 40, 15)), (0.5, 0.05, (230, 230, 230)),
                                      (0.25, 0.03, (60, 170, 220))):
            for coord in (xx, yy):
                band = (((coord / period + offset) % 1.0) < width)[:, :, None]
                img = np.where(band, 0.5 * img + 0.5 * np.float32(colour), img)
        img += 5 * noise[:, :, None]
    elif kind == "floral":
        img = np.broadcast_to(np.float32([200, 225, 240]), (h, w, 3)).copy()
        canvas = img.astype(np.uint8)
        for _ in range(int(w * h / 900)):
            x, y = int(rng.uniform(0, w)), int(rng.uniform(0, h))
            r = int(rng.uniform(0.012, 0.03) * w)
            petal = tuple(int(c) for c in rng.choice([(60, 60, 200), (150, 90, 220),
                                                     (40, 170, 230), (180, 120, 90)]))
            leaf_at = (x + int(rng.uniform(-2, 2) * r), y + int(rng.uniform(-2, 2) * r))
            cv2.ellipse(canvas, leaf_at, (r, max(1, r // 2)), float(rng.uniform(0, 180)),
                        0, 360, (60, 130, 50), -1, cv2.LINE_AA)
            for k in range(5):
                a = k * 2 * math.pi / 5 + float(rng.uniform(0, 1))
                cv2.circle(canvas, (int(x + r * math.cos(a)), int(y + r * math.sin(a))),
                           max(1, int(0.6 * r)), petal, -1, cv2.LINE_AA)
            cv2.circle(canvas, (x, y), max(1, int(0.4 * r)), (40, 200, 240), -1, cv2.LINE_AA)
        img = canvas.astype(np.float32) + 4 * noise[:, :, None]
    elif kind == "paisley":
        img = _paisley(w, h, rng) + 4 * noise[:, :, None]
    elif kind in ("walnut", "oak"):
        base = np.float32([35, 55, 85] if kind == "walnut" else [95, 150, 195])
        plank = h / rng.uniform(2.5, 4.0)
        row = yy // plank
        wobble = cv2.GaussianBlur(rng.normal(0, 1, (h, w)).astype(np.float32), (0, 0),
                                  0.05 * w) * 0.05 * w * 20
        rings = np.sin((yy + wobble + row * 37.0) * rng.uniform(0.25, 0.45)
                       + np.sin(xx / w * rng.uniform(2, 5) + row) * 3)
        streak = cv2.GaussianBlur(rng.normal(0, 1, (h, w)).astype(np.float32), (0, 0),
                                  sigmaX=0.08 * w, sigmaY=1.0) * 40
        shade = 1 + 0.12 * rings + streak * 0.5 * 0.01 + 0.04 * noise
        img = base[None, None, :] * shade[:, :, None]
        seams = (np.abs(yy - (row + 1) * plank) < 1.5) | (np.abs(yy - row * plank) < 1.5)
        img = np.where(seams[:, :, None], img * 0.45, img)
    else:
        raise ValueError(f"no cloth {kind!r}: one of {', '.join(CLOTHS)}")
    return np.clip(img, 0, 255).astype(np.uint8)


def _paisley(w: int, h: int, rng: np.random.Generator) -> Any:
    """A paisley: teardrops (a circle drawn into a curled tail), each ringed and dotted
    in another colour, on a deep ground, densely and at every turn (float BGR)."""
    ground = rng.choice([(40, 30, 110), (70, 50, 20), (30, 70, 40)])  # wine, navy, green
    canvas = np.empty((h, w, 3), np.uint8)
    canvas[:] = ground
    inks = [(170, 200, 230), (60, 160, 210), (150, 110, 60), (90, 60, 170), (200, 180, 120)]
    for _ in range(int(w * h / 1100)):
        x, y = float(rng.uniform(0, w)), float(rng.uniform(0, h))
        r = float(rng.uniform(0.012, 0.032) * w)
        turn = float(rng.uniform(0, 2 * math.pi))
        curl = float(rng.choice([-1, 1]))
        body, ring, dot = (tuple(int(c) for c in inks[int(i)])
                           for i in rng.choice(len(inks), 3, replace=False))
        tail = [(x + r * 2.2 * t * math.cos(turn + curl * 1.6 * t),
                 y + r * 2.2 * t * math.sin(turn + curl * 1.6 * t)) for t in np.linspace(0, 1, 8)]
        outline = np.array([(int(x + r * math.cos(a)), int(y + r * math.sin(a)))
                            for a in np.linspace(turn + 0.5, turn + 2 * math.pi - 0.5, 14)]
                           + [(int(px), int(py)) for px, py in tail[::-1]], np.int32)
        cv2.fillPoly(canvas, [outline], body, cv2.LINE_AA)
        cv2.polylines(canvas, [outline], True, ring, max(1, int(0.15 * r)), cv2.LINE_AA)
        cv2.circle(canvas, (int(x), int(y)), max(1, int(0.35 * r)), dot, -1, cv2.LINE_AA)
    return canvas.astype(np.float32)


def _window(shape: Image, x: float, y: float, w: int, h: int) -> Image:
    """The `w` x `h` frame's part of `shape` (twice its size, its centre the thing's)
    with the thing's centre at (x, y) of the frame."""
    x0, y0 = int(np.clip(round(w - x), 0, w)), int(np.clip(round(h - y), 0, h))
    return shape[y0:y0 + h, x0:x0 + w]


def tilted(w: int, h: int, tilt: float, roll: float) -> Any:
    """The homography from the table's pixels to a camera `tilt` degrees off vertical and
    rolled `roll` degrees (a pinhole of focal length w looking at the table's centre),
    zoomed so the frame shows table everywhere."""
    t, r = math.radians(tilt), math.radians(roll)
    f = float(w)

    def project(points: Any) -> Any:
        x, y = points[:, 0] - w / 2, points[:, 1] - h / 2
        depth = f + y * math.sin(t)
        px, py = f * x / depth, f * y * math.cos(t) / depth
        return np.stack([px * math.cos(r) - py * math.sin(r) + w / 2,
                         px * math.sin(r) + py * math.cos(r) + h / 2], axis=1)

    corners = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    hom = cv2.getPerspectiveTransform(corners, project(corners).astype(np.float32))
    for _ in range(4):  # zoom about the centre until every frame corner sees table
        back = cv2.perspectiveTransform(corners[None], np.linalg.inv(hom))[0]
        z = max(1.0, float(np.max(np.abs(back[:, 0] - w / 2) / (w / 2))),
                float(np.max(np.abs(back[:, 1] - h / 2) / (h / 2))))
        if z <= 1.0001:
            break
        zoom = np.array([[z, 0, (1 - z) * w / 2], [0, z, (1 - z) * h / 2], [0, 0, 1]])
        hom = zoom @ hom
    return hom


# --- the deck's printing ---

def printed(card: str, printing: str, seed: int) -> tuple[Image, Image]:
    """The face of `card` in this printing, and where it is card (255)."""
    face = render_face(card, seed)
    w, h = FACE
    mask = np.full((h, w), 255, np.uint8)
    if printing == "full-bleed":  # the family's colour to the very edge
        edge = 10
        face = cv2.copyMakeBorder(face[edge:-edge, edge:-edge], edge, edge, edge, edge,
                                  cv2.BORDER_REPLICATE)
    elif printing == "rounded":
        mask[:] = 0
        r = ROUNDED
        cv2.rectangle(mask, (r, 0), (w - 1 - r, h - 1), 255, -1)
        cv2.rectangle(mask, (0, r), (w - 1, h - 1 - r), 255, -1)
        for cx, cy in ((r, r), (w - 1 - r, r), (r, h - 1 - r), (w - 1 - r, h - 1 - r)):
            cv2.circle(mask, (cx, cy), r, 255, -1, cv2.LINE_AA)
    elif printing not in PRINTINGS:
        raise ValueError(f"no printing {printing!r}: one of {', '.join(PRINTINGS)}")
    return face, mask


@dataclass
class _Camera:
    """What the camera does on its own, frame by frame: auto-exposure that follows the
    picture's brightness (a shadow or an arm brightens everything else a few frames
    later), a focus that can swell and settle, the lamp."""

    gain: float  # the lamp's brightness
    tint: tuple[float, float, float]
    blur: float
    exposure: float = 1.0
    target: float | None = None  # the brightness auto-exposure keeps
    refocus: list[float] = field(default_factory=list)  # extra blur, frame by frame


class HomeScene(Scene):
    """One home's table seen by its camera; `teach_photos` and `sequence` as Scene's."""

    def __init__(self, home: Home, seed: int, size: tuple[int, int] | None = None) -> None:
        super().__init__(seed=seed, size=size or home.size, printing=seed)
        self.home = home
        w, h = self.size
        self._salt = zlib.crc32(home.name.encode())  # two homes, one seed: two tables
        rng = np.random.default_rng([seed, self._salt, 37])
        self.table = cloth(home.cloth, w, h, rng)
        self.perspective = tilted(w, h, home.tilt, home.roll)
        self.card_h = CARD_SHARE * h
        self.spot = (w * rng.uniform(0.42, 0.58), h * rng.uniform(0.42, 0.58))
        self._masks: dict[str, Image] = {}
        self._base: tuple[tuple[int, float], Image] | None = None  # the still pile, drawn
        self._shadow = self._shadow_shape(rng)
        yy, xx = np.mgrid[0:2 * h, 0:2 * w].astype(np.float32)
        self._highlight = np.exp(-((xx - w) ** 2 + (yy - h) ** 2) / (0.1 * w) ** 2)
        self._gloss_phase = float(rng.uniform(0, 2 * math.pi))
        # the sensor's noise as two saturating steps, up and down (quick at 1920x1080)
        self._noise_u8 = [(np.clip(n, 0, 255).astype(np.uint8), np.clip(-n, 0, 255).astype(
            np.uint8)) for n in self._noise]

    # --- drawing ---

    def face(self, card: str) -> Image:
        if card not in self._faces:
            self._faces[card], self._masks[card] = printed(card, self.home.printing,
                                                           self.printing)
        return self._faces[card]

    def face_mask(self, card: str) -> Image:
        self.face(card)
        return self._masks[card]

    def _arm(self, canvas: Image, cover: Image, at: tuple[float, float],
             edge: tuple[float, float], skin: tuple[int, int, int],
             sleeve: tuple[int, int, int], scale: float = 1.0) -> None:
        """A hand at `at` on an arm from `edge` (a child's: `scale` under 1); `cover`
        loses the card where the arm lies over it (no gloss on skin)."""
        h = self.size[1] * scale
        ax, ay = at
        ex, ey = edge
        hx, hy = ax + (ex - ax) * 0.15, ay + (ey - ay) * 0.15
        angle = math.degrees(math.atan2(ey - ay, ex - ax))
        for target, arm, hand in ((canvas, sleeve, skin), (cover, 0, 0)):
            cv2.line(target, (int(ex), int(ey)), (int(hx), int(hy)), arm, max(2, int(0.2 * h)))
            cv2.ellipse(target, (int(ax), int(ay)), (int(0.11 * h), int(0.08 * h)), angle,
                        0, 360, hand, -1)
            for k in range(4):
                a = math.atan2(ay - ey, ax - ex) + (k - 1.5) * 0.25
                fx, fy = ax + math.cos(a) * 0.15 * h, ay + math.sin(a) * 0.15 * h
                cv2.line(target, (int(ax), int(ay)), (int(fx), int(fy)), hand,
                         max(1, int(0.03 * h)))

    def _shadow_shape(self, rng: np.random.Generator) -> Image:
        """A leaning person's head and shoulders, as a soft shadow twice the frame's size
        (0..1), shifted into place frame by frame."""
        w, h = self.size
        shape = np.zeros((2 * h, 2 * w), np.float32)
        cv2.ellipse(shape, (w, h), (int(0.45 * w), int(0.35 * h)), float(rng.uniform(-20, 20)),
                    0, 360, 1.0, -1)
        cv2.circle(shape, (w, int(h * 0.7)), int(0.22 * h), 1.0, -1)
        return cv2.GaussianBlur(shape, (0, 0), 0.07 * w)

    def _shoot(self, canvas: Image, cover: Image, camera: _Camera, rng: np.random.Generator,
               quality: int, *, shadow: tuple[float, float, float] | None = None,
               frame: int = 0, key: int | None = None) -> Image:
        """The camera's picture of `canvas` (table pixels; `cover`: where cards lie, for
        the gloss): perspective and focus, a person's shadow (centre x, y in the frame,
        darkness), the lamp and white balance, auto-exposure, a glossy card's highlight,
        noise, JPEG. `key`: the same number for the same canvas (the still pile), whose
        perspective and focus are then drawn once."""
        w, h = self.size
        refocus = camera.refocus.pop(0) if camera.refocus else 0.0
        cached = self._base
        if key is None or cached is None or cached[0] != (key, camera.blur):
            warped = cv2.warpPerspective(canvas, self.perspective, (w, h),
                                         borderMode=cv2.BORDER_REFLECT)
            if camera.blur > 0.05:
                warped = cv2.GaussianBlur(warped, (0, 0), camera.blur)
            cached = ((-1 if key is None else key, camera.blur), warped)
            if key is not None:
                self._base = cached
        base = cached[1]
        if refocus:
            base = cv2.GaussianBlur(base, (0, 0), refocus)
        img = base
        if shadow is not None:
            sx, sy, dark = shadow
            shade = 1 - dark * _window(self._shadow, sx, sy, w, h)
            img = (img * shade[:, :, None]).astype(np.uint8)
        brightness = float(img[::8, ::8].mean()) + 1.0
        if camera.target is None:
            camera.target = brightness
        # auto-exposure: a third of the way to the target each frame, within its range
        want = camera.target / brightness
        camera.exposure = float(np.clip(camera.exposure + (want - camera.exposure) / 3,
                                        0.5, 2.0))
        gains = np.float64(BALANCES[self.home.balance]) * np.float64(camera.tint) \
            * camera.gain * camera.exposure
        img = cv2.multiply(img, (*(float(g) for g in gains), 0.0))  # saturates, as a sensor
        if self.home.printing == "glossy":
            img = cv2.add(img, cv2.cvtColor(self._gloss(cover, frame), cv2.COLOR_GRAY2BGR))
        up, down = self._noise_u8[int(rng.integers(len(self._noise_u8)))]
        out = cv2.subtract(cv2.add(img, up), down)
        ok, data = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, quality])
        assert ok
        return cv2.imdecode(data, cv2.IMREAD_COLOR)

    def _gloss(self, cover: Image, frame: int) -> Image:
        """A glossy card's highlight: a bright soft spot over the pile that wanders slowly
        (the lamp and the people move), only where a card lies."""
        w, h = self.size
        t = frame / 10.0
        gx = self.spot[0] + 0.25 * self.card_h * math.sin(0.6 * t + self._gloss_phase)
        gy = self.spot[1] + 0.2 * self.card_h * math.cos(0.45 * t)
        on_card = cv2.warpPerspective(cover, self.perspective, (w, h)).astype(np.float32)
        return (_window(self._highlight, gx, gy, w, h) * on_card * (GLOSS / 255)).astype(
            np.uint8)

    def _camera_now(self, rng: np.random.Generator) -> _Camera:
        return _Camera(float(rng.uniform(0.8, 1.15)), tuple(rng.uniform(0.93, 1.07, 3)),
                       float(rng.uniform(0, 1.2)))

    def _pose(self, rng: np.random.Generator, lay: str, top: Pose | None) -> Pose:
        """Where a card is laid: near the spot, crooked by 15-40 degrees, or overhanging
        the top card by a third of its length."""
        pose = self._laid_pose(rng)
        if lay == "crooked":
            turn = rng.uniform(15, 40) * rng.choice([-1, 1])
            pose = Pose(pose.x, pose.y, float(turn + (180 if rng.random() < 0.2 else 0)))
        elif lay == "overhang":
            under = top or Pose(self.spot[0], self.spot[1], 0.0)
            a = rng.uniform(0, 2 * math.pi)
            pose = Pose(under.x + math.cos(a) * self.card_h / 3,
                        under.y + math.sin(a) * self.card_h / 3, pose.angle)
        return pose

    # --- teaching photos ---

    def teach_photos(self, cards: Sequence[str], per_face: int,
                     seed: int) -> dict[str, list[Image]]:
        """`per_face` photos of each card alone on the pile spot, as the teach screen takes
        them from this home's camera."""
        rng = np.random.default_rng([self.seed, self._salt, seed, 3])
        photos: dict[str, list[Image]] = {}
        for card in cards:
            photos[card] = []
            for _ in range(per_face):
                canvas = self.table.copy()
                cover = np.zeros(canvas.shape[:2], np.uint8)
                self._lay(canvas, card, self._laid_pose(rng), cover)
                photos[card].append(self._shoot(canvas, cover, self._camera_now(rng), rng,
                                                int(rng.integers(*self.home.quality)),
                                                frame=int(rng.integers(0, 600))))
        return photos

    # --- play sequences ---

    def sequence(self, cards: Sequence[str], seed: int, *,  # type: ignore[override]
                 disturb: bool = True, before: Sequence[str] = (),
                 lays: Sequence[str] = (), calm: int | None = None) -> HomeSequence:
        """Frames at 10 fps of `cards` laid one by one; with `disturb`, 0-2 disturbances
        (DISTURBANCES) before each card and each laid as LAYS weighs; `before`: these
        disturbances before every card as well; `lays`: how each card is laid (else
        drawn). A "quick" card is followed by the next within a second. `calm`: still
        frames after each disturbance (else 3-7): 0 brings the next hand as it ends, the
        exposure still settling and the focus still hunting."""
        rng = np.random.default_rng([self.seed, self._salt, seed, 41])
        out = HomeSequence()
        w, h = self.size
        pile = self.table.copy()
        cover = np.zeros(pile.shape[:2], np.uint8)
        camera = self._camera_now(rng)
        quality = int(rng.integers(*self.home.quality))
        skin = SKIN[int(rng.integers(len(SKIN)))]
        sleeve = tuple(int(c) for c in rng.integers(20, 200, 3))
        top: tuple[str, Pose] | None = None
        layers: list[tuple[str, Pose]] = []
        shadow: tuple[float, float, float] | None = None
        version = 0  # of the pile: its picture is drawn once per version

        def shoot(canvas: Image, where: Image, key: int | None = None) -> None:
            out.frames.append(self._shoot(canvas, where, camera, rng, quality, shadow=shadow,
                                          frame=len(out.frames), key=key))

        def still(n: int) -> None:
            for _ in range(n):
                shoot(pile, cover, version)

        def edge_point() -> tuple[float, float]:
            side = int(rng.integers(4))
            t = rng.uniform(0.2, 0.8)
            return [(t * w, -0.1 * h), (1.1 * w, t * h), (t * w, 1.1 * h),
                    (-0.1 * w, t * h)][side]

        def with_arm(at: tuple[float, float], edge: tuple[float, float], scale: float = 1.0,
                     card: tuple[str, Pose] | None = None) -> None:
            canvas, where = pile.copy(), cover.copy()
            if card is not None:
                self._lay(canvas, card[0], card[1], where)
            self._arm(canvas, where, at, edge, skin, sleeve, scale)
            shoot(canvas, where)

        def arm_path(frm: tuple[float, float], to: tuple[float, float], n: int,
                     edge: tuple[float, float], card: tuple[str, Pose] | None = None,
                     scale: float = 1.0) -> None:
            for i in range(1, n + 1):
                t = i / n
                at = (frm[0] + (to[0] - frm[0]) * t, frm[1] + (to[1] - frm[1]) * t)
                carried = None if card is None else (
                    card[0], Pose(at[0], at[1], card[1].angle * t))
                with_arm(at, edge, scale, carried)

        def near_pile() -> tuple[float, float]:
            return (self.spot[0] + rng.uniform(-40, 40) * w / 640,
                    self.spot[1] + rng.uniform(-30, 30) * h / 480)

        def rebuild() -> None:
            nonlocal pile, cover, version
            version += 1
            pile, cover = self.table.copy(), np.zeros(pile.shape[:2], np.uint8)
            for c, p in layers:
                self._lay(pile, c, p, cover)

        def disturb_once(what: str) -> None:
            nonlocal top, shadow
            if what == "nudge" and top is None:
                return
            out.disturbances.append((what, len(out.frames)))
            edge = edge_point()
            if what == "pass":
                target = near_pile()
                arm_path(edge, target, int(rng.integers(3, 6)), edge)
                arm_path(target, edge_point(), int(rng.integers(3, 6)), edge)
            elif what == "rest":
                target = near_pile()
                arm_path(edge, target, int(rng.integers(3, 6)), edge)
                for _ in range(int(rng.integers(5, 15))):
                    with_arm(target, edge)
                arm_path(target, edge, int(rng.integers(3, 6)), edge)
            elif what == "child":  # a small hand on the pile for 2-4 s, fidgeting
                target = near_pile()
                arm_path(edge, target, int(rng.integers(3, 6)), edge, scale=0.6)
                x, y = target
                for i in range(int(rng.integers(20, 40))):
                    if i % 4 == 0:
                        x, y = x + rng.uniform(-2, 2), y + rng.uniform(-2, 2)
                    with_arm((x, y), edge, 0.6)
                arm_path((x, y), edge, int(rng.integers(3, 6)), edge, scale=0.6)
            elif what == "light":
                camera.gain = float(rng.uniform(0.7, 1.25))
                camera.tint = tuple(rng.uniform(0.9, 1.1, 3))
            elif what == "exposure":  # auto-exposure steps, then settles back
                camera.exposure *= float(rng.choice([0.7, 1.4]))
            elif what == "refocus":  # the focus hunts: a blur that swells and settles
                camera.refocus = [1.0, 2.5, 3.5, 3.0, 2.0, 1.0, 0.4]
                camera.blur = float(np.clip(camera.blur + rng.uniform(-0.4, 0.4), 0, 1.5))
            elif what == "shadow":  # a person leans in for 3-4 s, swaying
                side = edge_point()
                inward = (self.spot[0] + (side[0] - self.spot[0]) * 0.55,
                          self.spot[1] + (side[1] - self.spot[1]) * 0.55)
                dark = float(rng.uniform(0.35, 0.6))
                frames = int(rng.integers(30, 41))
                phase = float(rng.uniform(0, 6))
                for i in range(6):
                    t = (i + 1) / 6
                    shadow = (side[0] + (inward[0] - side[0]) * t,
                              side[1] + (inward[1] - side[1]) * t, dark)
                    still(1)
                for i in range(frames):
                    sway = 3 * math.sin(i / 4 + phase) * w / 640
                    shadow = (inward[0] + sway, inward[1] + sway / 2, dark)
                    still(1)
                for i in range(6):
                    t = (i + 1) / 6
                    shadow = (inward[0] + (side[0] - inward[0]) * t,
                              inward[1] + (side[1] - inward[1]) * t, dark)
                    still(1)
                shadow = None
            elif what == "nudge" and top is not None:
                arm_path(edge, (top[1].x, top[1].y), int(rng.integers(3, 6)), edge)
                pose = self._nudged(top[1], rng)
                layers[-1] = (top[0], pose)
                top = (top[0], pose)
                rebuild()
                arm_path((pose.x, pose.y), edge, int(rng.integers(3, 6)), edge)
            still(int(rng.integers(3, 8)) if calm is None else calm)

        still(int(rng.integers(4, 8)))
        names, weights = list(DISTURBANCES), np.array(list(DISTURBANCES.values()), float)
        lay_names, lay_weights = list(LAYS), np.array(list(LAYS.values()), float)
        quick_next = False
        for n, card in enumerate(cards):
            after = ""
            if not quick_next:
                if disturb:
                    for _ in range(int(rng.integers(0, 3))):
                        after = names[int(rng.choice(len(names), p=weights / weights.sum()))]
                        disturb_once(after)
                for what in before:
                    disturb_once(what)
                    after = what
            if lays:
                lay = lays[n]
            elif quick_next:
                lay = "quick second"
            elif disturb:
                lay = lay_names[int(rng.choice(len(lay_names), p=lay_weights / lay_weights.sum()))]
            else:
                lay = "laid"
            if lay == "quick" and n == len(cards) - 1:
                lay = "laid"
            start = len(out.frames)
            edge = edge_point()
            pose = self._pose(rng, lay, None if top is None else top[1])
            if rng.random() < 0.3 and lay != "quick second":  # slid into place
                off = pose.moved(rng.uniform(-0.5, 0.5) * self.card_h,
                                 rng.uniform(-0.5, 0.5) * self.card_h, 0)
                arm_path(edge, (off.x, off.y), int(rng.integers(3, 6)), edge, (card, off))
                steps = int(rng.integers(4, 8))
                for i in range(1, steps + 1):
                    t = min(1.0, i / 7)
                    p = Pose(off.x + (pose.x - off.x) * t, off.y + (pose.y - off.y) * t,
                             pose.angle)
                    with_arm((p.x, p.y), edge, card=(card, p))
            else:
                arm_path(edge, (pose.x, pose.y), int(rng.integers(3, 6)), edge, (card, pose))
            self._lay(pile, card, pose, cover)
            version += 1
            layers.append((card, pose))
            on = None if top is None else top[0]
            top = (card, pose)
            arm_path((pose.x, pose.y), edge, int(rng.integers(3, 6)), edge)
            out.plays.append(HomePlay(card, start, len(out.frames), lay, after, on))
            quick_next = lay == "quick"
            still(int(rng.integers(0, 3)) if quick_next else int(rng.integers(8, 16)))
        return out


def plays_for(home: Home, k: int, n: int, seed: int) -> tuple[str, list[str]]:
    """Sequence `k` of `seed` in `home`: its game and the `n` cards laid."""
    from camera.cards import card_names, games

    game = games()[k % len(games())]  # the camera's games in turn
    cards = list(card_names(game))
    rng = np.random.default_rng([seed, k, 37])
    return game, [cards[int(i)] for i in rng.integers(len(cards), size=n)]
