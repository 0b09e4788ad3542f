"""When a card has been played: a new face at rest on top of the pile (needs the extra).

Every frame costs one small grey copy (MOTION_SIZE) and two differences, a still one
also a small colour copy and a look at its border band: that is all the camera spends
while nothing happens. Recognition runs only when the picture has been still for
STILL_FRAMES frames *and* differs from the last picture it judged (or, when motion comes
back after GLIMPSE still frames, on that last still one: the first of two quick cards;
or, when a hand comes over the card, on the last frame in which only hands touching the
frame's edge moved beside it, lying still: the next hand came in as the last one left):

- anything moving (a hand, an arm, a card being slid) resets the stillness, and so
  does a picture the focus blurred (FOCUS_SHARE); a still picture is one to compare
  with only when nothing moved anywhere in the view (a hand coming in beside the pile);
  a still frame no small pixel of which differs from the one last looked at is not
  looked at again;
- an arm resting over the pile (a still change that crosses the frame's border band)
  waits; after LONG_STILL frames in which nothing moved at all (FIDGET: a child's hand
  fidgets) it is judged, and that picture becomes a
  second normal (something may lie there for good). The change is taken against the
  last still picture with no arm in it (or that second normal), never against the last
  judged one: that one may hold an arm (judged after a long wait, or under a hand before
  any card lay there), and then the arm's leaving passed for an arm, so every later play
  waited LONG_STILL frames and the quick ones were missed. The arm is seen in colour,
  the lamp taken out (`_Still.sleeve_width`). It is also taken against the settled
  picture, which follows only pictures that nothing crosses into the pile at all
  (SETTLED_WIDTH): a child's thin arm, a shadow half there or the exposure settling can
  become the clear picture, and their leaving then passed for an arm for good;
- the light is divided out (each small pixel over its surroundings), so a change of
  light alone is no change;
- the card judged last, still on top (camera.top: its own picture, light taken out,
  found again after at most a nudge, its print unchanged), is the same card again:
  nothing; unless its old edge still shows where it no longer lies (camera.outline):
  then a card, maybe of the same face, was laid on it a few pixels off;
- a change too small to judge still gets a look at the start of a rest, when the top
  card is not surely as it was: a face of its family laid square on it changes under
  1 % of the spot (its print only), and waited for the next change (20 frames late);
- the recogniser is told where the pile changed since the last judged picture
  (camera.change): a new card a glare or blur hides from its features is still found.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from camera.change import laid_card
from camera.faces import Recogniser
from camera.image_limits import WATCH_WIDTH
from camera.light import light_free
from camera.locate import Quad
from camera.model import Model
from camera.outline import LAID, laid_on
from camera.top import Top

MOTION_SIZE = (80, 60)
MOTION_LEVEL = 0.10  # a small pixel changed by this share of the mean brightness moved
MOTION_SHARE = 0.004  # this share of the small picture changed: something moves
CHANGE_SHARE = 0.01  # of the pile spot changed since the last judged picture: look again
STILL_FRAMES = 2
GLIMPSE = STILL_FRAMES - 1  # still frames then motion: judged as it goes (`Watcher.feed`)
AROUND = 4  # small pixels around the pile spot where rest is judged
LONG_STILL = 20
# An arm resting over the pile is judged after LONG_STILL frames in which nothing moved
# at all around the pile: fewer than FIDGET small pixels. A child's hand resting on the
# pile fidgets (3-17 small pixels every few frames, under MOTION_SHARE's 19), a still
# table moves 0-1: judged after LONG_STILL frames only still enough for rest, the
# card under the child's hand was read through it (dev walnut 20_000 sequence 1: 4
# phantoms, a 10 and a 5 among them)
FIDGET = 3
EDGE_BAND = 3  # small pixels along the border where an arm shows
# a sleeve crosses the border band where SLEEVE_WIDTH places along a side changed colour
# by more than SLEEVE_LEVEL (of 255) through the band's whole depth, the lamp taken out:
# still pictures with no arm score at most 4 on dev seeds, a sleeve near the table's colour
# 8-12 (an arm is about 12 small pixels wide)
SLEEVE_LEVEL = 5.0
SLEEVE_WIDTH = 6
# The settled picture, also compared with, follows only pictures that nothing crosses
# into the pile at even this many places: a child's thin arm resting on the pile crossed
# at 5 (no arm: the top card is followed under it), a person's shadow coming in or
# leaving, the exposure still settling, at 4-5; each became the clear picture, and its
# leaving passed for an arm: the watcher stayed blind (issue 37). Still pictures of a
# dev gingham table with no arm cross at 0-2
SETTLED_WIDTH = 3
# The sleeve is measured twice, on the small colour picture and on it blurred over this
# many small pixels, and an arm must cross in both (the narrower counts). A patterned
# cloth's checks (about 3 small pixels on dev gingham) differ at every check between a
# picture taken while the focus hunts and the sharp one after it: 23 places sharp, 1
# blurred (it passed for an arm, and a card laid as the focus came back waited LONG_STILL:
# dev gingham seed 20_100, 29 frames late). A card overhanging the frame's edge, the
# checks breaking its change into pieces when sharp, joins them blurred: 3 places sharp,
# 15 blurred (blurred alone, it passed for an arm: 7 plays missed after it). An arm
# crosses in both (9 and 11). 1.0 is the least blur that took the refocus out
SLEEVE_BLUR = 1.0
LIGHT_SIGMA = 6.0  # small pixels over which the light is taken as even
# The recogniser's corners for the top card found again, from whichever taught photo fits
# best, lie within this share of its long edge (and this turn) of where it was followed:
# farther, the same face was laid elsewhere on it (dev seeds: 0.003 for the same card;
# 0.18-0.19 for a card laid 40 px off one of its face, missed when taken as that card)
WANDER_SHIFT = 0.12
WANDER_TURN = 10.0
# OpenCV's own threads: one. Its parallel loops split small pictures over both cores of
# this host and spent a quarter more CPU in all (camera watch on a busy table: 20.9 s
# against 16.5 s on one thread); a Pi's four cores belong to the app beside the camera
OPENCV_THREADS = 1
# a card lying still between moving hands (`_hands_only`) changed at least this share of
# its long edge, squared, of the small picture (a third of a card; noise on a still dev
# plain cloth makes regions of up to 28 small pixels, a card's long edge is about 22)
HANDS_CARD = 0.5
BESIDE_MARGIN = 0.1  # a card laid beside the top card is read this far around it
# A picture the focus blurred is not read: in most blocks of the table around the pile
# (which a card laid does not change) it holds under FOCUS_SHARE of the detail of the
# last sharp still picture. The focus hunting (dev paisley 20_000) leaves 0.34-0.86 of
# it, a still table or a new card 0.99-1.01; a 9 read in the last blurred frame of a
# refocus was logged as an 8. Most blocks: a hand or an arm there (the next card
# coming) takes the cloth's detail away where it lies (the whole table's detail: quick
# cards on dev walnut logged 12-14 frames late). The picture is taken as moving, for at
# most FOCUS_WAIT frames (a refocus lasts 7): a focus that settles softer is the sharp
# one from then on
FOCUS_SHARE = 0.9
FOCUS_WAIT = 10
# added to each block's detail before the shares are taken: a plain mat's detail is its
# sensor noise (0.03-0.05, drawn anew each frame: 0.82-1.08 of the last), which no blur
# takes away (a plain mat's plays were logged 2-3 frames late as if blurred); a busy
# cloth's is 0.12-0.6
DETAIL_FLOOR = 0.08
DETAIL_SIZE = (160, 120)  # the picture the detail is measured on
DETAIL_BLOCKS = (16, 12)  # ... in these blocks


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

    def asked_among(self, untaught: tuple[str, ...]) -> Seen:
        """This card asked, the faces the deck was not taught among its candidates: a
        face never taught reads as one of its family that was, sure (a 3 as an 8 at
        confidence 1.0 and a fit of 0.94, where right reads fit 0.95-0.99), so no reading
        tells it apart."""
        return Seen(self.frame, None, self.confidence,
                    tuple(dict.fromkeys(self.candidates + untaught)))


def _small(frame: Any) -> Any:
    """The frame, small and with the light divided out: each pixel over the brightness
    around it, so a lamp switched, dimmed or tinted, or its glare moved, changes nothing
    while a hand or a card does."""
    return light_free(cv2.resize(_grey(frame), MOTION_SIZE, interpolation=cv2.INTER_AREA),
                      LIGHT_SIGMA)


def _changed(small: Any, other: Any) -> Any:
    """The small pixels where the two pictures differ."""
    return np.abs(small - other) > MOTION_LEVEL


class Watcher:
    """Feed frames in time order; `feed` returns a Seen when a card is to be logged."""

    def __init__(self, model: Model, recogniser: Recogniser | None = None) -> None:
        cv2.setNumThreads(OPENCV_THREADS)
        self.model = model
        self.recogniser = recogniser or Recogniser(model.faces, model.card_size,
                                                   model.aligned)
        self.frame = -1
        self._previous: Any = None
        self._before: Any = None  # the frame before this one (reduced)
        self._judged: Any = None  # the small picture last judged
        self._normals: list[_Still] = []  # still pictures with no arm across the pile
        self._settled: _Still | None = None  # the last with nothing at all across it
        self._still = 0
        self._dead = 0  # still frames in a row in which nothing moved at all (FIDGET)
        self._looked: Any = None  # the small picture last looked at still (`_rested`)
        self._top: Top | None = None
        self._top_grey: Any = None  # the frame the top card was last seen in, grey
        self._under_grey: Any = None  # the pile before the top card was laid, grey
        self._judged_grey: Any = None  # the frame last judged, grey
        self._spot_small: tuple[int, int, int, int] = model.spot_pixels(*MOTION_SIZE)
        # rest is judged here: the pile spot and a band around it (a hand reaching for
        # the pile, or leaving it, moves there), not the whole view (a hand coming with
        # the next card, a person leaning in at the far side)
        sx0, sy0, sx1, sy1 = self._spot_small
        w, h = MOTION_SIZE
        self._around_small = (max(0, sx0 - AROUND), max(0, sy0 - AROUND),
                              min(w, sx1 + AROUND), min(h, sy1 + AROUND))
        self._motion_pixels = MOTION_SHARE * w * h
        # the last frame (and its small picture) into which only hands at the frame's
        # edge moved, apart from a card lying still (`_hands_only`), since the last still one
        self._hands: tuple[Any, Any] | None = None
        self._calm = False  # nothing moved anywhere in the view into the last frame fed
        self._detail: Any = None  # the table's detail in the last sharp still picture
        self._blurred = 0  # still frames in a row taken as moving: blurred
        bx0, by0, bx1, by1 = model.spot_pixels(*DETAIL_BLOCKS)
        self._table_blocks = np.ones(DETAIL_BLOCKS[::-1], bool)
        self._table_blocks[by0:by1, bx0:bx1] = False
        if not self._table_blocks.any():  # the pile spot is the whole view
            self._table_blocks[:] = True
        size = self.recogniser.card_size
        # a card's region lying still between moving hands holds at least this many small
        # pixels (HANDS_CARD of its long edge squared: about a third of its area)
        self._card_pixels = CHANGE_SHARE * (sx1 - sx0) * (sy1 - sy0) if size is None \
            else (HANDS_CARD * size * w) ** 2
        self.recognitions = 0
        # faces the deck was not taught (camera.teach): every card is then asked, never
        # logged, with them among its candidates, until they are taught
        self._untaught = tuple(model.missing())

    def feed(self, frame: Any) -> Seen | None:
        self.frame += 1
        frame = reduced(frame)
        small = _small(frame)
        previous, self._previous = self._previous, small
        before, self._before = self._before, frame
        if previous is None or previous.shape != small.shape:
            self._still = 0
            return None
        x0, y0, x1, y1 = self._around_small
        changed = _changed(small, previous)
        moved = int(np.count_nonzero(changed[y0:y1, x0:x1]))
        calm, self._calm = self._calm, int(np.count_nonzero(changed)) < self._motion_pixels
        self._dead = 0 if moved >= FIDGET else self._dead + 1
        if moved >= self._motion_pixels:
            # the pile lay still for one frame only between two hands: the first of two
            # quick cards, seen uncovered that once (a family lays the next within 0.2 s)
            glimpse = self._still == GLIMPSE and self._judged is not None
            self._still = 0
            hands, self._hands = self._hands, None
            if glimpse:
                return self._rested(before, previous, calm=calm)
            if self._judged is not None and _hands_only(
                    small, previous, self._judged, self._spot_small, self._card_pixels,
                    self._motion_pixels):
                self._hands = (frame, small)  # judged if a hand comes over the card next
                return None
            # only hands at the edge moved, apart from a card lying still, and now one
            # comes over it: the first of two quick cards, whose pile never lay still
            return None if hands is None else self._rested(*hands, hands=True)
        self._hands = None
        self._still += 1
        if self._still < STILL_FRAMES:
            return None
        looked, self._looked = self._looked, None
        if self._still > STILL_FRAMES and self._dead != LONG_STILL and looked is not None \
                and not _changed(small, looked).any():
            # no pixel differs from the still picture last looked at: it was followed,
            # judged or waited for already, and would be again (half of a busy table's
            # frames; its look is 1-2 ms: the border band's colours, the focus)
            self._looked = looked
            return None
        detail = _detail(frame)[self._table_blocks]
        if self._detail is not None and self._blurred < FOCUS_WAIT and float(
                np.median((detail + DETAIL_FLOOR) / (self._detail + DETAIL_FLOOR))) \
                < FOCUS_SHARE:
            self._blurred += 1  # the focus hunts: as if it moved (FOCUS_SHARE)
            self._still = self._dead = 0
            return None
        self._detail, self._blurred = detail, 0
        self._looked = small
        return self._rested(frame, small, calm=self._calm)

    def _rested(self, frame: Any, small: Any, *, hands: bool = False, calm: bool = False
                ) -> Seen | None:
        """What to do with `frame` (`small`: its small picture), which lies still: follow
        or log the pile, or wait for an arm resting over it to leave. `hands`: only hands
        at the frame's edge move in it, apart from a card newly still (`_hands_only`):
        judged as it is, and never a picture to compare with."""
        if hands:
            return self._judge(frame, small, log=True)
        here = _still(small, frame)
        if self._judged is None:  # the first still picture: what lies there already
            self._normals, self._settled = [here], here
            return self._judge(frame, small, log=False)
        settled = here.sleeve_width(self._settled, self._spot_small) \
            if self._settled is not None else SLEEVE_WIDTH
        widths = [settled if normal is self._settled  # often the same picture: once
                  else here.sleeve_width(normal, self._spot_small) for normal in self._normals]
        arm = min([*widths, settled]) >= SLEEVE_WIDTH
        if settled < SETTLED_WIDTH and calm:
            self._settled = here
        if min(widths[0], settled) < SLEEVE_WIDTH and calm:  # no arm over the pile: the
            self._normals = [here]  # picture to compare with from now on
        elif self._dead == LONG_STILL and arm:  # something lies across from the edge:
            self._normals = [self._normals[0], here]  # a normal too, beside the clear one
        x0, y0, x1, y1 = self._spot_small
        spot = _changed(small, self._judged)[y0:y1, x0:x1]
        if float(np.mean(spot)) < CHANGE_SHARE:
            # too little for a play, unless the top card's print changed (camera.top)
            if self._still == STILL_FRAMES and spot.any():
                found = self._find_top(frame, _grey(frame))
                if _top_changed(found):
                    return self._judge(frame, small, log=True, found=found)
            return None
        if arm and self._dead < LONG_STILL:
            if self._still == STILL_FRAMES and self._top is not None \
                    and self._top.still_there(frame)[1]:
                self._judged = small  # the top card lies as it did: the light changed
                self._normals = [here]
            return None  # an arm resting over the pile
        return self._judge(frame, small, log=True, arm=arm)

    def _find_top(self, frame: Any, grey: Any) -> _Found:
        """The top card followed into `frame` (`grey`: it in grey), whether surely the
        same card, and whether a card was laid on it a few pixels off (camera.outline)."""
        followed, sure = (None, False) if self._top is None else self._top.still_there(frame)
        look = None if followed is None else self._look(grey, followed)
        return followed, sure, look

    def _look(self, grey: Any, followed: Top) -> str | None:
        """Whether the top card, found again a nudge away, was moved there or a card was
        laid on it (camera.outline); None with no picture of the pile to compare."""
        if self._top is None or self._top_grey is None or self._under_grey is None:
            return None
        return laid_on(self._under_grey, self._top_grey, grey, self._top.quad, followed.quad)

    def _follow(self, top: Top, grey: Any) -> None:
        """`top` is the top card now, as the frame `grey` shows it."""
        self._top, self._top_grey = top, grey

    def _judge(self, frame: Any, small: Any, *, log: bool, arm: bool = False,
               found: _Found | None = None) -> Seen | None:
        """Follow or log what lies on the pile; `found`: `_find_top` of this frame, if
        already looked for."""
        self._judged = small
        h, w = frame.shape[:2]
        grey = _grey(frame)
        judged_before, self._judged_grey = self._judged_grey, grey
        followed, sure, look = self._find_top(frame, grey) if found is None else found
        laid = look == LAID
        size = self.recogniser.card_size
        where = None if judged_before is None or size is None \
            else laid_card(judged_before, grey, size * w)
        beside = followed is not None and sure and not laid and _beside(followed, where)
        if followed is not None and sure and not laid and not beside:
            self._follow(followed, grey)  # the same card again, or nudged
            return None
        self.recognitions += 1
        # where one card's outline changed, that card is read first, not the whole spot:
        # on a wide pile a card laid beside the top card, or partly on it, leaves an
        # older card whole, whose features won (dev plain seed 20_300: a 3 laid over
        # an 8 beside the sorry read as the sorry, logged wrong)
        reading = None if where is None \
            else self.recogniser.read(frame, _around(where, w, h), where)
        if reading is None:
            reading = self.recogniser.read(frame, self.model.spot_pixels(w, h), where)
        if reading is None:
            return None
        if followed is not None and not laid and followed.is_card(reading.candidates) \
                and followed.near(reading.quad, WANDER_SHIFT, WANDER_TURN):
            self._follow(followed, grey)  # the same face where that card lay: that card
            return None
        if not laid and self._top is not None and self._top.is_card(reading.candidates) \
                and self._top.near(reading.quad):
            if not arm:  # that card nudged where its picture did not find it: follow it,
                # or the next nudge adds to this one and it passes for a new card
                self._follow(Top.seen(frame, reading.quad, reading.candidates), grey)
            return None  # that face where that card lay (maybe seen through a hand): that card
        self._under_grey = judged_before  # the pile this card was laid on
        self._follow(Top.seen(frame, reading.quad, reading.candidates), grey)
        if not log:
            return None
        seen = Seen(self.frame, reading.card, reading.confidence, reading.candidates)
        return seen.asked_among(self._untaught) if self._untaught else seen


_Found = tuple[Top | None, bool, str | None]  # Watcher._find_top's answer


def _hands_only(small: Any, previous: Any, judged: Any, spot: tuple[int, int, int, int],
                least: float, slack: float) -> bool:
    """Whether only hands at the frame's edge move between `previous` and `small`, apart
    from a new card lying still: the regions changed since the `judged` picture that
    touch no border of the frame hold fewer than `slack` small pixels of motion (as the
    rest judge's own), and one of them holds `least` small pixels at least in the pile
    `spot`. The first of two quick cards: the next hand
    comes in on the frame the last one leaves, and the spot (most of the view on dev
    homes) never lay still. A card carried or slid by a hand, or a hand over the card,
    is one region with the hand: it moves."""
    new = _changed(small, judged)
    count, labels = cv2.connectedComponents(new.astype(np.uint8), connectivity=8)
    if count < 2:
        return False
    border = np.zeros(count, bool)
    border[np.unique(np.concatenate([labels[0], labels[-1], labels[:, 0],
                                     labels[:, -1]]))] = True
    border[0] = True
    motion = np.bincount(labels[_changed(small, previous)].ravel(), minlength=count)
    if int(motion[~border].sum()) >= slack:
        return False
    x0, y0, x1, y1 = spot
    areas = np.bincount(labels[y0:y1, x0:x1].ravel(), minlength=count)
    return bool(np.any(areas[~border] >= least))


def _beside(top: Top, where: Quad | None) -> bool:
    """Whether the card laid at `where` (camera.change: one card's outline changed since
    the last judged picture) lies away from the top card, which is still there, surely
    as it was: a card laid crooked or overhanging beside it on a wide pile covers none of
    it (dev plain seed 20_300: an 8 laid beside the sorry, then a 3, both missed as the
    sorry seen again)."""
    return where is not None and not top.near(where, WANDER_SHIFT, WANDER_TURN)


def _around(quad: Quad, w: int, h: int) -> tuple[int, int, int, int]:
    """The pixels around the card at `quad` (BESIDE_MARGIN of its long edge each side),
    within the w x h frame."""
    corners = np.asarray(quad, np.float32)
    margin = BESIDE_MARGIN * float(np.linalg.norm(corners[2] - corners[1]))
    x0, y0 = corners.min(axis=0) - margin
    x1, y1 = corners.max(axis=0) + margin
    return (max(0, int(x0)), max(0, int(y0)), min(w, int(np.ceil(x1))),
            min(h, int(np.ceil(y1))))


def _top_changed(found: _Found) -> bool:
    """Whether a card lies within a nudge of the top card that is not surely it: a face
    of its family laid square on it, or any card laid on it a few pixels off, changes too
    little of the pile for the watcher's coarse picture."""
    followed, sure, look = found
    return followed is not None and (not sure or look == LAID)


def reduced(frame: Any) -> Any:
    """The frame at most WATCH_WIDTH wide: a 1920x1080 camera's frames hold nothing more
    for the watcher than 640-wide ones (the model's spot and card size are shares of the
    frame) and cost 9 times as much to look at. Reduced once: by area where the width is a
    whole multiple of WATCH_WIDTH (OpenCV's quick path); else (a 1920x1080 frame that
    camera.sources decoded at half size, 960x540) bilinearly, since area over a factor
    of 1.5 was 4.0 ms a frame here against 0.8, as much as the decoding itself."""
    h, w = frame.shape[:2]
    if w <= WATCH_WIDTH:
        return frame
    how = cv2.INTER_AREA if w % WATCH_WIDTH == 0 else cv2.INTER_LINEAR
    return cv2.resize(frame, (WATCH_WIDTH, max(1, round(h * WATCH_WIDTH / w))),
                      interpolation=how)


def _detail(frame: Any) -> Any:
    """How much fine detail the picture holds in each of DETAIL_BLOCKS: the mean
    Laplacian over the brightness around it (a shadow or the exposure changes neither
    share), which a blur lowers."""
    grey = cv2.resize(_grey(frame), DETAIL_SIZE, interpolation=cv2.INTER_AREA).astype(
        np.float32)
    edges = np.abs(cv2.Laplacian(grey, cv2.CV_32F)) / (cv2.GaussianBlur(grey, (0, 0), 4.0)
                                                       + 1.0)
    return cv2.resize(edges, DETAIL_BLOCKS, interpolation=cv2.INTER_AREA)


def _grey(frame: Any) -> Any:
    """The frame in grey, full size."""
    return frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)


def _colour(frame: Any) -> Any:
    """The frame small, in colour as it is (the light not divided out: a sleeve as
    even as the table is flat in the light-divided picture, but not in colour)."""
    small = cv2.resize(frame, MOTION_SIZE, interpolation=cv2.INTER_AREA).astype(np.float32)
    return small.reshape(small.shape[0], small.shape[1], -1)


def _sides(picture: Any) -> tuple[Any, ...]:
    """The border band's four sides, each depth x length (x channels)."""
    b = EDGE_BAND
    return (picture[:b], picture[-b:], picture[:, :b].swapaxes(0, 1),
            picture[:, -b:].swapaxes(0, 1))


@dataclass(frozen=True)
class _Still:
    """A still picture: small and light-divided, small in colour, and that blurred."""

    grey: Any
    colour: Any
    smooth: Any  # `colour` blurred over SLEEVE_BLUR: the cloth's fine pattern out

    def sleeve_width(self, normal: _Still, spot: tuple[int, int, int, int]) -> int:
        """How wide an arm reaches from the border band into the pile `spot` that was
        not there in `normal`: `_sleeve` in the colour picture and in it blurred, the
        narrower (SLEEVE_BLUR)."""
        sharp = _sleeve(self.colour, normal.colour, spot)
        return sharp and min(sharp, _sleeve(self.smooth, normal.smooth, spot))


def _still(small: Any, frame: Any) -> _Still:
    """The still `frame` (`small`: its small light-divided picture) as compared."""
    colour = _colour(frame)
    smooth = cv2.GaussianBlur(colour, (0, 0), SLEEVE_BLUR).reshape(colour.shape)
    return _Still(small, colour, smooth)


def _sleeve(colour: Any, normal: Any, spot: tuple[int, int, int, int]) -> int:
    """How wide something reaches from the border band into the pile `spot` (small
    pixels) that was not in the picture `normal` (small, in colour), as an arm over the
    pile does (an arm from SLEEVE_WIDTH): the most places of one side at which a region
    whose colour changed (the lamp's change, its median gain a channel, taken out)
    crosses the band's whole depth, of the regions that run on into the spot. Not in the
    light-divided picture: a sleeve as even as the table vanishes there (a card was then read
    through the resting hand: a phantom play).
    Only an arm over the pile: a hand coming in at the edge with the next card, or a
    person's shadow at the far side, leaves the card just laid to be judged (the
    first of two quick cards waited for it and was logged 1 time in 11)."""
    channels = colour.shape[-1]
    gain = np.median((colour.reshape(-1, channels) + 1.0)
                     / (normal.reshape(-1, channels) + 1.0), axis=0)
    changed = np.abs(colour - normal * gain).max(axis=2) > SLEEVE_LEVEL
    count, labels = cv2.connectedComponents(changed.astype(np.uint8), connectivity=4)
    if count < 2:
        return 0
    x0, y0, x1, y1 = spot
    in_spot = set(np.unique(labels[y0:y1, x0:x1]).tolist()) - {0}
    widest = 0
    for side in _sides(labels) if in_spot else ():
        crossing = side.min(axis=0) == side.max(axis=0)  # one region through the depth
        names = side[0][crossing & (side[0] > 0)]
        found, widths = np.unique(names, return_counts=True)
        widest = max([widest] + [int(c) for n, c in zip(found, widths, strict=True)
                                 if int(n) in in_spot])
    return widest
