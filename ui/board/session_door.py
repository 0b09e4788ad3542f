"""The board screen's door onto the live game: the session, the journal and the board
engine (companion.games.board). Until the engine is merged this door has no game to open.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion.errors import BadSetup
from ui.board.door import BoardSnapshot


class SessionDoor:
    def __init__(self, session: Any) -> None:
        self.session = session

    def snapshot(self) -> BoardSnapshot | None:
        return None

    def new_game(self, setup: dict[str, Any], *, companion_draws: bool) -> None:
        raise BadSetup("the board game's rules are not installed in this version",
                       code="no_board_engine")

    def subscribe(self, listener: Callable[[], None]) -> Callable[[], None]:
        return self.session.subscribe(lambda _update: listener())

    def draw(self, card: str | None) -> None:  # pragma: no cover - no game can be open
        raise BadSetup("no board game is open", code="no_game")

    move = place = undo = redo = draw  # type: ignore[assignment]
