"""Where the board game plugs into the app: its screens, its model, starting a game.

Kept out of ui/app.py so the app gains only a few lines for the board game.
"""

from __future__ import annotations

from typing import Any

from ui.board.door import BoardDoor
from ui.board.model import BoardModel

# Each screen: its .kv file (under ui/), module and class, as in ui.app.SCREENS.
BOARD_SCREENS = {
    "board": ("board/board.kv", "ui.board.board_screen", "BoardScreen"),
    "board_menu": ("board/board.kv", "ui.board.board_screen", "BoardMenuScreen"),
    "board_rules": ("board/board.kv", "ui.board.board_screen", "BoardRulesScreen"),
    "board_setup": ("board/board.kv", "ui.board.setup_screen", "BoardSetupScreen"),
}


def make_board_model(app: Any, door: BoardDoor | None = None) -> BoardModel:
    if door is None:
        from ui.board.session_door import SessionDoor

        door = SessionDoor(app.session)
    return BoardModel(door, speak=app.voice.say, lang=app.lang)


def open_board_setup(app: Any, players: list[str], colors: list[str], first: str) -> None:
    app.screen("board_setup").offer(players, colors, first)
    app.show("board_setup")


def start_board_game(app: Any, setup: dict[str, Any], *, companion_draws: bool) -> str | None:
    """Start a board game; None, or the one sentence saying why it cannot start."""
    from companion.errors import CompanionError
    from ui.wording import refusal

    door = app.board.door
    try:
        door.new_game(setup, companion_draws=companion_draws)
    except CompanionError as exc:
        return refusal(exc, app.lang)
    app.board.refresh()
    app.show("board")
    return None
