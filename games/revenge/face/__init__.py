"""The card game (Sorry! Revenge) on the hardware: a seat's button is its SORRY! (or
Don't Be SORRY!) press, the lamps light the seats whose press counts in a SORRY! window,
and the LED board shows each seat's HOME pawn cards and the last event's alert."""

from __future__ import annotations

from companion.errors import CompanionError, NoGame
from companion.session import AnyResult, JsonEvent, Session, Update, typed_update
from games.revenge.face.ledboard import ledboard_state
from games.revenge.rules import RULES, Event, GameState, Press
from hardware.faces.face import LampState
from hardware.firmware.pawnled import LedBoardState


class RevengeFace:
    def seat_press(self, session: Session, seat: int, t: float | None) -> AnyResult:
        """SORRY! or Don't Be SORRY!, whichever the rules allow now; the engine decides,
        and a press with no window open changes nothing."""
        update = session.update
        if update is None:
            raise NoGame("no game is open; start a new game first", code="no_game")
        players = update.summary.players
        if seat >= len(players):
            raise CompanionError(f"only {len(players)} play, so this seat is empty",
                                 code="empty_seat", players=len(players))
        return session.submit(Press(players[seat], session.clock() if t is None else t),
                              by="button")

    def ledboard(self, update: Update[object, JsonEvent], brightness: int) -> LedBoardState:
        ours = _ours(update)
        return ledboard_state(ours.state, ours.result, brightness=brightness)

    def lamps(self, update: Update[object, JsonEvent]) -> LampState:
        state = _ours(update).state
        return LampState(frozenset(state.pressers()), state.winner)


def _ours(update: Update[object, JsonEvent]) -> Update[GameState, Event]:
    ours = typed_update(update, RULES)
    assert ours is not None  # hardware.faces picks this face for card games only
    return ours


FACE = RevengeFace()
