"""What the LED board shows during a Sorry! board game: each seat's pawns HOME and whose
turn it is, over PAWNLED/1 unchanged (the same `=STATE` line as the card game).

Read from the game's typed state, nothing turned into JSON on the way. Pure and quick:
called under the session's lock, once per event.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hardware.firmware.pawnled import LedBoardState

if TYPE_CHECKING:  # the engine is loaded with the first board game, not with the face
    from games.board.rules import BoardState

MAX_HOME = 4  # PAWNLED/1 lights at most four HOME pawns a seat (the classic edition's four)


def board_game_state(state: BoardState, *, brightness: int = 64) -> LedBoardState:
    """The `=STATE` of a board-game state: seats in seating order, the winner's seat
    flashing `win` when the game is over (nobody's turn then, as with play_on's last
    turns: the winner is known)."""
    won = state.winner is not None
    return LedBoardState(
        players=len(state.names),
        turn=None if won else state.turn,
        home=[min(MAX_HOME, state.home(seat)) for seat in range(len(state.names))],
        alert="win" if won else "none",
        bri=brightness,
        colors=[color[0] for color in state.position.colors],
    )
