"""Watching a recording as `camera watch-board` does: the GAME file's draws told to the
watcher at their frames, whose turn each is, what it printed (needs the extra)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from games.board.camera.model import BoardModel
from games.board.camera.watch import BoardWatcher, Judgement
from games.board.rules.position import Position
from games.board.rules.settings import Settings


@dataclass(frozen=True)
class DrawLine:
    """One card drawn: the frame it was drawn at, the card, the position before it."""

    frame: int
    card: str
    position: Position


def colors_to_play(setup: dict[str, Any], draws: Iterable[DrawLine]) -> Iterator[str]:
    """Whose turn each draw is: the setup's first player's colour, then clockwise round
    the seated colours, the classic edition's 2 drawing again (BOARD.md "A turn")."""
    colors = list(setup["colors"])
    turn = list(setup["players"]).index(setup["first"])
    for line in draws:
        yield colors[turn % len(colors)]
        if not (line.position.edition == "classic" and line.card == "2"):
            turn += 1


def watch(frames: Iterable[Any], model: BoardModel, setup: dict[str, Any],
          draws: list[DrawLine], fps: float) -> Iterator[Judgement]:
    """Every judgement the watcher makes over `frames`, in frame order."""
    watcher = BoardWatcher(model, fps)
    colors = list(colors_to_play(setup, draws))
    upcoming = sorted(range(len(draws)), key=lambda i: draws[i].frame)
    for index, frame in enumerate(frames):
        while upcoming and draws[upcoming[0]].frame <= index:
            k = upcoming.pop(0)
            watcher.drawn(k, draws[k].position, draws[k].card, colors[k])
        found = watcher.feed(frame)
        if found is not None:
            yield found


def settings_for(setup: dict[str, Any]) -> Settings:
    return Settings.parse(setup.get("settings"), setup["edition"])
