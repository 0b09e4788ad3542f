"""The option generator: every legal option for one colour and one card (BOARD.md "Moving",
"The cards"). The rules of movement live here and nowhere else.

`generate` returns each distinct resulting board once, in a stable order (kind, then pawns
in canonical order). `candidates` gives every way to play the card, boards repeated (a 7
split played in either order), so a transcript's legs are matched against all of them.
When nothing is possible, the generator's own failures say why, pawn by pawn (`Blocked`).

>>> from games.board.rules.position import Position
>>> p = Position.parse({"edition": "classic", "pawns": {"red": ["S3", "HOME", "HOME", "HOME"],
...                     "blue": ["START"] * 4}})
>>> generate(p, "5", "red")
()
>>> [o.text for o in generate(p, "3", "red")]
['S3 to HOME, wins']
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable
from functools import lru_cache
from operator import itemgetter
from typing import Any, NamedTuple

from games.board.rules.cards import CARDS, SORRY, steps_of
from games.board.rules.geometry import SLIDES, TRACK_LEN, entry, start_exit
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

__all__ = [
    "KINDS", "Blocked", "Leg", "Option", "blocked", "candidates", "generate", "has_options",
    "match",
]

# NamedTuples built per option go through tuple.__new__ with every field given: their
# generated __new__ is a Python call per object.
_new = tuple.__new__

KINDS = ("start", "forward", "backward", "split", "switch", "sorry", "decline")
Board = tuple[tuple[int, ...], ...]


class Leg(NamedTuple):
    """One pawn's part of a move: from `src`, the card took it to `landed`, it ends on `dst`
    (after a slide). `steps` is signed (+ forward, - backward, 0 a switch or Sorry!)."""

    src: int
    landed: int
    dst: int
    steps: int
    slid: bool = False
    held: bool = False  # G1: it stayed on a triangle whose slide would pass its own E
    bumped: tuple[str, ...] = ()  # colours sent to START by this leg, the mover's own included
    other: str = ""  # a switch's or Sorry!'s opponent colour
    slide_color: str = ""  # the colour of the slide it slid on (or was held on)


assert Leg._fields == ("src", "landed", "dst", "steps", "slid", "held", "bumped", "other",
                       "slide_color")  # built by position with _new: a change is seen here


class Blocked(NamedTuple):
    """Why a pawn on `src` cannot use the card: a code of `explain` and its facts."""

    src: int
    code: str
    params: dict[str, Any]


class Option(NamedTuple):
    """One legal option. `legs`, `pawns`, `bumped`, `text`, `event` and `why(lang)` are what
    the screen and the CLI show; `board` is the engine's form of `pawns`."""

    kind: str
    card: str
    color: str
    colors: tuple[str, ...]
    moves: tuple[Leg, ...]
    board: Board
    edition: str
    wins: bool = False
    compulsory: bool = False  # a 10's back 1 when no pawn can go 10 forward
    start_move: str = "count"

    @property
    def legs(self) -> tuple[tuple[str, str], ...]:
        return tuple((name_of(leg.src), name_of(leg.dst)) for leg in self.moves)

    @property
    def bumped(self) -> tuple[str, ...]:
        return tuple(c for leg in self.moves for c in leg.bumped)

    @property
    def pawns(self) -> dict[str, tuple[str, ...]]:
        """The whole board after the option, colour -> locations in canonical order."""
        return {c: tuple(name_of(x) for x in ps) for c, ps in zip(self.colors, self.board,
                                                                  strict=True)}

    @property
    def event(self) -> dict[str, Any]:
        """The transcript's `move` event that chooses this option."""
        return {"type": "move", "legs": [list(leg) for leg in self.legs], "kind": self.kind,
                "landed": list(self.landed)}

    @property
    def landed(self) -> tuple[str, ...]:
        """Where each leg's pawn landed, before any slide."""
        return tuple(name_of(leg.landed) for leg in self.moves)

    @property
    def draw_again(self) -> bool:
        return self.edition == "classic" and self.card == "2" and not self.wins

    @property
    def text(self) -> str:
        from games.board.rules.explain import option_text
        return option_text(self)

    def label(self, lang: str = "en") -> str:
        """The option as a screen lists it, in `lang` ("en" or "fr"): squares in the
        table's words, never codes."""
        from games.board.rules.explain import option_text
        return option_text(self, lang, words=True)

    def why(self, lang: str = "en") -> str:
        from games.board.rules.explain import option_why
        return option_why(self, lang)

    def to_json(self) -> dict[str, Any]:
        """The option as `board options --json` prints it (BOARD.md), with its why."""
        return {"kind": self.kind, "legs": [list(leg) for leg in self.legs],
                "pawns": {c: list(ps) for c, ps in self.pawns.items()},
                "bumped": list(self.bumped), "text": self.text, "why": self.why("en")}


assert Option._fields == ("kind", "card", "color", "colors", "moves", "board", "edition",
                          "wins", "compulsory", "start_move")


class _SlideHere(NamedTuple):
    """A slide that triggers for one seat's pawn landing on its triangle."""

    end: int
    others: frozenset[int]  # its squares after the triangle, end included
    mask: int  # the same squares as bits (see _BIT)
    color: str
    held: bool  # G1: the pawn stays on the triangle (the slide would pass its own E)


# A one-leg move's legs, as an option holds them: (the Leg,)
Legs1 = tuple[Leg]
# A pawn's move of n steps from one square: where it lands, its legs when it bumps and
# slides nothing (shared by every option that makes it), and whether it lands on a slide
# of its seat
Move = tuple[int, Legs1, bool]


class _Seat(NamedTuple):
    """One seat's moves as tables, looked up instead of worked out at every landing."""

    forward: tuple[tuple[int | None, ...], ...]  # [n][loc]: where n forward go, or None
    backward: tuple[tuple[int | None, ...], ...]  # [n][loc], n 1 and 4
    slide: tuple[_SlideHere | None, ...]  # [loc]: the slide a landing there triggers
    # The same moves as `Move`s (None: no square n steps away), [n][loc] as above
    forward_moves: tuple[tuple[Move | None, ...], ...]
    backward_moves: tuple[tuple[Move | None, ...], ...]
    # [loc]: a 7's legs from there, 1 to 6 steps: (steps, dst, its Leg, its squares as
    # bits, whether it lands on a slide of this seat) for each that has a square
    sevens: tuple[tuple[tuple[int, int, Leg, int, bool], ...], ...]


class _Book(NamedTuple):
    """What the rules need of a table, computed once per edition, settings and colours."""

    classic: bool
    colors: tuple[str, ...]
    entry: tuple[int, ...]  # E of each seat, a track index
    exit: tuple[int, ...]  # X of each seat, a location
    seats: tuple[_Seat, ...]


# A square as a bit, so that the squares two legs of a 7 read and change are compared at
# once; START and HOME hold any number of pawns, so they are none.
_BIT = tuple(0 if loc in (START_I, HOME_I) else 1 << loc for loc in range(HOME_I + 1))
_MAX_STEPS = 12
_BACKWARD_STEPS = (1, 4)  # the 10's back 1 and the 4
_STEPS = {card: steps_of(card) for card in CARDS}  # looked up: a call per card cost more
# The cards whose every way moves one pawn n forward. No two of their ways leave the same
# board (docs/DECISIONS.md, "no repeated boards"), so their options are their ways, made
# without `_raw` and `_distinct`.
_FORWARD_ONLY = {card: _STEPS[card] for card in ("1", "2", "3", "5", "8", "12")}
# The cards two of whose ways may leave the same board: a 7 split played in either order,
# two switches or Sorry!s whose slide sweeps the same pawns, two 4s back onto a slide that
# ends where each pawn stood. The others' ways are options.
_REPEATING = frozenset(("4", "7", "11", SORRY))

_books: dict[tuple[str, tuple[str, ...], tuple[tuple[int, str], ...], str], _Book] = {}


def _new_book(key: tuple[str, tuple[str, ...], tuple[tuple[int, str], ...], str],
              settings: Settings) -> _Book:
    """The book of a table, kept in `_books` by what it depends on (`_turn`'s key: cheaper
    to look up than the whole settings, whose hash is a Python call)."""
    edition, colors = key[0], key[1]
    if len(_books) >= 128:
        _books.clear()
    found = _books[key] = _Book(
        edition == "classic", colors, tuple(entry(c) for c in colors),
        tuple(track_loc(start_exit(c)) for c in colors),
        tuple(_seat(c, edition, settings) for c in colors))
    return found


@lru_cache(maxsize=64)
def _seat(color: str, edition: str, settings: Settings) -> _Seat:
    """A colour's moves as tables: every square, every step count."""
    classic = edition == "classic"
    at_x = classic or settings.start_move == "circle"  # a started pawn stops on X
    e, x = entry(color), track_loc(start_exit(color))
    slide: list[_SlideHere | None] = [None] * (HOME_I + 1)
    for s in SLIDES:
        slide_color = settings.slide_color(s.start)
        if (slide_color != color) == classic:
            others = [track_loc(n) for n in s.squares[1:]]
            slide[track_loc(s.start)] = _SlideHere(
                track_loc(s.end), frozenset(others), sum(_BIT[x] for x in others),
                slide_color, s.start < e <= s.end)
    locs = range(HOME_I + 1)
    forward = tuple(
        tuple(_start_dst(e, x, at_x, n, classic) if loc == START_I else _forward(e, loc, n)
              for loc in locs)
        for n in range(_MAX_STEPS + 1))
    backward = tuple(tuple(_backward(e, loc, n) for loc in locs) if n in _BACKWARD_STEPS
                     else () for n in range(max(_BACKWARD_STEPS) + 1))
    forward_moves = _moves(forward, 1, classic, slide)
    sevens = tuple(tuple((a, move[0], move[1][0], _BIT[src] | _BIT[move[0]], move[2])
                         for a in range(1, 7)
                         if (move := forward_moves[a][src]) is not None)
                   for src in locs)
    return _Seat(forward, backward, tuple(slide), forward_moves,
                 _moves(backward, -1, classic, slide), sevens)


def _moves(table: tuple[tuple[int | None, ...], ...], sign: int, classic: bool,
           slide: list[_SlideHere | None]) -> tuple[tuple[Move | None, ...], ...]:
    """A table's moves as `Move`s (n steps, signed; the classic's 1 or 2 from START
    counts no step)."""
    return tuple(tuple(None if dst is None else (dst, (_new(Leg, (
        src, dst, dst, 0 if classic and src == START_I else sign * n, False, False, (), "",
        "")),), slide[dst] is not None) for src, dst in enumerate(row))
        for n, row in enumerate(table))


def _forward(e: int, loc: int, n: int) -> int | None:
    """Where n forward steps take a pawn whose safety entry is T(e), or None (overshooting
    HOME, START, HOME)."""
    if 1 <= loc <= TRACK_LEN:
        t = loc - 1
        d = (e - t) % TRACK_LEN
        if n <= d:
            return (t + n) % TRACK_LEN + 1
        k = n - d
        return TRACK_LEN + k if k <= 6 else None
    if is_safety(loc):
        k = loc - TRACK_LEN + n
        return TRACK_LEN + k if k <= 6 else None
    return None


def _backward(e: int, loc: int, n: int) -> int | None:
    if 1 <= loc <= TRACK_LEN:
        return (loc - 1 - n) % TRACK_LEN + 1
    if is_safety(loc):
        k = loc - TRACK_LEN
        return loc - n if n < k else (e - (n - k)) % TRACK_LEN + 1
    return None


def _start_dst(e: int, x: int, at_x: bool, n: int, classic: bool) -> int | None:
    """Where a pawn leaving START with n on X ends before landing checks (the classic: on
    X with a 1 or 2, else never; "circle": on X; else X is the first of n steps)."""
    if classic:
        return x if n in (1, 2) else None
    if at_x or n == 1:
        return x
    return _forward(e, x, n - 1) or x


# One colour about to play one card on one board: what every way to play it is built
# from, unpacked into locals once per function rather than passed one by one: the book,
# the board, the mover's seat, the card, the colour, the edition and the start move. A
# plain tuple: one is made per card worked out, and a NamedTuple (built by tuple.__new__,
# then freed) cost 1.4k instructions more, 2 % of a position's.
_Turn = tuple[_Book, Board, int, str, str, str, str]


def _turn(position: Position, card: str, color: str) -> _Turn:
    edition, settings, colors = position.edition, position.settings, position.colors
    key = (edition, colors, settings.slide_colors, settings.start_move)
    book = _books.get(key) or _new_book(key, settings)  # (looked up once per card: inline)
    return (book, position.pawns, colors.index(color), card, color, edition,
            settings.start_move)


def _option(t: _Turn, kind: str, legs: tuple[Leg, ...], board: Board,
            compulsory: bool = False) -> Option:
    """The option of `t` with these legs and board (it wins when the mover's sorted row
    starts with HOME). The hot paths build theirs inline, as this does."""
    book, _, seat, card, color, edition, start_move = t
    return _new(Option, (kind, card, color, book.colors, legs, board, edition,
                         board[seat][0] == HOME_I, compulsory, start_move))


# A pawn's move on a board: (seat, from, to). The moves of one option are of different
# pawns, so they may be made in any order.
Step = tuple[int, int, int]


def _moved(board: Board, seat: int, src: int, dst: int) -> Board:
    """The board after one pawn of `seat` went from `src` to `dst` (its row sorted)."""
    row = list(board[seat])
    row.remove(src)
    row.append(dst)
    row.sort()
    b = list(board)
    b[seat] = tuple(row)
    return tuple(b)


def _apply(board: Board, steps: list[Step]) -> Board:
    """The board after `steps`, every changed row sorted again (canonical)."""
    if len(steps) == 1:  # most moves: one pawn, nothing bumped
        return _moved(board, *steps[0])
    b: list[Any] = list(board)
    changed = []
    for seat, src, dst in steps:
        row = b[seat]
        if type(row) is tuple:
            row = b[seat] = list(row)
            changed.append(seat)
        row.remove(src)
        row.append(dst)
    for seat in changed:
        row = b[seat]
        row.sort()
        b[seat] = tuple(row)
    return tuple(b)


def _sweep(book: _Book, board: Board, slide: _SlideHere, seat: int, src: int,
           steps: list[Step]) -> list[str]:
    """A slide sends every pawn on its squares to START (the mover's pawn leaving `src`
    excepted): their moves added to `steps`, their colours in board order returned."""
    swept = []
    others = slide.others
    for s, row in enumerate(board):
        if others.isdisjoint(row):  # (most rows: one C call instead of a loop)
            continue
        for x in row:
            if x in others and (x != src or s != seat):
                steps.append((s, x, START_I))
                swept.append(book.colors[s])
    return swept


class _Landed(NamedTuple):
    leg: Leg
    steps: list[Step]
    touched: int  # the squares it read or changed, as bits


def _land(book: _Book, board: Board, seat: int, src: int, dst: int, steps: int,
          other: str = "") -> _Landed | None:
    """One pawn of `seat` from `src` landing on `dst` of `board`: its leg and the pawn
    moves it makes (a bump, a slide), or None when one of the mover's own pawns is there.
    `other`: the opponent a Sorry! names."""
    slide = book.seats[seat].slide[dst]
    moved: list[Step] = []
    bumped: tuple[str, ...] = ()
    if 1 <= dst <= TRACK_LEN:  # on the track (is_track, inline: this runs for every option)
        for s, row in enumerate(board):
            if dst in row:
                if s == seat:
                    return None
                moved.append((s, dst, START_I))
                bumped = (book.colors[s],)
                break
    elif dst != HOME_I and dst in board[seat]:
        return None
    if slide is None:
        moved.append((seat, src, dst))
        return _new(_Landed, (_new(Leg, (src, dst, dst, steps, False, False, bumped, other, "")),
                              moved, _BIT[src] | _BIT[dst]))
    if slide.held:
        moved.append((seat, src, dst))
        return _new(_Landed, (_new(Leg, (src, dst, dst, steps, False, True, bumped, other,
                                         slide.color)), moved, _BIT[src] | _BIT[dst]))
    swept = _sweep(book, board, slide, seat, src, moved)
    moved.append((seat, src, slide.end))
    return _new(_Landed, (_new(Leg, (src, dst, slide.end, steps, True, False,
                                     (*bumped, *swept), other, slide.color)),
                          moved, _BIT[src] | _BIT[dst] | slide.mask))


def _overshoot(book: _Book, seat: int, src: int, n: int, card: str) -> Blocked:
    if src == HOME_I:
        return Blocked(src, "home", {})
    need = (book.entry[seat] - (src - 1)) % TRACK_LEN + 6 if is_track(src) else HOME_I - src
    return Blocked(src, "overshoot", {"card": card, "steps": n, "need": need})


def _own_pawn(src: int, dst: int) -> Blocked:
    return Blocked(src, "own_pawn", {"square": name_of(dst)})


Fails = list[Blocked] | None  # None: why pawns cannot move is not asked for


def _forwards(t: _Turn, n: int, fails: Fails, only: int | None = None,
              any_one: bool = False) -> list[Option]:
    """n forward for every pawn (or the one on `only`); from START as this edition allows
    (kind "start"); `any_one`: stop at the first found."""
    book, _board, seat, _card, _color, _edition, _start = t
    return _one_legs(t, "forward", n, book.seats[seat].forward_moves[n], fails, only, any_one)


def _backwards(t: _Turn, n: int, fails: Fails, only: int | None = None,
               any_one: bool = False, compulsory: bool = False) -> list[Option]:
    book, _board, seat, _card, _color, _edition, _start = t
    return _one_legs(t, "backward", n, book.seats[seat].backward_moves[n], fails, only,
                     any_one, compulsory)


def _one_legs(t: _Turn, kind: str, n: int, moves: tuple[Move | None, ...], fails: Fails,
              only: int | None, any_one: bool, compulsory: bool = False) -> list[Option]:
    """Each pawn (or the one on `only`) moved n steps by the seat's table `moves`, as an
    option added to `out`, or why it cannot to `fails`. A move onto an empty square
    without a slide (most) is made here, the others by `_land`; `any_one`: stop at the
    first found."""
    out: list[Option] = []
    book, board, seat, card, color, edition, start_move = t
    row = board[seat]
    b = list(board)  # the rows of a new board, the mover's put in for each move
    # each location of the row with its index, in order; or only `only`, when given and
    # there. The row is sorted, so a location held twice (START, HOME) comes twice in a
    # row and is skipped the second time: the same moves again.
    sources: Iterable[tuple[int, int]] = enumerate(row) if only is None else (
        ((row.index(only), only),) if only in row else ())
    previous = -1  # (no location)
    for i, src in sources:
        if src == previous:
            continue
        previous = src
        move = moves[src]
        if move is None:
            if fails is not None:
                fails.append(_cannot(t, kind, src, n))
            continue
        dst, plain, slides = move
        if not slides:
            # Who stands on dst: only a track square is shared by the colours (a safety
            # square's number is each colour's own, HOME holds any number), so only it
            # scans every row; a track square holds one pawn: `other` is its row, and no
            # other row is equal.
            if dst <= TRACK_LEN:
                for other in board:
                    if dst in other:
                        break
                else:
                    other = None
            else:
                other = row if dst != HOME_I and dst in row else None
            if other is row:  # one of the mover's own pawns is there
                if fails is not None:
                    fails.append(_own_pawn(src, dst))
                continue
            # Nothing there, or an opponent's pawn (bumped to START), and no slide: _land,
            # _apply and _option, inline.
            mine = [*row]
            mine[i] = dst
            mine.sort()
            b[seat] = tuple(mine)
            legs = plain
            if other is not None:
                s = board.index(other)
                theirs = [START_I, *other]  # (START sorts first)
                theirs.remove(dst)
                b[s] = tuple(theirs)
                legs = (_new(Leg, (src, dst, dst, plain[0].steps, False, False,
                                   (book.colors[s],), "", "")),)
            out.append(_new(Option, ("start" if src == START_I else kind, card, color,
                                     book.colors, legs, tuple(b), edition,
                                     mine[0] == HOME_I, compulsory, start_move)))
            if other is not None:
                b[s] = other
            if any_one:
                break
            continue
        landed = _land(book, board, seat, src, dst, plain[0].steps)
        if landed is None:
            if fails is not None:
                fails.append(_own_pawn(src, dst))
            continue
        out.append(_option(t, "start" if src == START_I else kind, (landed.leg,),
                           _apply(board, landed.steps), compulsory))
        if any_one:
            break
    return out


def _cannot(t: _Turn, kind: str, src: int, n: int) -> Blocked:
    """Why the pawn on `src` has no square n steps away (`kind` "forward" or "backward")."""
    if kind == "backward":
        return Blocked(src, "home" if src == HOME_I else "start_backward", {})
    book, _board, seat, card, _color, _edition, _start = t
    if src == START_I:
        return Blocked(src, "start_card", {"card": card})
    return _overshoot(book, seat, src, n, card)


def _splits(t: _Turn, fails: Fails, only: int | None = None, any_one: bool = False,
            repeats: bool = True) -> list[Option]:
    """7 split in two forward legs a + (7 - a), each on the board the previous one left;
    the first leg's pawn the one on `only` when given; `any_one`: stop at the first found.

    Each pawn's leg of each length is worked out once, on the board before the card: when
    it bumps and slides nothing (most), it is the seat's shared Leg; else `_land`'s. A
    second leg whose squares (where it stands, lands and slides) the first leg neither
    read nor changed is the same on the board the first leg left, so the two are joined
    as they are; the other pairs are worked out on that board, one after the other.
    Two such independent legs give the same board in either order: without `repeats`,
    the second order is left out (it would only repeat a board listed before it)."""
    out: list[Option] = []
    book, board, seat, _card, _color, _edition, _start = t
    mine = board[seat]
    # each square of the row once, in order (sorted: START first, HOME last), but HOME,
    # and START in the classic (a 7 never starts a pawn there)
    movers = list(dict.fromkeys(mine))
    if movers[-1] == HOME_I:
        movers.pop()
    if movers and movers[0] == START_I and book.classic:
        del movers[0]
    starts = mine.count(START_I)
    if len(movers) + (starts > 1 and not book.classic) >= 2:
        reach = _reach(book.seats[seat], book, board, seat, movers)
        for first in movers:
            if only is not None and first != only:
                continue
            # the second leg's pawn: another pawn of the board before the card
            seconds = movers.copy()
            if first != START_I or starts < 2:  # (or a second pawn leaving START)
                seconds.remove(first)
            mirrors = not repeats and only is None
            if _pairs(t, first, seconds, reach, out, any_one, mirrors) and any_one:
                return out
    if not out and fails is not None and sum(1 for x in mine if x != HOME_I) >= 2:
        fails.append(Blocked(-1, "no_split", {}))
    return out


# One pawn's leg of a 7 of one length, on the board before the card: the squares it reads
# or changes as bits, its Leg when it bumps and slides nothing (the seat's shared one) or
# else None, `_land`'s answer when it does, and the square it lands on.
_Leg7 = tuple[int, Leg | None, _Landed | None, int]
# Each moving pawn's legs by length (index 1-6; None: no leg of that length), by its square
_Reach = dict[int, list[_Leg7 | None]]


def _reach(table: _Seat, book: _Book, board: Board, seat: int, movers: list[int]) -> _Reach:
    """Each mover's 7-legs. One list of tuples a pawn (where there were four lists and a
    NamedTuple), so that `_pairs`, which reads them some 26 times a 7, unpacks one."""
    reach = {}
    mine = board[seat]
    taken = set().union(*board)  # (of the track: the only squares the colours share)
    for src in movers:
        legs: list[_Leg7 | None] = [None] * 7
        for a, dst, leg, touched, slid in table.sevens[src]:
            if dst > TRACK_LEN:  # a safety square (each colour's own) or HOME: no slide
                if dst == HOME_I or dst not in mine:
                    legs[a] = (touched, leg, None, dst)
                continue  # (else one of the mover's own pawns is there: no leg)
            if not (slid or dst in taken):  # nobody there, no slide
                legs[a] = (touched, leg, None, dst)
            elif dst not in mine:  # (a pawn of the mover's there: no leg, as _land says)
                landed = _land(book, board, seat, src, dst, a)
                if landed is not None:
                    legs[a] = (landed.touched, None, landed, dst)
        reach[src] = legs
    return reach


def _pairs(t: _Turn, first: int, seconds: list[int], reach: _Reach, out: list[Option],
           any_one: bool, mirrors: bool) -> bool:
    """The splits whose first leg moves the pawn on `first`, added to `out`; whether any.
    `mirrors`: leave out independent pairs already listed the other way round (their
    second pawn came first, or both from START with the longer leg first).

    Two independent legs that bump and slide nothing (most) only move two pawns of the
    mover's row: that row is made here, from the row without them."""
    found = False
    book, board, seat, card, color, edition, start_move = t
    colors, forward = book.colors, book.seats[seat].forward
    rest = list(board[seat])
    rest.remove(first)
    # Each second pawn with the mover's row without both, its legs, and the longest first
    # leg an independent pair is joined with (`mirrors`: none when the second pawn comes
    # first, 3 when both leave START), unpacked once per split in the loop below.
    others = []
    for second in seconds:
        row = rest.copy()
        row.remove(second)
        longest = 6 if not mirrors or second > first else 3 if second == first else 0
        others.append((second, row, reach[second], longest))
    b = list(board)  # the rows of a new board, the mover's put in for each split
    for a, first_leg in enumerate(reach[first]):
        if first_leg is None:
            continue
        touched1, one, landed1, dst1 = first_leg
        n = 7 - a
        leg1 = one or _leg_of(landed1)
        after1: Board | None = None  # the board the first leg leaves, when needed
        for second, row, legs2, longest in others:
            second_leg = legs2[n]
            if second_leg is not None and not second_leg[0] & touched1:
                # independent: joined as found
                if a > longest:
                    continue
                two = second_leg[1]
                if one is not None and two is not None:
                    mine = [*row, dst1, second_leg[3]]
                    mine.sort()
                    b[seat] = tuple(mine)
                    out.append(_new(Option, ("split", card, color, colors, (one, two),
                                             tuple(b), edition, mine[0] == HOME_I, False,
                                             start_move)))
                else:  # one of them bumps or slides: their pawn moves made at once
                    if two is not None:
                        leg2, steps2 = two, [(seat, second, second_leg[3])]
                    else:
                        landed2 = second_leg[2]
                        assert landed2 is not None  # (a leg that is not plain)
                        leg2, steps2 = landed2.leg, landed2.steps
                    steps1 = [(seat, first, dst1)] if landed1 is None else landed1.steps
                    out.append(_option(t, "split", (leg1, leg2),
                                       _apply(board, [*steps1, *steps2])))
            else:
                if second_leg is None:  # no such leg on the board before the card
                    dst = forward[n][second]
                    if dst is None or not _BIT[dst] & touched1:
                        continue  # nor on the board after the first leg
                after1 = after1 or _after(board, seat, leg1, landed1)
                option = _after_first(t, leg1, after1, second, n)
                if option is None:
                    continue
                out.append(option)
            found = True
            if any_one:
                return True
    return found


def _leg_of(landed: _Landed | None) -> Leg:
    assert landed is not None  # (a leg of that length was found)
    return landed.leg


def _after(board: Board, seat: int, leg: Leg, landed: _Landed | None) -> Board:
    """The board after a 7's first leg (`landed`: its pawn moves, when it has more)."""
    return _moved(board, seat, leg.src, leg.dst) if landed is None else _apply(board,
                                                                               landed.steps)


def _after_first(t: _Turn, leg1: Leg, after1: Board, second: int, n: int) -> Option | None:
    """A split whose second leg (`n` steps) reads a square the first changed: worked out
    on the board the first left."""
    book, _board, seat, _card, _color, _edition, _start = t
    dst = book.seats[seat].forward[n][second]
    assert dst is not None  # (a leg of n steps, or the caller checked)
    mine = after1[seat]
    # still where it stood (not swept to START by the first leg's slide, nor its slide's end)
    if second != START_I and (second == leg1.dst or second not in mine):
        return None
    if dst != HOME_I and dst in mine:
        return None
    landed = _land(book, after1, seat, second, dst, n)
    if landed is None:
        return None
    return _option(t, "split", (leg1, landed.leg), _apply(after1, landed.steps))


def _switches(t: _Turn, fails: Fails, only: int | None = None) -> list[Option]:
    out: list[Option] = []
    book, board, seat, card, color, edition, start_move = t
    mine = [x for x in board[seat] if 1 <= x <= TRACK_LEN and (only is None or x == only)]
    theirs = sorted((x, s) for s, locs in enumerate(board) if s != seat for x in locs
                    if 1 <= x <= TRACK_LEN)
    if not mine or not theirs:
        if fails is not None:
            fails.append(Blocked(-1, "no_switch_theirs" if mine else "no_switch_mine", {}))
        return out
    slides, colors = book.seats[seat].slide, book.colors
    # Each opponent's pawn with what every switch with it needs, worked out once for every
    # pawn of mine: its row without it (sorted), its colour, and the slide it stands on
    # (`sliding`: one that moves my pawn on; else whether my pawn is held, and its colour).
    targets = []
    for x, s in theirs:
        rest = list(board[s])
        rest.remove(x)
        slide = slides[x]
        held = slide is not None and slide.held
        targets.append((x, s, rest, colors[s], None if slide is None or held else slide,
                        held, "" if slide is None else slide.color))
    b = list(board)  # the rows of a new board, the two changed put in for each switch
    for a in mine:  # a sorted row's, in order
        row = list(board[seat])
        row.remove(a)
        for x, s, rest, other, sliding, held, slide_color in targets:
            if sliding is None:
                leg = _new(Leg, (a, x, x, 0, False, held, (), other, slide_color))
                mine_after, theirs_after = [*row, x], [*rest, a]  # _apply, inline
                mine_after.sort()
                theirs_after.sort()
                b[seat], b[s] = tuple(mine_after), tuple(theirs_after)
                out.append(_new(Option, ("switch", card, color, colors, (leg,), tuple(b),
                                         edition, mine_after[0] == HOME_I, False,
                                         start_move)))
                b[s] = board[s]
                continue
            # the slide sweeps the board as it is after the swap
            swapped = _apply(board, [(seat, a, x), (s, x, a)])
            moved: list[Step] = []
            swept = _sweep(book, swapped, sliding, seat, -1, moved)
            moved.append((seat, x, sliding.end))
            leg = _new(Leg, (a, x, sliding.end, 0, True, False, tuple(swept), other,
                             slide_color))
            out.append(_option(t, "switch", (leg,), _apply(swapped, moved)))
    return out


def _sorrys(t: _Turn, fails: Fails, only: int | None = None) -> list[Option]:
    out: list[Option] = []
    book, board, seat, card, color, edition, start_move = t
    if only is not None and only != START_I:
        return out
    if START_I not in board[seat]:
        if fails is not None:
            fails.append(Blocked(-1, "sorry_needs_start", {}))
        return out
    targets = sorted((x, s) for s, locs in enumerate(board) if s != seat for x in locs
                     if 1 <= x <= TRACK_LEN)
    if not targets and fails is not None:
        fails.append(Blocked(START_I, "no_target", {}))
    slides, colors = book.seats[seat].slide, book.colors
    mine = list(board[seat])
    mine.remove(START_I)
    b = list(board)  # the rows of a new board, the two changed put in for each Sorry!
    for x, s in targets:
        other = colors[s]
        slide = slides[x]
        if slide is None or slide.held:  # the target to START, mine on its square: inline
            leg = _new(Leg, (START_I, x, x, 0, False, slide is not None, (other,), other,
                             "" if slide is None else slide.color))
            mine_after, theirs_after = [*mine, x], list(board[s])
            mine_after.sort()
            theirs_after.remove(x)
            theirs_after.insert(0, START_I)  # (START sorts first)
            b[seat], b[s] = tuple(mine_after), tuple(theirs_after)
            out.append(_new(Option, ("sorry", card, color, colors, (leg,), tuple(b), edition,
                                     mine_after[0] == HOME_I, False, start_move)))
            b[s] = board[s]
            continue
        landed = _land(book, board, seat, START_I, x, 0, other)  # bumps the target
        assert landed is not None
        out.append(_option(t, "sorry", (landed.leg,), _apply(board, landed.steps)))
    return out


def _raw(t: _Turn, fails: Fails, only: int | None = None,
         repeats: bool = True) -> list[Option]:
    """Every way to play the card, in the options' order; with `only`, those whose (first)
    leg moves the pawn on `only`, in the same order, and no decline (the caller knows).
    Without `repeats`, some ways that repeat an earlier board are left out (not all)."""
    book, board, _seat, card, _color, _edition, _start = t
    out: list[Option] = []
    if card == SORRY:
        out += _sorrys(t, fails, only)
        if not book.classic:
            out += _forwards(t, 4, fails, only)
    elif card == "4":
        out += _backwards(t, 4, fails, only)
    else:
        out += _forwards(t, _STEPS[card], fails, only)
        if card == "7":
            out += _splits(t, fails, only, repeats=repeats)
        elif card == "10":
            # the back 1 is compulsory when no pawn (not only the one asked about) can go
            # 10 forward
            compulsory = not out and (only is None or not _forwards(t, 10, None,
                                                                     any_one=True))
            out += _backwards(t, 1, fails, only, compulsory=compulsory)
        elif card == "11":
            switches = _switches(t, fails, only)
            if switches and not out and only is None:
                out += switches
                out.append(_option(t, "decline", (), board))
            else:
                out += switches
    return out


def _playable(position: Position, card: str, color: str) -> bool:
    """Whether `_raw` would find any way to play `card`, cheapest kinds first, stopping at
    the first: a forfeit check that builds no option and splits a 7 only when it must."""
    t = _turn(position, card, color)
    if card == SORRY:
        return bool(_sorrys(t, None)) or (
            not t[0].classic and bool(_forwards(t, 4, None, any_one=True)))  # (the book)
    if card == "4":
        return bool(_backwards(t, 4, None, any_one=True))
    if _forwards(t, _STEPS[card], None, any_one=True):
        return True
    if card == "7":
        return bool(_splits(t, None, any_one=True))
    if card == "10":
        return bool(_backwards(t, 1, None, any_one=True))
    if card == "11":
        return bool(_switches(t, None))
    return False


class _Analysis:
    """A card worked out for one position: every way to play it (boards repeated), the
    distinct ones as options, and why pawns cannot move (worked out only when asked: a
    forfeit, a refused move)."""

    __slots__ = ("_blocked", "_ways", "key", "options")

    def __init__(self, key: tuple[Position, str, str], ways: tuple[Option, ...] | None,
                 options: tuple[Option, ...], fails: list[Blocked] | None = None) -> None:
        self.key, self._ways, self.options = key, ways, options
        self._blocked = None if fails is None else _reasons(fails)

    @property
    def has_ways(self) -> bool:
        """Whether every way to play the card is already worked out."""
        return self._ways is not None

    @property
    def ways(self) -> tuple[Option, ...]:
        """Every way to play the card, boards repeated (worked out again when the
        distinct ones were found without the repeats)."""
        if self._ways is None:
            self._ways = tuple(_raw(_turn(*self.key), None))
        return self._ways

    @property
    def blocked(self) -> tuple[Blocked, ...]:
        """Each reason once (per pawn and code), in the order found."""
        if self._blocked is None:
            fails: list[Blocked] = []
            _raw(_turn(*self.key), fails)
            self._blocked = _reasons(fails)
        return self._blocked


def _reasons(fails: list[Blocked]) -> tuple[Blocked, ...]:
    """Each reason once (per pawn and code), in the order found."""
    first: dict[tuple[int, str], Blocked] = {}
    for f in fails:
        first.setdefault((f.src, f.code), f)
    return tuple(first.values())


# What `_Analyses` keeps an analysis by: the position's pawns and colours, card, colour
_Key = tuple[Board, tuple[str, ...], str, str]


class _Analyses:
    """Each card worked out once per position (a turn asks for it at the draw, on the
    screen and at the move): the newest `size` kept, and `get` tells whether one is
    kept, so a forfeit check or a transcript's move uses it when it is there and a
    cheaper path when it is not. `cache_clear` as functools.lru_cache's."""

    def __init__(self, size: int) -> None:
        self.size = size
        # An OrderedDict: dropping the oldest is O(1) (a dict's next(iter()) walks over
        # every slot freed since it was last resized, which made each new key O(size)).
        # Keyed by the pawns, colours, card and colour, all hashed in C (a Position's hash
        # is a Python call, and a key is hashed twice per card worked out); the analysis
        # found is of this very position only when its edition and settings agree too.
        self._kept: OrderedDict[_Key, _Analysis] = OrderedDict()

    def get(self, position: Position, card: str, color: str) -> _Analysis | None:
        found = self._kept.get((position.pawns, position.colors, card, color))
        if found is None or found.key[0] is position or found.key[0] == position:
            return found
        return None

    def cache_clear(self) -> None:
        self._kept.clear()

    def __call__(self, position: Position, card: str, color: str,
                 reasons: bool = False) -> _Analysis:
        return self.work(position, card, color, reasons)

    def work(self, position: Position, card: str, color: str,
             reasons: bool = False) -> _Analysis:
        """The card worked out (`reasons`: why pawns cannot move too, in the same pass,
        when it is worked out now)."""
        kept = self._kept
        key = (position.pawns, position.colors, card, color)
        found = kept.get(key)
        if found is None or (found.key[0] is not position and found.key[0] != position):
            new = found is None  # (else another edition's or settings' analysis, replaced)
            found = _work_out((position, card, color), [] if reasons else None)
            if new and len(kept) >= self.size:
                kept.popitem(last=False)  # the oldest
            kept[key] = found
        return found



_board_of = itemgetter(5)  # an option's board, read in C
assert Option._fields[5] == "board"


def _work_out(key: tuple[Position, str, str], fails: list[Blocked] | None) -> _Analysis:
    card = key[1]
    t = _turn(*key)
    n = _FORWARD_ONLY.get(card)
    if n is not None:  # most cards: one pawn forward, straight to the table's moves
        options = tuple(_one_legs(t, "forward", n, t[0].seats[t[2]].forward_moves[n],
                                  fails, None, False))  # (the book's table of the seat)
        return _Analysis(key, options, options, fails)
    repeats = card != "7"  # a 7's splits are found without their repeats, and
    ways = _raw(t, fails, repeats=repeats)  # again when asked for
    if card not in _REPEATING:
        options = tuple(ways)
        return _Analysis(key, options, options, fails)
    options = _distinct(ways)
    return _Analysis(key, (options if len(options) == len(ways) else tuple(ways))
                     if repeats else None, options, fails)


def _distinct(ways: list[Option]) -> tuple[Option, ...]:
    """The first way to each board, in order (a decline, the last way when there is one,
    is distinct from the moves), without a loop in Python: each board is mapped to the
    index of its first way (the ways walked backwards, so the first written last)."""
    count = len(ways)
    if count < 2 or (ways[-1][0] != "decline" and len(set(map(_board_of, ways))) == count):
        return tuple(ways)  # every board differs (most cards): the cheapest check
    declined = ways[-1][0] == "decline"
    made = count - declined  # the ways that move a pawn
    first = dict(zip(map(_board_of, reversed(ways[:made])), range(made - 1, -1, -1),
                     strict=True))
    kept = sorted(first.values())
    if declined:
        kept.append(made)
    return tuple(map(ways.__getitem__, kept))


_analyse = _Analyses(256)


def has_options(position: Position, card: str, color: str) -> bool:
    """Whether the card has any option (a forfeit when not), without building them."""
    found = _analyse.get(position, card, color)
    return bool(found.options) if found is not None else _playable(position, card, color)


def candidates(position: Position, card: str, color: str) -> tuple[Option, ...]:
    """Every way to play `card`, boards repeated: what a transcript's legs may name."""
    return _analyse(position, card, color).ways


def generate(position: Position, card: str, color: str) -> tuple[Option, ...]:
    """Every legal option, one per distinct resulting board (decline: the board unchanged)."""
    return _analyse.work(position, card, color).options  # (a method: cheaper than a call)


def blocked(position: Position, card: str, color: str) -> tuple[Blocked, ...]:
    """Why each pawn cannot use `card` (meaningful when `generate` is empty), each reason
    once, in the order found."""
    return _analyse(position, card, color, reasons=True).blocked


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
    ways: Iterable[Option]
    if found is not None and (found.has_ways or not want):
        ways = found.ways if found.has_ways else found.options  # a decline is distinct
    else:  # a transcript's move (replay, resume): only the named pawn's ways, in order
        ways = _raw(_turn(position, card, color), None, only=want[0][0])
    want_landed = None if landed is None else tuple(LOC[x] for x in landed)
    for option in ways:
        if kind is not None and option.kind != kind:
            continue
        moved = option.moves
        if len(moved) != len(want) or (want and moved[0].src != want[0][0]):
            continue  # (every way below names the first leg's pawn)
        if want_landed is not None and tuple(leg.landed for leg in moved) != want_landed:
            continue
        if all((leg.src, leg.dst) == w for leg, w in zip(moved, want, strict=True)) or (
                option.kind in ("switch", "sorry") and len(want) == 1
                and (moved[0].src, moved[0].landed) == want[0]):
            return option
    return None
