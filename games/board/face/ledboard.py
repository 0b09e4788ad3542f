"""What the LED board shows during a Sorry! board game: each seat's pawns HOME and whose
turn it is, over PAWNLED/1 unchanged (the same `=STATE` line as the card game).

Read from the position as `replay --json` prints it (BOARD.md), so the LED board needs
nothing of the board engine but its JSON. Pure and quick: called under the session's lock.
"""

from __future__ import annotations

from typing import Any

from hardware.firmware.pawnled import LedBoardState

MAX_HOME = 4  # PAWNLED/1 lights at most four HOME pawns a seat (the classic edition's four)


def board_game_state(position: dict[str, Any], *, brightness: int = 64) -> LedBoardState:
    """The `=STATE` of a board-game position: seats in seating order, the winner's seat
    flashing `win` when the game is over."""
    players = list(position.get("players", []))
    names = [p.get("name") for p in players]
    turn = position.get("turn")
    winner = position.get("winner")
    return LedBoardState(
        players=len(players),
        turn=names.index(turn) if turn in names and winner is None else None,
        home=[min(MAX_HOME, int(p.get("home", 0))) for p in players],
        alert="win" if winner is not None else "none",
        bri=brightness,
        colors=[str(p.get("color", "red"))[0] for p in players],
    )
