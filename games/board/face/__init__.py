"""The Sorry! board game on the hardware: a seat's button is "Draw" for that seat when
the companion draws the cards; the LED board shows each seat's pawns HOME and whose turn
it is; the button lamps stay dark (the board game has no SORRY! window)."""

from __future__ import annotations

from collections.abc import Callable

from companion.session import Result, Session, Update
from games.board.face.ledboard import board_game_state
from games.board.face.presses import board_seat_draw
from hardware.faces.face import DARK, LampState
from hardware.firmware.pawnled import LedBoardState


class BoardFace:
    def seat_press(self, session: Session, seat: int, t: float | None,
                   companion_draws: Callable[[], bool]) -> Result:
        return board_seat_draw(session, seat, companion_draws)

    def ledboard(self, update: Update, brightness: int) -> LedBoardState:
        from companion.games import get

        return board_game_state(get("board").state_json(update.state), brightness=brightness)

    def lamps(self, update: Update) -> LampState:
        return DARK


FACE = BoardFace()
