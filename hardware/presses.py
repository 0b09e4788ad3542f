"""From an accepted button press to the game: the one place buttons meet the session.

A seat's press is `session.submit(Press(name, t))`: SORRY! or Don't Be SORRY!, whichever
the rules allow now; the engine decides, and a press with no window open changes nothing.
It runs on the GPIO thread: the session is thread-safe, and the UI hears of the change
through its own session listener, so no press waits for the UI's clock.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from companion.errors import REFUSALS, CompanionError, NoGame
from companion.games.revenge import Press
from companion.session import Result, Session
from hardware.buttons import ButtonPress

log = logging.getLogger(__name__)


class PressRouter:
    def __init__(self, session: Session, *,
                 on_refused: Callable[[str], None] | None = None,
                 board_draws: Callable[[], bool] | None = None,
                 wakes: Callable[[], bool] | None = None) -> None:
        self.session = session
        self.on_refused = on_refused
        # a board game: whether the companion draws, so a seat's button is its "Draw"
        self.board_draws = board_draws or (lambda: False)
        # the resting screen: True when this press only woke it (it does nothing else)
        self.wakes = wakes

    def __call__(self, press: ButtonPress) -> Result | None:
        if self.wakes is not None and self.wakes():
            return None
        try:
            return self._submit(press)
        except REFUSALS as exc:  # "no game is open", "nothing to undo", a full disk, ...
            self._refuse(f"{press.use.role}: {exc}")
            return None

    def _submit(self, press: ButtonPress) -> Result | None:
        use = press.use
        update = self.session.update
        if use.seat is not None and update is not None and update.game == "board":
            from hardware.board_presses import board_seat_draw

            return board_seat_draw(self.session, use.seat, self.board_draws)
        if use.seat is not None:
            update = self.session.update
            if update is None:
                raise NoGame("no game is open; start a new game first", code="no_game")
            players = update.summary.players
            if use.seat >= len(players):
                raise CompanionError(f"only {len(players)} play, so this seat is empty",
                                     code="empty_seat", players=len(players))
            return self.session.submit(Press(players[use.seat], press.t))
        if use.role == "undo button":
            return self.session.undo()
        return self.session.close_window()

    def _refuse(self, message: str) -> None:
        log.info("button refused: %s", message)
        if self.on_refused is not None:
            self.on_refused(message)
