"""From an accepted button press to the game: the one place buttons meet the session.

What a seat's press means is the open game's face's to say (hardware.faces: SORRY! in the
card game, "Draw" in the board game); undo and "no one calls" are the same in every game.
It runs on the GPIO thread: the session is thread-safe, and the UI hears of the change
through its own session listener, so no press waits for the UI's clock.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import NamedTuple

from companion.errors import REFUSALS, CompanionError, JournalError, NoGame
from companion.session import AnyResult, Session
from hardware import faces
from hardware.buttons import ButtonPress

log = logging.getLogger(__name__)


class Refusal(NamedTuple):
    """A press the game refused: which button, and the refusal, whose sentence the open
    game's screen shows in its own language (ui.hardware_link)."""

    role: str  # "seat 2 button", "undo button", ...
    error: CompanionError | JournalError

    def __str__(self) -> str:
        return f"{self.role}: {self.error}"


class PressRouter:
    def __init__(self, session: Session, *,
                 on_refused: Callable[[Refusal], None] | None = None,
                 wakes: Callable[[], bool] | None = None) -> None:
        self.session = session
        self.on_refused = on_refused
        # the resting screen: True when this press only woke it (it does nothing else)
        self.wakes = wakes

    def __call__(self, press: ButtonPress) -> AnyResult | None:
        if self.wakes is not None and self.wakes():
            return None
        try:
            return self._submit(press)
        except REFUSALS as exc:  # "no game is open", "nothing to undo", a full disk, ...
            self._refuse(Refusal(press.use.role, exc))
            return None

    def _submit(self, press: ButtonPress) -> AnyResult | None:
        use = press.use
        if use.seat is not None:
            update = self.session.update
            if update is None:
                raise NoGame("no game is open; start a new game first", code="no_game")
            face = faces.get(update.game)
            if face is None:
                raise CompanionError(f"the seat buttons have no use in the {update.game} game",
                                     code="no_face", game=update.game)
            return face.seat_press(self.session, use.seat, press.t)
        if use.role == "undo button":
            return self.session.undo(by="button")
        return self.session.close_window(by="button")

    def _refuse(self, refusal: Refusal) -> None:
        log.info("button refused: %s", refusal)
        if self.on_refused is not None:
            self.on_refused(refusal)
