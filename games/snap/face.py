"""Snap on the table's hardware: a seat's button calls "Snap!" for that seat (a wrong call
pays a card, as at the table); every lamp is lit while the two top cards are a pair, the
winner's flashes; the LED board shows whose card is next and each seat's won cards, one
LED for every few."""

from __future__ import annotations

from companion.errors import CompanionError, NoGame
from companion.session import AnyResult, JsonEvent, Live, Session, Update, typed_update
from games.snap.rules import RULES, Event, Snap, State
from hardware.faces.face import LampState
from hardware.firmware.pawnled import PAWNS, LedBoardState


class SnapFace:
    def seat_press(self, session: Session, seat: int, t: float | None) -> AnyResult:
        live = Live(session, RULES)
        state = live.state
        if state is None:
            raise NoGame("no snap game is open; start a new game first", code="no_game")
        if seat >= len(state.names):
            raise CompanionError(f"only {len(state.names)} play, so this seat is empty",
                                 code="empty_seat", players=len(state.names))
        return live.submit(Snap(state.names[seat]), by="button")

    def ledboard(self, update: Update[object, JsonEvent], brightness: int) -> LedBoardState:
        state = _ours(update).state
        seats = len(state.names)
        return LedBoardState(
            players=seats, turn=state.turn if state.winner is None else None,
            home=[min(PAWNS, won * PAWNS // state.setup.target) for won in state.won],
            alert="win" if state.winner is not None else "none", bri=brightness)

    def lamps(self, update: Update[object, JsonEvent]) -> LampState:
        state = _ours(update).state
        lit = frozenset(range(len(state.names))) if state.pair else frozenset()
        return LampState(lit, state.winner)


def _ours(update: Update[object, JsonEvent]) -> Update[State, Event]:
    ours = typed_update(update, RULES)
    assert ours is not None  # hardware.faces picks this face for snap games only
    return ours


FACE = SnapFace()
