"""Which option of the card drawn the board shows, once it rests (needs the extra).

Every frame costs one small grey copy, the lamp divided out (camera.light), compared with
the one before: anything moving (a hand, an arm, a pawn carried) resets the rest. Only a
still board is read (games.board.camera.read), and only while a drawn card waits for its
move; the reading is then laid beside every board the card allows and the board before
it, each scored by the locations that disagree (a doubtful reading counts half):

- something lies across the board's outline (a hand resting on the edge, fingertips
  left over it as the hand pauses: games.board.camera.edge): not at rest yet;
- the board before fits best: the player is still thinking (or nudged a pawn): nothing;
- something that is no pawn lies on a square (a hand resting, a pawn held): wait;
- one option fits and every other board is at least a location away: that move, logged;
- two or more options fit about as well: unsure, those options asked;
- nothing fits (a pawn one square off, the bumped pawn not yet in its START): wait, and
  once the board has been still for MISMATCH_SECONDS, say what differs from the nearest
  option, once, until the board changes.

A START or HOME is counted from its pawns' hue against the still board before the move
(the count there is known), so its printing and the lamp on it cancel out.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import cv2
import numpy as np

from camera.light import light_free
from companion.catalogue import text
from games.board.camera import cells
from games.board.camera.edge import EdgeWatch
from games.board.camera.find import NotFound, homography, outline
from games.board.camera.model import BoardModel
from games.board.camera.read import Reading, read
from games.board.grid import key, unkey
from games.board.rules import geometry as g
from games.board.rules.moves import Option, generate
from games.board.rules.places import color_name, place
from games.board.rules.position import Position

MOTION_SIZE = (96, 54)
MOTION_LEVEL = 0.10  # a small pixel changed by this share of the brightness around it moved
MOTION_SHARE = 0.003  # this share of the small picture moved: something moves
LIGHT_SIGMA = 6.0  # small pixels over which the light is taken as even
STILL_FRAMES = 1  # frames like the one before: the board rests
MISMATCH_SECONDS = 2.0
FIT = 0.5  # a board fits a reading that disagrees by less than this
APART = 1.0  # another board this much worse: the fit is sure
NEAR = 1.0  # an option within this of the best is a candidate when unsure
ZONE_SLACK = 0.3  # of a pawn: a START's or HOME's count off by less is no disagreement
REFRESH = 2  # squares at most whose look is taken again at a draw
MOVED_AT_LEAST = 0.02  # of the side: less is the finder's own error (9 px at 1280 seen)
MOVED_AT_MOST = 0.08  # of the board's side: farther is some other outline (a hand across)


@dataclass(frozen=True)
class Judgement:
    """What the board shows for the draw `draw`, at frame `frame`: one option (logged),
    several (unsure), or a mismatch sentence."""

    frame: int
    draw: int
    option: Option | None = None
    candidates: tuple[Option, ...] = ()
    mismatch: str | None = None  # in English, as `camera watch-board` prints it
    said_in: Callable[[str], str] | None = None  # the mismatch in another language

    def to_json(self) -> dict[str, Any]:
        if self.mismatch is not None:
            return {"frame": self.frame, "draw": self.draw, "mismatch": self.mismatch}
        if self.option is not None:
            return {"frame": self.frame, "draw": self.draw, "kind": self.option.kind,
                    "legs": [list(leg) for leg in self.option.legs]}
        return {"frame": self.frame, "draw": self.draw, "legs": None,
                "candidates": [{"kind": o.kind, "legs": [list(leg) for leg in o.legs]}
                               for o in self.candidates]}


@dataclass(eq=True)
class _Board:
    """A board to compare readings with: each square's colour ("" empty) and each
    START's and HOME's count."""

    squares: dict[str, str]
    counts: dict[str, int]

    @staticmethod
    def of(pawns: dict[str, Any], colors: tuple[str, ...]) -> _Board:
        squares = dict.fromkeys(cells.squares(colors), "")
        counts = dict.fromkeys(cells.zones(colors), 0)
        for color, locations in pawns.items():
            for location in locations:
                k = key(location, color)
                if k in squares:
                    squares[k] = color
                else:
                    counts[k] += 1
        return _Board(squares, counts)


@dataclass
class _Draw:
    """A drawn card waiting for its move."""

    index: int
    color: str
    before: _Board
    options: tuple[Option, ...]
    boards: list[_Board]
    baseline: dict[str, float] | None = None  # zone pixels on the still board before
    said: bool = False  # a mismatch was said for this rest
    moved: bool = False  # something moved since the card was drawn
    done: bool = False
    still_since: int = 0
    costs: list[float] = field(default_factory=list)


class BoardWatcher:
    """Feed frames in time order; tell it each card drawn (`drawn`); `feed` returns a
    Judgement when the board shows a move, an unsure one, or none for long enough."""

    def __init__(self, model: BoardModel, fps: float) -> None:
        self.model, self.fps = model, fps
        self.frame = -1
        self._previous: Any = None
        self._still = 0
        self._homography: Any = None
        self._edge: EdgeWatch | None = None
        self.corners: Any = None  # where the board is watched: found again at the start
        self._draw: _Draw | None = None
        self._wait = max(1, round(MISMATCH_SECONDS * fps))
        self._rest_reading: Reading | None = None  # the board at rest now, if read
        self.readings = 0
        self.refreshed = 0  # squares whose look was taken again

    def drawn(self, index: int, position: Position | None, card: str, color: str) -> bool:
        """The card `card` drawn for `color` in `position` (the board as it stands);
        False when the card has no option (forfeited: nothing to watch), or when
        `position` is None (no card waits: nothing to watch either)."""
        self._draw = None
        options = () if position is None else generate(position, card, color)
        colors = self.model.colors
        if position is None or not options:
            return False
        before = _Board.of(position.pawns_json(), colors)
        self._refresh(before)
        # the board's 2 s before a mismatch is said count from the draw at the earliest:
        # a board misread still since before it (a pawn on a print of its hue read empty,
        # doubtfully) is not said at once, before the player has even reached for a pawn
        self._draw = _Draw(index, color, before, options,
                           [_Board.of(dict(o.pawns), colors) for o in options],
                           baseline=None if self._rest_reading is None
                           else self._rest_reading.pixels, still_since=self.frame + 1)
        return True

    def _refresh(self, board: _Board) -> None:
        """The board at rest as the draw says it stands: squares it shows a pawn on that
        the draw says are empty (a print the lamp or the camera now shows otherwise)
        are taken again, when every pawn and count is where the draw says and at most
        REFRESH such squares differ: anything more is a board not as said."""
        reading = self._rest_reading
        if reading is None:
            return
        extra = [k for k, seen in reading.squares.items() if seen != board.squares[k]]
        if not extra or len(extra) > REFRESH or any(board.squares[k] for k in extra):
            return
        self.model.taught.refresh(reading.lit, extra)
        self.refreshed += len(extra)

    def feed(self, frame: Any) -> Judgement | None:
        self.frame += 1
        grey = frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        small = light_free(cv2.resize(grey, MOTION_SIZE, interpolation=cv2.INTER_AREA),
                           LIGHT_SIGMA)
        previous, self._previous = self._previous, small
        if previous is None:
            return None
        moved = float(np.mean(np.abs(small - previous) > MOTION_LEVEL)) >= MOTION_SHARE
        if moved and self._edge is not None:
            self._edge.moved()
        elif not moved:  # still, but a hand resting over the edge: not at rest either
            moved = self._across_edge(frame, small)
        self._still = 0 if moved else self._still + 1
        pending = self._draw
        if moved:
            self._rest_reading = None
            if pending is not None:
                pending.said = False
                pending.moved = True
                pending.still_since = self.frame + 1
            return None
        if self._still < STILL_FRAMES:
            return None
        if pending is None or pending.done:
            if self._still == STILL_FRAMES:  # the board at rest between draws: its counts
                self._read_rest(frame)
            return None
        return self._judge(pending, frame)

    def _read_rest(self, frame: Any) -> None:
        """The board at rest between draws, with nothing on a square: the board the next
        draw is judged from (its line gives the counts there)."""
        reading = read(self._rectified(frame), self.model.taught)
        self.readings += 1
        self._rest_reading = None if reading.unknown() else reading

    def _across_edge(self, frame: Any, small: Any) -> bool:
        """Whether something lies across the board's outline in this still frame."""
        if self._edge is None:
            self._locate(frame)
            self._edge = EdgeWatch(self.corners, frame.shape[1], MOTION_SIZE, self._wait)
        colour = cv2.resize(frame, MOTION_SIZE, interpolation=cv2.INTER_AREA)
        return self._edge.crossed(colour if colour.ndim == 3 else colour[:, :, None], small)

    def _locate(self, frame: Any) -> None:
        """The board's corners in the frames (found again at the first still frame)."""
        if self._homography is None:
            h, w = frame.shape[:2]
            self.corners = found_again(frame, self.model.corners_for(w, h))
            self._homography = homography(self.corners)

    def _rectified(self, frame: Any) -> Any:
        self._locate(frame)
        return cv2.warpPerspective(frame, self._homography, (cells.SIZE, cells.SIZE),
                                   flags=cv2.INTER_LINEAR)

    def _judge(self, pending: _Draw, frame: Any) -> Judgement | None:
        self.readings += 1
        picture = self._rectified(frame)
        reading = read(picture, self.model.taught)
        if reading.unknown():
            return None  # a hand, a pawn held, something on a square: not a board yet
        zones = reading.pixels
        self._rest_reading = reading
        counts = self._counts(pending, zones)
        if pending.baseline is not None and self._as_before(pending, reading) and not any(
                _on_its_way(counts, pending.before, b) for b in pending.boards):
            # every move changes a square: with every square as before, so is each START
            # and HOME, unless a pawn is on its way (lifted from START and held off the
            # squares); their pixels are taken again, as the lamp may have changed since
            # (a bright wash leaves a pawn's plastic too pale for its hue)
            pending.baseline = zones
            counts = self._counts(pending, zones)
        common = _common_doubt(reading, [pending.before, *pending.boards])
        before = _cost(reading, counts, pending.before) - common
        costs = [_cost(reading, counts, b) - common for b in pending.boards]
        order = sorted(range(len(costs)), key=costs.__getitem__)
        best = order[0]
        if before < FIT and before <= costs[best]:
            if not any(_on_its_way(counts, pending.before, b) for b in pending.boards):
                pending.baseline = zones  # the board as it was: its counts known
            same = [o for o, b in zip(pending.options, pending.boards, strict=True)
                    if b == pending.before]
            if same and pending.moved and self._rested(pending):
                # a move that leaves the board as it was (4 back onto a slide that slides
                # it back, an 11 declined), after a hand went over it: asked
                pending.done = True
                return Judgement(self.frame, pending.index, candidates=tuple(same))
            return None
        others = sorted([before, *(costs[i] for i in order[1:])])
        if costs[best] < FIT and others[0] - costs[best] >= APART:
            pending.done = True
            return Judgement(self.frame, pending.index, option=pending.options[best])
        near = [pending.options[i] for i in order if costs[i] < costs[best] + NEAR
                and costs[i] < APART]
        if len(near) >= 2:
            pending.done = True
            return Judgement(self.frame, pending.index, candidates=tuple(near))
        if pending.said or not self._rested(pending):
            return None
        pending.said = True
        if costs[best] < APART:  # one option nearly fits, and stays so: ask
            pending.done = True
            return Judgement(self.frame, pending.index, candidates=(pending.options[best],))
        said_in = partial(difference, reading, counts, pending.boards[best],
                          pending.options[best])
        return Judgement(self.frame, pending.index, mismatch=said_in("en"), said_in=said_in)

    @staticmethod
    def _as_before(pending: _Draw, reading: Reading) -> bool:
        """Whether every square reads as on the board before the move, none doubtfully
        where an option would change it (a pawn put there, read doubtfully as none)."""
        before = pending.before.squares
        if any(seen != before[k] for k, seen in reading.squares.items()):
            return False
        return all(b.squares[k] == before[k] for k in reading.doubtful for b in pending.boards)

    def _rested(self, pending: _Draw) -> bool:
        """Whether the board has been still for MISMATCH_SECONDS."""
        return self.frame - pending.still_since + 1 >= self._wait

    def _counts(self, pending: _Draw, zones: dict[str, float]) -> dict[str, float]:
        """Each START's and HOME's count: from the still board before the move when one
        was seen (its counts known), else from one pawn's worth of pixels alone."""
        per_pawn = self.model.per_pawn
        out = {}
        for board_key, pixels in zones.items():
            color = unkey(board_key)[0] or ""
            if pending.baseline is None:
                out[board_key] = pixels / per_pawn[color]
            else:
                out[board_key] = pending.before.counts[board_key] + (
                    pixels - pending.baseline[board_key]) / per_pawn[color]
        return out


def found_again(frame: Any, taught: Any) -> Any:
    """The board's corners in `frame`: found again when the board or the camera moved a
    little since teaching (a corner more than MOVED_AT_LEAST of the board's side from its
    taught place, none more than MOVED_AT_MOST), else the taught ones (finding them again
    when nothing moved would only add the finder's own pixel or two of error)."""
    try:
        quad = outline(frame)
    except NotFound:
        return taught
    side = float(np.linalg.norm(taught[1] - taught[0]))
    turns = [np.roll(quad, -i, axis=0) for i in range(4)]
    best = min(turns, key=lambda q: float(np.abs(q - taught).max()))
    moved = float(np.abs(best - taught).max())
    return best if MOVED_AT_LEAST * side < moved <= MOVED_AT_MOST * side else taught


def _cost(reading: Reading, counts: dict[str, float], board: _Board) -> float:
    """How far a reading is from a board: a location a disagreement (a doubtful reading
    half of one), a START or HOME by how many pawns it is off."""
    cost = 0.0
    for board_key, seen in reading.squares.items():
        if seen != board.squares[board_key]:
            cost += 0.5 if board_key in reading.doubtful else 1.0
    return cost + _zone_cost(counts, board)


def _common_doubt(reading: Reading, boards: list[_Board]) -> float:
    """The cost of the doubtful readings at locations where every board agrees and the
    reading does not (a print or a shadow the lamp now shows as a pawn, doubtfully): the
    same for all, they cannot tell the boards apart, and a doubt alone is no board that
    no option gives (a pawn surely where no board has one still is)."""
    first = boards[0].squares
    return sum(0.5 for k in reading.doubtful if k in reading.squares
               and reading.squares[k] != first[k]
               and all(b.squares[k] == first[k] for b in boards))


def _on_its_way(counts: dict[str, float], before: _Board, board: _Board) -> bool:
    """Whether some START or HOME's count fits `board`'s better than the board before's:
    a pawn on its way to (or from) it, whatever the other zones show. Summed over the
    zones, a start move's START one pawn down was outweighed by the START its bumped pawn
    had not yet reached, and the lifted pawn's START was taken as the lamp's."""
    return any(_zone_fit(counts[k], n) < _zone_fit(counts[k], before.counts[k])
               for k, n in board.counts.items())


def _zone_fit(count: float, n: int) -> float:
    return max(0.0, abs(count - n) - ZONE_SLACK)


def _zone_cost(counts: dict[str, float], board: _Board) -> float:
    """How many pawns each START and HOME is off `board`'s, beyond ZONE_SLACK."""
    return sum(_zone_fit(counts[board_key], n) for board_key, n in board.counts.items())


def difference(reading: Reading, counts: dict[str, float], board: _Board, option: Option,
               lang: str = "en") -> str:
    """What the board shows that `option` would not, in one sentence in the table's words
    (English for `camera watch-board`'s lines; the screen asks again in its language)."""
    missing = [(k, c) for k, c in board.squares.items() if c and reading.squares[k] != c]
    extra = [(k, c) for k, c in reading.squares.items() if c and board.squares[k] != c]
    for k, color in missing:
        off = [e for e, c in extra if c == color]
        where = _on(k, color, lang)
        if off:
            return _said("bc_should_be_not", lang, color, where=where,
                         away=_away(off[0], k, color, lang))
        return _said("bc_should_be", lang, color, where=where)
    if extra:
        k, color = extra[0]
        return _said("bc_no_pawn", lang, color, where=_on(k, color, lang))
    for board_key, n in board.counts.items():
        seen = round(counts[board_key])
        if seen != n:
            owner, location = unkey(board_key)
            assert owner is not None
            if location == g.START and owner in option.bumped and seen < n:
                return _said("bc_bumped_back", lang, owner)
            return _said("bc_should_hold", lang, owner, n=n, seen=seen,
                         place=place(location, lang, owner=owner))
    return _capital(text("bc_no_match", lang))


def _said(key: str, lang: str, color: str, **values: object) -> str:
    """A sentence about `color`'s pawn ({pawn}: "Red's pawn", "Le pion rouge"), its first
    letter a capital."""
    name = color_name(color, lang)
    return _capital(text(key, lang, pawn=text("bc_pawn", lang, color=name), color=name,
                         **values))


def _capital(sentence: str) -> str:
    return sentence[:1].upper() + sentence[1:]


def _on(board_key: str, color: str, lang: str) -> str:
    location = unkey(board_key)[1]
    where = "bc_in" if location in (g.START, g.HOME) else "bc_on"
    return text(where, lang, place=place(location, lang, owner=color))


def _away(seen: str, expected: str, color: str, lang: str) -> str:
    """Where a pawn stands instead, in words: so many squares short or too far when both
    are track squares, else the place itself."""
    a, b = unkey(seen)[1], unkey(expected)[1]
    if a.startswith("T") and b.startswith("T"):
        ahead = (int(b[1:]) - int(a[1:])) % g.TRACK_LEN
        if ahead <= 10:
            return text("bc_short", lang, n=ahead)
        behind = g.TRACK_LEN - ahead
        if behind <= 10:
            return text("bc_too_far", lang, n=behind)
    return _on(seen, color, lang)
