"""The Sorry! board game on the hardware: a seat's button is "Draw" for that seat when
the companion draws the cards; the LED board shows each seat's pawns HOME and whose turn
it is; the button lamps stay dark (the board game has no SORRY! window)."""

from __future__ import annotations

from companion.session import AnyResult, JsonEvent, Session, Update, typed_update
from games.board.face.ledboard import board_game_state
from games.board.face.presses import board_seat_draw
from hardware.faces.face import DARK, LampState
from hardware.firmware.pawnled import LedBoardState


class BoardFace:
    def seat_press(self, session: Session, seat: int, t: float | None) -> AnyResult:
        return board_seat_draw(session, seat)

    def ledboard(self, update: Update[object, JsonEvent], brightness: int) -> LedBoardState:
        from games.board.rules import RULES

        board = typed_update(update, RULES)
        assert board is not None  # hardware.faces picks this face for board games only
        return board_game_state(board.state, brightness=brightness)

    def lamps(self, update: Update[object, JsonEvent]) -> LampState:
        return DARK


FACE = BoardFace()
