"""A one-slot mailbox: writers put the newest value, one worker thread takes it.

The session calls its listeners with its lock held, so they may only hand the state on.
`put` never blocks on I/O and never grows: a worker that falls behind skips straight to
the newest state, which is all a lamp or the LED board needs (every update is whole).
"""

from __future__ import annotations

import threading
from typing import Generic, TypeVar

T = TypeVar("T")


class Latest(Generic[T]):
    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._value: T | None = None
        self._fresh = False
        self._closed = False

    def put(self, value: T) -> None:
        with self._cond:
            self._value = value
            self._fresh = True
            self._cond.notify()

    def take(self, timeout: float | None) -> tuple[bool, T | None]:
        """Wait up to `timeout` s for a value not yet taken: (True, it) or (False, the last)."""
        with self._cond:
            if not self._fresh and not self._closed:
                self._cond.wait(timeout)
            fresh, self._fresh = self._fresh, False
            return fresh, self._value

    def peek(self) -> T | None:
        with self._cond:
            return self._value

    def close(self) -> None:
        """Wake the worker for good: `take` returns at once from now on."""
        with self._cond:
            self._closed = True
            self._cond.notify_all()

    @property
    def closed(self) -> bool:
        return self._closed
