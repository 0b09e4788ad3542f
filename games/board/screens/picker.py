"""Which taps on the board pick which listed option: pure Python, no Kivy.

The engine lists every legal option of the drawn card (BOARD.md "Contract: positions and
options"); the scorekeeper picks one by tapping a pawn, then where it goes, once per leg
(a 7 split: two legs). The picker never decides what is legal: it only narrows the
engine's list with each tap, highlights what the next tap may be, and says when one option
is left. Several options left after every leg (rare: two boards reached by the same
taps) are offered as a list.

Where a finger may land for a leg's destination: the square the pawn ends on; for a
switch or a Sorry!, also the opponent's pawn it lands on. A tap on a slide's triangle
names the slide's end when that is a destination (the card put the pawn there). A split
may be tapped in either order (the engine lists each resulting board once, in one order).

A pawn with one destination, whose move ends the option, moves at its one tap (issue
35: three taps a move were the rule); where the pawn may go to two places, or is the
first leg of a split, the second tap says where.

>>> opts = [{"kind": "forward", "legs": [["T5", "T10"]], "pawns": {}},
...         {"kind": "start", "legs": [["START", "T4"]], "pawns": {}},
...         {"kind": "forward", "legs": [["T20", "T25"]], "pawns": {}},
...         {"kind": "backward", "legs": [["T20", "T15"]], "pawns": {}}]
>>> p = Picker(opts, "red", {"red": ["START", "T5", "T20"]})
>>> sorted(p.sources())
['T20', 'T5', 'red:START']
>>> p.tap("T5")[:2]
('done', (0,))
>>> p.reset(); p.tap("T20").what, p.targets()
('selected', ['T15', 'T25'])
>>> p.tap("T25")[:2]
('done', (2,))
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import permutations
from typing import Any, NamedTuple

from games.board.rules import geometry as g
from games.board.screens.layout import key

Step = tuple[str, frozenset[str]]  # (the pawn's board key, where the finger may land)


class Tap(NamedTuple):
    """What a tap did: `selected`/`deselected` a pawn, picked a `leg` (more to come),
    `done` (one option left: `options[0]`), `ambiguous` (pick among `options`), or
    `refused` with the reason's code: `cannot_move` (no listed option moves what was
    tapped) or `not_there` (the tapped pawn cannot go there)."""

    what: str
    options: tuple[int, ...] = ()
    reason: str = ""


def _slide_triangle(to: str) -> str | None:
    """The triangle of the slide that ends on `to`, if `to` is a slide's end."""
    for slide in g.SLIDES:
        if to == f"T{slide.end}":
            return f"T{slide.start}"
    return None


def _vacated(before: dict[str, list[str]], after: dict[str, Any], mover: str) -> set[str]:
    """Track squares an opponent's pawn left in this option (a switch's or Sorry!'s target)."""
    out: set[str] = set()
    for color, pawns in before.items():
        if color == mover:
            continue
        gone = Counter(pawns) - Counter(after.get(color, pawns))
        out |= {loc for loc in gone if loc.startswith("T")}
    return out


def paths(option: dict[str, Any], mover: str, before: dict[str, list[str]]) -> list[list[Step]]:
    """Every order of taps that picks `option`: its legs in the listed order first."""
    steps: list[Step] = []
    special = option.get("kind") in ("switch", "sorry")
    legs = option.get("legs", [])
    landed = option.get("landed") or [None] * len(legs)
    for (frm, to), land in zip(legs, landed, strict=False):
        if special and land is not None:  # the opponent's square the pawn landed on
            extra = {key(land, mover)}
        elif special:
            extra = _vacated(before, option.get("pawns", {}), mover)
        else:
            extra = set()
        targets = {key(to, mover), *extra}
        steps.append((key(frm, mover), frozenset(targets)))
    if len(steps) < 2:
        return [steps]
    return [list(order) for order in permutations(steps)]


class Picker:
    """The taps of one turn so far, over the engine's options for the drawn card."""

    def __init__(
        self, options: Sequence[dict[str, Any]], mover: str, before: dict[str, list[str]]
    ) -> None:
        self.options = list(options)
        self.mover = mover
        self._paths = [paths(o, mover, before) for o in self.options]
        self.chosen: list[tuple[str, str]] = []  # legs tapped so far: (pawn, landed)
        self.selected: str | None = None  # the pawn tapped for the next leg

    # --- what the board highlights ---

    def _alive(self) -> list[tuple[int, list[Step]]]:
        """(option, path) pairs whose first steps match the legs tapped so far."""
        n = len(self.chosen)
        out = []
        for i, ps in enumerate(self._paths):
            out += [(i, p) for p in ps if len(p) > n and self._matches(p)]
        return out

    def sources(self) -> list[str]:
        """The pawns the next leg may move (board keys), in a stable order."""
        n = len(self.chosen)
        return sorted({p[n][0] for _i, p in self._alive()})

    def targets(self) -> list[str]:
        """Where the selected pawn may go (board keys); empty before a pawn is tapped."""
        if self.selected is None:
            return []
        n = len(self.chosen)
        return sorted(
            {t for _i, p in self._alive() if p[n][0] == self.selected for t in p[n][1]}
        )

    def remaining(self) -> list[int]:
        """The options still possible after the legs tapped so far."""
        n = len(self.chosen)
        if n == 0:
            return list(range(len(self.options)))
        done = self._complete()
        return sorted(done | {i for i, _p in self._alive()})

    def _matches(self, path: list[Step]) -> bool:
        """The legs tapped so far are the first steps of `path`."""
        return all(path[j][0] == frm and landed in path[j][1]
                   for j, (frm, landed) in enumerate(self.chosen))

    def _complete(self) -> set[int]:
        """Options whose every leg has been tapped."""
        n = len(self.chosen)
        return {i for i, ps in enumerate(self._paths) for p in ps
                if len(p) == n and self._matches(p)}

    def fitting(self, board_keys: Sequence[str]) -> list[int]:
        """The options a finger covering several highlighted places may mean (places too
        close together to tell apart): the next tap's pawn or destination among them."""
        n, wanted = len(self.chosen), set(board_keys)
        return sorted({
            i for i, p in self._alive()
            if (p[n][0] in wanted if self.selected is None
                else p[n][0] == self.selected and bool(p[n][1] & wanted))
        })

    # --- taps ---

    def reset(self) -> None:
        self.chosen, self.selected = [], None

    def tap(self, board_key: str) -> Tap:
        targets = self.targets()
        if board_key not in targets:  # the slide's triangle names the slide's end
            board_key = next((t for t in targets if _slide_triangle(t) == board_key), board_key)
        if self.selected is not None and board_key in targets:
            self.chosen.append((self.selected, board_key))
            self.selected = None
            done = self._complete()
            if len(done) == 1:
                return Tap("done", tuple(done))
            if len(done) > 1:
                return Tap("ambiguous", tuple(sorted(done)))
            return Tap("leg", tuple(self.remaining()))
        if board_key == self.selected:
            self.selected = None
            return Tap("deselected")
        if board_key in self.sources():
            self.selected = board_key
            return self._only_way() or Tap("selected")
        return Tap("refused", reason="not_there" if self.selected else "cannot_move")

    def _only_way(self) -> Tap | None:
        """The selected pawn's move when it has one destination and that move ends the
        option (its last leg, the only option left through it): taken at this one tap,
        Undo one tap away. None where the next tap still has something to choose."""
        n = len(self.chosen)
        through = [(i, p) for i, p in self._alive() if p[n][0] == self.selected]
        if len({i for i, _p in through}) != 1:
            return None
        index, path = through[0]
        if len(path) != n + 1:  # a leg of a split comes after this one
            return None
        assert self.selected is not None
        # (a Sorry! onto a triangle may be tapped at two squares: one destination still)
        self.chosen.append((self.selected, sorted(path[n][1])[0]))
        self.selected = None
        return Tap("done", (index,))
