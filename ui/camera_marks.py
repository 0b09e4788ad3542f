"""Which logged steps the camera made, so an undo label can say "seen by the camera".

The camera submits through the Session exactly as a tap does, so the step itself does
not say who made it; the camera link marks the state each of its cards led to, and a
screen asks `by_camera(step)` when it words its undo button. Only the last MARKS are kept:
an undo label only ever names a recent step.
"""

from __future__ import annotations

import threading
from collections import deque
from typing import Any

MARKS = 64
_after: deque[Any] = deque(maxlen=MARKS)
_lock = threading.Lock()


def mark(state: Any) -> None:
    """The camera's card led to `state` (a Result's state, on the worker's thread)."""
    with _lock:
        _after.append(state)


def by_camera(step: Any) -> bool:
    """Whether `step` (a Session undo/redo step) is one the camera logged."""
    if step is None:
        return False
    with _lock:
        return any(step.after is state for state in _after)
