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

        door = SessionDoor(app.session, data_dir=app.data_dir)
    return BoardModel(door, speak=app.voice.say, lang=app.lang)


def describe_stored(state: Any, lang: str) -> str:
    """The resume screen's line for an unfinished board game."""
    from companion.games import get
    from ui.board.texts import bt

    position = get("board").state_json(state)
    players = ", ".join(p["name"] for p in position["players"])
    turn = position.get("turn")
    return bt("b_resume", lang, players=players, turn=turn or "")


def resume_board_game(app: Any) -> bool:
    """After the session resumed a game: show it on the board screen if it is a board
    game (True), else leave it to the card table (False)."""
    update = app.session.update
    if update is None or update.game != "board":
        return False
    app.board.refresh()
    app.show("board")
    return True


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


# The board game's columns in the history's leaderboard (companion.games.board.stats).
BOARD_COLUMNS = ("bumps", "sorrys", "pawns_home")


def board_leaders(grid: Any, leaders: list[Any], lang: str) -> None:
    """The board game's own rows under the card game's in the history's 6-column grid."""
    from kivy.factory import Factory

    from ui.board.texts import bt
    from ui.i18n import tr

    if not leaders:
        return
    heads = (bt("b_title", lang), tr("lb_games", lang), tr("lb_wins", lang),
             *(bt(f"st_{c}", lang) for c in BOARD_COLUMNS))
    for text in heads:
        grid.add_widget(Factory.StatCell(text=text, bold=True))
    for p in leaders:
        for value in (p.name, p.games, p.wins, *(p.counters.get(c, 0) for c in BOARD_COLUMNS)):
            grid.add_widget(Factory.StatCell(text=str(value)))


def board_seat_key(app: Any, seat: int) -> bool:
    """Laptop keys 1-4 during a board game: the seat's button, "Draw" for that seat
    (hardware.board_presses); a refusal is the board screen's one sentence."""
    from companion.errors import REFUSALS
    from hardware.board_presses import board_seat_draw

    door = app.board.door
    try:
        board_seat_draw(app.session, seat, lambda: bool(getattr(door, "companion_draws", False)))
    except REFUSALS as exc:
        from ui.wording import refusal

        app.board.message = refusal(exc, app.lang)
    return True
