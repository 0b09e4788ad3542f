"""Several renames in one folder as one step: done in order, undone in reverse on failure.

A restore changes a few names (the journal, its -wal and -shm, the small files). One
rename is atomic, a list of them is not; so every move is prepared to be undone by a
rename too before the first is made (a file a move replaces waits under a safety name,
linked there beforehand), a failure in the middle moves back what was moved, and
`SwapFailed` says whether that worked and, if not, where each file is now.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["Swap", "SwapFailed"]


class SwapFailed(OSError):
    """A move failed; `undone` says whether the folder is as it was, `where` (when it is
    not) where the moved files are now."""

    def __init__(self, cause: OSError, undone: bool, where: tuple[str, ...] = ()) -> None:
        super().__init__(cause.errno, cause.strerror or str(cause))
        self.undone = undone
        self.where = where


@dataclass(frozen=True, slots=True)
class _Move:
    source: Path
    target: Path
    aside: bool  # a file moved out of the way: undone by moving it back
    kept: Path | None  # (into place) the target's old file, linked here beforehand

    def undo(self) -> None:
        if self.aside:
            os.replace(self.target, self.source)
        elif self.kept is not None:
            os.replace(self.kept, self.target)  # the old file back under its name
        else:
            os.unlink(self.target)


@dataclass
class Swap:
    """The moves of one step, in the order they are to be made."""

    moves: list[_Move] = field(default_factory=list)

    def aside(self, source: Path, target: Path) -> None:
        """Move `source` out of the way to `target` (a name nothing has)."""
        self.moves.append(_Move(source, target, True, None))

    def into_place(self, source: Path, target: Path, kept: Path | None) -> None:
        """Put `source` in `target`'s place; `kept`: the old target, already linked there."""
        self.moves.append(_Move(source, target, False, kept))

    def run(self) -> None:
        """Every move, or none: SwapFailed after moving back what was moved."""
        done: list[_Move] = []
        for move in self.moves:
            try:
                os.replace(move.source, move.target)
            except OSError as exc:
                raise self._undo(done, exc) from exc
            done.append(move)

    @staticmethod
    def _undo(done: list[_Move], cause: OSError) -> SwapFailed:
        stuck: list[str] = []
        for move in reversed(done):
            try:
                move.undo()
            except OSError:
                stuck.append(f"{move.source.name} is kept as {move.target}" if move.aside
                             else f"{move.target.name} is the backup's")
        return SwapFailed(cause, not stuck, tuple(stuck))
