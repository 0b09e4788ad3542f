"""Layouts that skip a pass that would move nothing.

Kivy runs a layout's pass whenever anything it watches is dispatched: a child's size
it set itself in its own pass (so a box that resized a child runs again at once), a
panel taken off and put back at the size it had, a parent set again. A board tap ran 6-7
BoxLayout passes and the card pad's GridLayout pass, and 3-4 of them set every child to
where it already was.

A pass reads its own place, size and settings and each child's hints (and the size of a
child in the directions it has no hint for) and sets each child's place and hinted size,
and its own minimum size (kept with the rest: a pass skipped after another state's had left
the minimum of that other state, which the option rows' height follows).
`StillBox` and `StillGrid` note all of that after a pass (when nothing the pass read
changed during it: a cascade from a child's new size is run again, as Kivy would), and a
pass that finds everything as noted after one of its last NOTED passes is skipped: it
would set what is already there (the action area's panels come and go, each noted).
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout

NOTED = 4  # a layout's last passes' states kept: the action area shows 4 panels at most
State = tuple[tuple[Any, ...], tuple[Any, ...], tuple[Any, ...]]  # own, inputs, outputs


def _children_state(layout: Any) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """What a pass reads of each child (its hints; its size where it has no hint) and
    what it sets (its place; its size where it has a hint)."""
    ins: list[Any] = []
    outs: list[Any] = []
    for c in layout.children:
        shx, shy = c.size_hint_x, c.size_hint_y
        hint = c.pos_hint
        ins.append((c, shx, shy, c.size_hint_min_x, c.size_hint_min_y, c.size_hint_max_x,
                    c.size_hint_max_y, tuple(hint.items()) if hint else (),
                    c.width if shx is None else None, c.height if shy is None else None))
        outs.append((c.x, c.y, c.width if shx is not None else None,
                     c.height if shy is not None else None))
    return tuple(ins), tuple(outs)


class _Still:
    """The skip, for a layout class whose `_own_state` lists what its pass reads of it."""

    _noted: OrderedDict[State, None] | None = None
    minimum_size: Any  # the layout's own (Kivy's BoxLayout and GridLayout have one)
    layout_passes = 0  # passes run (not skipped): the tests count them

    def _own_state(self) -> tuple[Any, ...]:
        raise NotImplementedError

    def _state(self) -> State:
        ins, outs = _children_state(self)
        # the pass sets its own minimum size too (the option rows' height follows it)
        return self._own_state(), ins, (*outs, tuple(self.minimum_size))

    def do_layout(self, *largs: Any) -> None:
        noted = self._noted
        if noted is None:
            noted = self._noted = OrderedDict()
        before = self._state()
        if before in noted:
            noted.move_to_end(before)
            return
        self.layout_passes += 1
        super().do_layout(*largs)  # type: ignore[misc]  # BoxLayout's or GridLayout's
        after = self._state()
        # noted only when nothing the pass read changed while it ran (then it runs again)
        if after[:2] == before[:2]:
            noted[after] = None
            while len(noted) > NOTED:
                noted.popitem(last=False)


class StillBox(_Still, BoxLayout):
    """A BoxLayout that skips a pass that would move nothing."""

    def _own_state(self) -> tuple[Any, ...]:
        return (self.x, self.y, self.width, self.height, tuple(self.padding), self.spacing,
                self.orientation)


class StillGrid(_Still, GridLayout):
    """A GridLayout that skips a pass that would move nothing."""

    def _own_state(self) -> tuple[Any, ...]:
        return (self.x, self.y, self.width, self.height, tuple(self.padding),
                tuple(self.spacing), self.cols, self.rows, self.orientation,
                self.col_default_width, self.row_default_height, self.col_force_default,
                self.row_force_default, tuple(self.cols_minimum.items()),
                tuple(self.rows_minimum.items()))
