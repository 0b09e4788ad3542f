"""Hand-written board positions and a door that serves them, for the board screen's tests
before (and beside) the engine: the screen is built against BOARD.md's JSON contracts."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion.errors import IllegalEvent
from games.board.rules import RULES, BoardSetup, Draw, Move, NoPlay, Place
from games.board.screens.door import BoardSnapshot

FULL_DECK = {"1": 5, "2": 4, "3": 4, "4": 4, "5": 4, "7": 4, "8": 4, "10": 4, "11": 4,
             "12": 4, "sorry": 4}


def position(pawns: dict[str, list[str]], *, turn: str | None = "Ana", card: str | None = None,
             winner: str | None = None, edition: str = "classic",
             names: dict[str, str] | None = None, draw_pile: int = 45,
             settings: dict[str, Any] | None = None) -> dict[str, Any]:
    """A state dict as `replay --json` prints it."""
    names = names or {"red": "Ana", "blue": "Ben", "yellow": "Cy", "green": "Dee"}
    out: dict[str, Any] = {
        "game": "board", "edition": edition,
        "players": [{"name": names[c], "color": c, "pawns": list(p),
                     "home": p.count("HOME")} for c, p in pawns.items()],
        "turn": turn, "card": card, "winner": winner, "draw_pile": draw_pile,
        "remaining": dict(FULL_DECK),
    }
    if settings:
        out["settings"] = settings
    return out


class ScriptDoor:
    """A scripted board game (games.board.screens.door.BoardLive): serves the snapshot a
    test sets and records every typed event the screen submits, as (what, fields). It is
    no engine: what an event leads to is the next snapshot the test sets. `update` is None
    (no engine's update to read); `state` is a real new game's, for the electronic deck to
    deal from."""

    update = None

    def __init__(self, snap: BoardSnapshot | None = None) -> None:
        self.snap = snap
        self.calls: list[tuple[Any, ...]] = []
        self.refuse: str | None = None
        self._listeners: list[Callable[[Any], None]] = []
        self.state = RULES.initial_state(RULES.parse_setup(
            {"type": "setup", "game": "board", "players": ["Ana", "Ben"]}))

    def show(self, snap: BoardSnapshot) -> None:
        self.snap = snap
        for listener in list(self._listeners):
            listener(None)

    def snapshot(self) -> BoardSnapshot | None:
        return self.snap

    def subscribe(self, listener: Callable[[Any], None]) -> Callable[[], None]:
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    def _call(self, *call: Any) -> None:
        if self.refuse:
            raise IllegalEvent(self.refuse, code="scripted")
        self.calls.append(call)

    def new_game(self, setup: BoardSetup, *, abandon: bool = False) -> None:
        self._call("new_game", setup.to_json())

    def submit(self, event: Any, by: str = "touch") -> None:
        if isinstance(event, Draw):
            self._call("draw", event.card)
        elif isinstance(event, Move):
            self._call("move", [list(leg) for leg in event.legs])
        elif isinstance(event, NoPlay):
            self._call("no_play", event.discard)
        elif isinstance(event, Place):
            self._call("place", event.color, event.src, event.dst)
        else:
            self._call(type(event).__name__.lower(),)  # undo, redo


def board_shown(driver: Callable[..., Any], snap: BoardSnapshot, lang: str
                ) -> tuple[Any, ScriptDoor]:
    """The real app's board screen drawing `snap` (a scripted game) in `lang`: the driver
    and the door recording what the screen submits."""
    door = ScriptDoor(snap)
    d = driver(board_door=door, language=lang)
    d.app.show("board")
    d.app.models["board"].refresh()
    return d, door
