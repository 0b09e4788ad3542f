"""Enum members as plain class attributes, for the hot paths of replay.

In Python 3.11 (Raspberry Pi OS Bookworm's) `Kind.MEMBER` on an Enum class goes through
EnumType's `__getattr__` hook: about 0.3 us a look-up here (about 1.2 us on a Pi), twenty
times a plain class attribute, and the card engine read a dozen per event. Python 3.12
dropped the hook. The members are the very same objects, so `is` compares them as before.

>>> from enum import Enum
>>> class Kind(Enum):
...     A = "a"
>>> members(Kind).A is Kind.A
True
"""

from __future__ import annotations

from enum import Enum
from typing import TypeVar, cast

__all__ = ["members"]

E = TypeVar("E", bound=Enum)


def members(enum: type[E]) -> type[E]:
    """A plain class whose attributes are `enum`'s members (typed as the enum itself)."""
    return cast("type[E]", type(f"{enum.__name__}Members", (), dict(enum.__members__)))
