"""A widget's `pos`, `size`, `size_hint` (any ReferenceListProperty) read without an
exception.

Kivy 2.3.1's ReferenceListProperty refreshes its list from the properties it joins on
every read (`get`), on every change of one of them (`trigger_change`) and on every set,
by calling `ObservableReferenceList.__setslice__(0, n, values, update_properties=False)`
first and `__setitem__(slice(n), ...)` when that raises AttributeError. `__setslice__`
is its Python 2 method: it calls `list.__setslice__`, which Python 3 lists do not have,
so every read of a widget's `pos` or `size` raised, tracebacked and caught an
AttributeError (about 4,000 instructions a read; a layout pass reads four of them per
child). A board tap read them about 630 times: a fifth of its instructions.

`_setslice` does what the fallback does (the list's slice set; the joined properties
set only when asked, as Kivy's `__setitem__` does), so the first call succeeds. It stands
in from this module's import (ui.kvload imports it, before any screen is built).
"""

from __future__ import annotations

from typing import Any

from kivy.properties import ObservableReferenceList

_list_setitem = list.__setitem__


def _setslice(self: Any, start: int, stop: int, value: Any,
              update_properties: bool = True) -> None:
    """`self[start:stop] = value` on the list itself; with `update_properties`, the
    joined properties too (as ObservableReferenceList.__setitem__ does)."""
    _list_setitem(self, slice(start, stop), value)
    if update_properties:
        self.prop.setitem(self.obj(), slice(start, stop), value)


ObservableReferenceList.__setslice__ = _setslice
