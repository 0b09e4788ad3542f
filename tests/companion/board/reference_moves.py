"""The board game's option generator as it stood before issue 22's rewrite (moves.py at
commit c26f12d), kept whole as a slow reference: test_board_oracle.py checks that the
engine's options, candidates, reasons, forfeit checks and matches are exactly this one's.
Only the data types (Leg, Blocked, Option) are shared with the engine. Do not speed it up:
its worth is that it is the old code, unchanged.
"""


from __future__ import annotations

from bisect import insort
from collections import OrderedDict
from collections.abc import Iterable
from functools import lru_cache
from typing import Any, NamedTuple

from games.board.rules.cards import SORRY, steps_of
from games.board.rules.geometry import SLIDES, TRACK_LEN, entry, start_exit
from games.board.rules.moves import Blocked, Leg, Option
from games.board.rules.position import (
    HOME_I,
    LOC,
    START_I,
    Position,
    is_safety,
    is_track,
    name_of,
    track_loc,
)
from games.board.rules.settings import Settings

_new = tuple.__new__
Board = tuple[tuple[int, ...], ...]


class _Book(NamedTuple):
    """What the rules need of a table, computed once per edition, settings and colours."""

    classic: bool
    colors: tuple[str, ...]
    entry: tuple[int, ...]  # E of each seat, a track index
    exit: tuple[int, ...]  # X of each seat, a location
    slides: dict[int, tuple[int, tuple[int, ...], str]]  # triangle loc -> end, others, colour
    g1: frozenset[tuple[int, int]]  # (seat, triangle loc) whose slide would pass seat's E
    circle: bool  # 2016 start_move "circle"


@lru_cache(maxsize=128)
def _book(edition: str, settings: Settings, colors: tuple[str, ...]) -> _Book:
    slides = {}
    g1 = set()
    for s in SLIDES:
        tri = track_loc(s.start)
        slides[tri] = (track_loc(s.end), tuple(track_loc(n) for n in s.squares[1:]),
                       settings.slide_color(s.start))
        for seat, color in enumerate(colors):
            if s.start < entry(color) <= s.end:
                g1.add((seat, tri))
    return _Book(edition == "classic", colors, tuple(entry(c) for c in colors),
                 tuple(track_loc(start_exit(c)) for c in colors), slides, frozenset(g1),
                 edition == "2016" and settings.start_move == "circle")


def _forward(book: _Book, seat: int, loc: int, n: int) -> int | None:
    """Where n forward steps take a pawn, or None (overshooting HOME, START, HOME)."""
    if 1 <= loc <= TRACK_LEN:
        t = loc - 1
        d = (book.entry[seat] - t) % TRACK_LEN
        if n <= d:
            return (t + n) % TRACK_LEN + 1
        k = n - d
        return TRACK_LEN + k if k <= 6 else None
    if is_safety(loc):
        k = loc - TRACK_LEN + n
        return TRACK_LEN + k if k <= 6 else None
    return None


def _backward(book: _Book, seat: int, loc: int, n: int) -> int | None:
    if 1 <= loc <= TRACK_LEN:
        return (loc - 1 - n) % TRACK_LEN + 1
    if is_safety(loc):
        k = loc - TRACK_LEN
        return loc - n if n < k else (book.entry[seat] - (n - k)) % TRACK_LEN + 1
    return None


def _start_dst(book: _Book, seat: int, n: int) -> int:
    """Where a pawn leaving START ends before landing checks (classic and "circle": X)."""
    x = book.exit[seat]
    if book.classic or book.circle or n == 1:
        return x
    return _forward(book, seat, x, n - 1) or x


Work = list[Any]  # a board being changed: unchanged rows stay tuples, changed ones are lists


def _row(b: Work, seat: int) -> list[int]:
    """`seat`'s row of `b`, made a list (copy on write) so it can change."""
    row = b[seat]
    if type(row) is tuple:
        row = b[seat] = list(row)
    return row  # type: ignore[no-any-return]


def _move(row: list[int], src: int, dst: int) -> None:
    """One pawn of a row from `src` to `dst`, the row kept sorted (canonical), so that a
    changed board needs no sorting."""
    row.remove(src)
    insort(row, dst)


def _occupant(b: Work, loc: int) -> int:
    for seat, locs in enumerate(b):
        if loc in locs:
            return seat
    return -1


def _to_start(b: Work, seat: int, loc: int) -> None:
    row = _row(b, seat)
    row.remove(loc)
    row.insert(0, START_I)  # START sorts first


class _Slid(NamedTuple):
    end: int
    slid: bool = False
    held: bool = False
    bumped: tuple[str, ...] = ()
    color: str = ""


def _slide(book: _Book, b: Work, seat: int, at: int) -> _Slid | None:
    """The slide check after the mover lands on `at` (b is changed if it slides); None
    when `at` is no triangle or its slide is not for this mover."""
    slide = book.slides.get(at)
    if slide is None:
        return None
    end, others, color = slide
    if (color != book.colors[seat]) != book.classic:
        return None
    if (seat, at) in book.g1:
        return _Slid(at, held=True, color=color)
    bumped = []
    for s, locs in enumerate(b):
        for x in [x for x in locs if x in others]:
            _to_start(b, s, x)
            bumped.append(book.colors[s])
    _move(_row(b, seat), at, end)
    return _Slid(end, True, False, tuple(bumped), color)


def _land(book: _Book, b: Work, seat: int, src: int, dst: int, steps: int) -> Leg | Blocked:
    """Move one pawn of `seat` from `src` to `dst` on `b` (changed only on success)."""
    bumped: tuple[str, ...] = ()
    if 1 <= dst <= TRACK_LEN:  # on the track (is_track, inline: this runs for every option)
        occ = _occupant(b, dst)
        if occ == seat:
            return Blocked(src, "own_pawn", {"square": name_of(dst)})
        if occ >= 0:
            _to_start(b, occ, dst)
            bumped = (book.colors[occ],)
    elif dst != HOME_I and dst in b[seat]:
        return Blocked(src, "own_pawn", {"square": name_of(dst)})
    _move(_row(b, seat), src, dst)
    s = _slide(book, b, seat, dst) if dst in book.slides else None
    if s is None:
        return _new(Leg, (src, dst, dst, steps, False, False, bumped, "", ""))
    return _new(Leg, (src, dst, s.end, steps, s.slid, s.held, (*bumped, *s.bumped), "",
                      s.color))


def _canon(b: Work) -> Board:
    """The board as the engine keeps it: every row a sorted tuple (rows changed through
    `_move` and `_to_start` stay sorted)."""
    return tuple([tuple(r) if type(r) is list else r for r in b])


class _Raw(NamedTuple):
    kind: str
    legs: tuple[Leg, ...]
    board: Board


def _one(book: _Book, board: Board, seat: int, kind: str, src: int, dst: int, steps: int,
         fails: list[Blocked]) -> _Raw | None:
    b: Work = list(board)
    leg = _land(book, b, seat, src, dst, steps)
    if isinstance(leg, Blocked):
        fails.append(leg)
        return None
    return _new(_Raw, (kind, (leg,), _canon(b)))


def _overshoot(book: _Book, seat: int, src: int, n: int, card: str) -> Blocked:
    if src == HOME_I:
        return Blocked(src, "home", {})
    need = (book.entry[seat] - (src - 1)) % TRACK_LEN + 6 if is_track(src) else HOME_I - src
    return Blocked(src, "overshoot", {"card": card, "steps": n, "need": need})


def _forwards(book: _Book, board: Board, seat: int, card: str, n: int,
              fails: list[Blocked], only: int | None = None) -> list[_Raw]:
    """n forward for every pawn (or the one on `only`); from START as this edition allows
    (kind "start")."""
    out = []
    for src in dict.fromkeys(board[seat]):  # a sorted row: each location once
        if only is not None and src != only:
            continue
        if src == START_I:
            if book.classic:
                if n in (1, 2):
                    raw = _one(book, board, seat, "start", src, book.exit[seat], 0, fails)
                    if raw:
                        out.append(raw)
                else:
                    fails.append(Blocked(src, "start_card", {"card": card}))
                continue
            raw = _one(book, board, seat, "start", src, _start_dst(book, seat, n), n, fails)
        else:
            dst = _forward(book, seat, src, n)
            if dst is None:
                fails.append(_overshoot(book, seat, src, n, card))
                continue
            raw = _one(book, board, seat, "forward", src, dst, n, fails)
        if raw:
            out.append(raw)
    return out


def _backwards(book: _Book, board: Board, seat: int, n: int,
               fails: list[Blocked], only: int | None = None) -> list[_Raw]:
    out = []
    for src in dict.fromkeys(board[seat]):  # a sorted row: each location once
        if only is not None and src != only:
            continue
        if src in (START_I, HOME_I):
            fails.append(Blocked(src, "home" if src == HOME_I else "start_backward", {}))
            continue
        dst = _backward(book, seat, src, n)
        assert dst is not None  # a track or safety pawn can always step back
        raw = _one(book, board, seat, "backward", src, dst, -n, fails)
        if raw:
            out.append(raw)
    return out


def _splits(book: _Book, board: Board, seat: int, fails: list[Blocked],
            only: int | None = None, any_one: bool = False) -> list[_Raw]:
    """7 split in two forward legs a + (7 - a), each on the board the previous one left;
    the first leg's pawn the one on `only` when given; `any_one`: stop at the first found."""
    out = []
    mine = board[seat]
    for first in dict.fromkeys(mine):
        if first == HOME_I or (first == START_I and book.classic):
            continue
        if only is not None and first != only:
            continue
        # the second leg's pawn: another pawn of the board before the card
        before = list(mine)
        before.remove(first)
        seconds = [x for x in dict.fromkeys(before)
                   if x != HOME_I and not (x == START_I and book.classic)]
        if not seconds:
            continue
        for a in range(1, 7):
            dst = (_start_dst(book, seat, a) if first == START_I
                   else _forward(book, seat, first, a))
            if dst is None or (dst != HOME_I and dst in mine):  # off the board, or own pawn
                continue
            work: Work = list(board)
            leg1 = _land(book, work, seat, first, dst, a)
            if isinstance(leg1, Blocked):
                continue
            b1 = _canon(work)
            mine1 = b1[seat]
            for second in seconds:
                # still where it stood (not swept to START by the first leg's slide, nor
                # its slide's end)
                if second != START_I and (second == leg1.dst or second not in mine1):
                    continue
                dst2 = (_start_dst(book, seat, 7 - a) if second == START_I
                        else _forward(book, seat, second, 7 - a))
                if dst2 is None or (dst2 != HOME_I and dst2 in mine1):
                    continue
                b2: Work = list(b1)
                leg2 = _land(book, b2, seat, second, dst2, 7 - a)
                if not isinstance(leg2, Blocked):
                    out.append(_new(_Raw, ("split", (leg1, leg2), _canon(b2))))
                    if any_one:
                        return out
    if not out and sum(1 for x in board[seat] if x != HOME_I) >= 2:
        fails.append(Blocked(-1, "no_split", {}))
    return out


def _switches(book: _Book, board: Board, seat: int, fails: list[Blocked],
              only: int | None = None) -> list[_Raw]:
    out: list[_Raw] = []
    mine = [x for x in board[seat] if is_track(x) and (only is None or x == only)]
    theirs = [(x, s) for s, locs in enumerate(board) if s != seat for x in locs if is_track(x)]
    if not mine or not theirs:
        fails.append(Blocked(-1, "no_switch_theirs" if mine else "no_switch_mine", {}))
        return out
    for a in mine:  # a sorted row's, in order
        for x, s in sorted(theirs):
            b: Work = list(board)
            _move(_row(b, seat), a, x)
            _move(_row(b, s), x, a)
            sl = _slide(book, b, seat, x) or _Slid(x)
            leg = Leg(a, x, sl.end, 0, sl.slid, sl.held, sl.bumped, book.colors[s], sl.color)
            out.append(_Raw("switch", (leg,), _canon(b)))
    return out


def _sorrys(book: _Book, board: Board, seat: int, fails: list[Blocked],
            only: int | None = None) -> list[_Raw]:
    out: list[_Raw] = []
    if only is not None and only != START_I:
        return out
    if START_I not in board[seat]:
        fails.append(Blocked(-1, "sorry_needs_start", {}))
        return out
    targets = sorted((x, s) for s, locs in enumerate(board) if s != seat for x in locs
                     if is_track(x))
    if not targets:
        fails.append(Blocked(START_I, "no_target", {}))
    for x, s in targets:
        b: Work = list(board)
        _to_start(b, s, x)
        _move(_row(b, seat), START_I, x)
        sl = _slide(book, b, seat, x) or _Slid(x)
        leg = Leg(START_I, x, sl.end, 0, sl.slid, sl.held, (book.colors[s], *sl.bumped),
                  book.colors[s], sl.color)
        out.append(_Raw("sorry", (leg,), _canon(b)))
    return out


def _raw(position: Position, card: str, color: str, fails: list[Blocked],
         only: int | None = None) -> list[_Raw]:
    """Every way to play `card`, in the options' order; with `only`, those whose (first)
    leg moves the pawn on `only`, in the same order, and no decline (the caller knows)."""
    book = _book(position.edition, position.settings, position.colors)
    seat = position.colors.index(color)
    board = position.pawns
    n = steps_of(card)
    out: list[_Raw] = []
    if card == SORRY:
        out += _sorrys(book, board, seat, fails, only)
        if not book.classic:
            out += _forwards(book, board, seat, card, 4, fails, only)
    elif card == "4":
        out += _backwards(book, board, seat, 4, fails, only)
    else:
        out += _forwards(book, board, seat, card, n, fails, only)
        if card == "7":
            out += _splits(book, board, seat, fails, only)
        elif card == "10":
            out += _backwards(book, board, seat, 1, fails, only)
        elif card == "11":
            switches = _switches(book, board, seat, fails, only)
            if switches and not out and only is None:
                out += switches
                out.append(_Raw("decline", (), board))
            else:
                out += switches
    return out


def _playable(position: Position, card: str, color: str) -> bool:
    """Whether `_raw` would find any way to play `card`, cheapest kinds first, stopping at
    the first: a forfeit check that builds no option and splits a 7 only when it must."""
    book = _book(position.edition, position.settings, position.colors)
    seat = position.colors.index(color)
    board = position.pawns
    fails: list[Blocked] = []
    if card == SORRY:
        return bool(_sorrys(book, board, seat, fails)) or (
            not book.classic and bool(_forwards(book, board, seat, card, 4, fails)))
    if card == "4":
        return bool(_backwards(book, board, seat, 4, fails))
    if _forwards(book, board, seat, card, steps_of(card), fails):
        return True
    if card == "7":
        return bool(_splits(book, board, seat, fails, any_one=True))
    if card == "10":
        return bool(_backwards(book, board, seat, 1, fails))
    if card == "11":
        return bool(_switches(book, board, seat, fails))
    return False


class _Analysis:
    """A card worked out for one position: every way to play it (boards repeated), the
    distinct ones, and why pawns cannot move. Options are built when first asked for."""

    __slots__ = ("_fails", "_options", "compulsory", "distinct", "key", "raws", "seat")

    def __init__(self, key: tuple[Position, str, str], raws: tuple[_Raw, ...],
                 distinct: tuple[_Raw, ...], fails: list[Blocked], compulsory: bool) -> None:
        self.key, self.raws, self.distinct = key, raws, distinct
        self._fails, self.compulsory = fails, compulsory
        self._options: tuple[Option, ...] | None = None
        self.seat = key[0].colors.index(key[2])

    @property
    def blocked(self) -> tuple[Blocked, ...]:
        """Each reason once (per pawn and code), in the order found."""
        first: dict[tuple[int, str], Blocked] = {}
        for f in self._fails:
            first.setdefault((f.src, f.code), f)
        return tuple(first.values())

    def option(self, raw: _Raw) -> Option:
        position, card, color = self.key
        wins = all(x == HOME_I for x in raw.board[self.seat])
        return _new(Option, (raw.kind, card, color, position.colors, raw.legs, raw.board,
                             position.edition, wins,
                             self.compulsory and raw.kind == "backward",
                             position.settings.start_move))

    @property
    def options(self) -> tuple[Option, ...]:
        if self._options is None:
            self._options = tuple(self.option(raw) for raw in self.distinct)
        return self._options


class _Analyses:
    """Each card worked out once per position (a turn asks for it at the draw, on the
    screen and at the move): the newest `size` kept, and `get` tells whether one is
    kept, so a forfeit check or a transcript's move uses it when it is there and a
    cheaper path when it is not. `cache_clear` as functools.lru_cache's."""

    def __init__(self, size: int) -> None:
        self.size = size
        # An OrderedDict: dropping the oldest is O(1) (a dict's next(iter()) walks over
        # every slot freed since it was last resized, which made each new key O(size)).
        self._kept: OrderedDict[tuple[Position, str, str], _Analysis] = OrderedDict()

    def get(self, position: Position, card: str, color: str) -> _Analysis | None:
        return self._kept.get((position, card, color))

    def cache_clear(self) -> None:
        self._kept.clear()

    def __call__(self, position: Position, card: str, color: str) -> _Analysis:
        key = (position, card, color)
        found = self._kept.get(key)
        if found is None:
            found = _work_out(key)
            if len(self._kept) >= self.size:
                self._kept.popitem(last=False)  # the oldest
            self._kept[key] = found
        return found


def _work_out(key: tuple[Position, str, str]) -> _Analysis:
    position, card, color = key
    fails: list[Blocked] = []
    raws = _raw(position, card, color, fails)
    compulsory = card == "10" and not any(r.kind in ("forward", "start") for r in raws)
    seen: set[Board] = set()
    distinct = []
    for raw in raws:
        board = raw.board if raw.kind != "decline" else ()
        if board not in seen:
            seen.add(board)
            distinct.append(raw)
    return _Analysis(key, tuple(raws), tuple(distinct), fails, compulsory)


_analyse = _Analyses(256)


def has_options(position: Position, card: str, color: str) -> bool:
    """Whether the card has any option (a forfeit when not), without building them."""
    found = _analyse.get(position, card, color)
    return bool(found.raws) if found is not None else _playable(position, card, color)


def candidates(position: Position, card: str, color: str) -> tuple[Option, ...]:
    """Every way to play `card`, boards repeated: what a transcript's legs may name."""
    found = _analyse(position, card, color)
    return tuple(found.option(r) for r in found.raws)


def generate(position: Position, card: str, color: str) -> tuple[Option, ...]:
    """Every legal option, one per distinct resulting board (decline: the board unchanged)."""
    return _analyse(position, card, color).options


def blocked(position: Position, card: str, color: str) -> tuple[Blocked, ...]:
    """Why each pawn cannot use `card` (meaningful when `generate` is empty), each reason
    once, in the order found."""
    return _analyse(position, card, color).blocked


def match(position: Position, card: str, color: str, legs: tuple[tuple[str, str], ...],
          kind: str | None = None, landed: tuple[str, ...] | None = None) -> Option | None:
    """The option a transcript's legs name: exactly, or a switch or Sorry! by the square
    landed on; None when no way to play the card has these legs. `kind` and `landed` tell
    apart options that share legs (an 11 forward onto an opponent and the switch with it;
    two Sorry!s ending on one slide's end); without them the first listed is meant."""
    want = tuple((LOC[a], LOC[b]) for a, b in legs)
    found = _analyse.get(position, card, color)
    if found is None and not want:
        found = _analyse(position, card, color)  # a decline: whether any pawn moves forward
    if found is not None:
        raws: Iterable[_Raw] = found.raws
    else:  # a transcript's move (replay, resume): only the named pawn's ways, in order
        found = _Analysis((position, card, color), (), (), [], card == "10" and not _forwards(
            _book(position.edition, position.settings, position.colors),
            position.pawns, position.colors.index(color), card, 10, []))
        raws = _raw(position, card, color, [], only=want[0][0])
    want_landed = None if landed is None else tuple(LOC[x] for x in landed)
    for raw in raws:
        if kind is not None and raw.kind != kind:
            continue
        if len(raw.legs) != len(want):
            continue
        if want_landed is not None and tuple(leg.landed for leg in raw.legs) != want_landed:
            continue
        if all((leg.src, leg.dst) == w for leg, w in zip(raw.legs, want, strict=True)) or (
                raw.kind in ("switch", "sorry") and len(want) == 1
                and (raw.legs[0].src, raw.legs[0].landed) == want[0]):
            return found.option(raw)
    return None
