"""The state of a game at one moment: immutable, so undo is keeping the old one.

A state is a pure function of its setup and the events applied to it (see engine.py).
Seats are indexes into `setup.players`.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any, NamedTuple

from companion.members import members
from games.revenge.rules.events import Color, Setup, Variant

DECK_SIZE = 93
HAND_SIZE = 5
HAND_LIMIT = 7


class Awaiting(StrEnum):
    """What the table is waiting for, beyond the next card."""

    STEAL = "steal"
    BLOCK = "block"
    PLAY2 = "play2"
    TIEBREAK = "tiebreak"


class Cause(StrEnum):
    """Why a SORRY! window is open: someone reached 21 (R9) or a flip-back was played (R10)."""

    STEAL = "steal"
    FLIP = "flip"


_Awaiting, _Variant = members(Awaiting), members(Variant)  # read per event (companion.members)


@dataclass(frozen=True, slots=True)
class Window:
    """An open steal or block window.

    scorer: the player who reached 21 (steal) or who played the flip-back SORRY!.
    victim: who may answer with Don't Be SORRY! (W for a steal, the target for a flip-back).
    caller: the steal's caller, once someone called; `caller_t` its edge time.
    before_call: the state while the steal window was open, so that an earlier press
    can replace the caller exactly (TRANSCRIPT.md, "Presses").
    """

    kind: Awaiting
    cause: Cause
    scorer: int
    victim: int
    caller: int | None = None
    caller_t: float | None = None
    before_call: GameState | None = None


@dataclass(frozen=True, slots=True)
class TiebreakRound:
    """The tied seats (R13) and the totals entered so far (None: not yet)."""

    tied: tuple[int, ...]
    totals: tuple[int | None, ...]


@dataclass(frozen=True, slots=True)
class PlayerView:
    """One player's public state, as the UI and `replay --json` show it."""

    seat: int
    name: str
    color: Color
    progress: int
    home: int
    hand: int


class GameState(NamedTuple):
    """Immutable by construction; a NamedTuple because replay builds one per event and a
    tuple is five times cheaper to build than a frozen dataclass."""

    setup: Setup
    progress: tuple[int, ...]
    hands: tuple[int, ...]
    total: int
    direction: int  # +1 forward (seating order), -1 reverse
    turn: int
    round: int
    pile: int  # cards on the current play pile
    discards: int  # cards in the piles set aside since the last reshuffle
    draw_pile: int
    owed: int  # number cards still owed for a Play 2
    window: Window | None
    tiebreak: TiebreakRound | None
    winner: int | None
    reshuffles: int

    @property
    def goal(self) -> int:
        """Progress needed to win (R11): P, or 2P in the longer game."""
        return self.setup.pawns * (2 if self.setup.variant is _Variant.LONG else 1)

    @property
    def awaiting(self) -> Awaiting | None:
        if self.window is not None:
            return self.window.kind
        if self.owed:
            return _Awaiting.PLAY2
        if self.tiebreak is not None:
            return _Awaiting.TIEBREAK
        return None

    @property
    def over(self) -> bool:
        return self.winner is not None

    @property
    def running(self) -> bool:
        """True while someone has a turn: not over and not in a tiebreaker."""
        return self.winner is None and self.tiebreak is None

    @property
    def turn_name(self) -> str | None:
        return self.setup.players[self.turn] if self.running else None

    def home(self, seat: int) -> int:
        """Pawn cards HOME side up: rises to P, then falls again in the longer game."""
        p, pawns = self.progress[seat], self.setup.pawns
        return p if p <= pawns else 2 * pawns - p

    def pressers(self) -> tuple[int, ...]:
        """Seats whose SORRY! press counts right now (their button lamps light up).

        Steal window: everyone but the player who reached 21. Block window: the victim,
        who may answer with Don't Be SORRY!. Otherwise nobody.
        """
        w = self.window
        if w is None:
            return ()
        if w.kind is _Awaiting.STEAL:
            return tuple(i for i in range(len(self.progress)) if i != w.scorer)
        return (w.victim,)

    def seat_of(self, name: str) -> int | None:
        players = self.setup.players
        if name in players:
            return players.index(name)
        folded = name.casefold()
        for seat, player in enumerate(players):
            if player.casefold() == folded:
                return seat
        return None

    def name(self, seat: int) -> str:
        return self.setup.players[seat]

    def next_seat(self, seat: int) -> int:
        return (seat + self.direction) % len(self.setup.players)

    @property
    def players(self) -> tuple[PlayerView, ...]:
        s = self.setup
        return tuple(
            PlayerView(i, s.players[i], s.colors[i], self.progress[i], self.home(i), self.hands[i])
            for i in range(len(s.players))
        )

    def card_count(self) -> int:
        """Every card somewhere: always DECK_SIZE (an invariant the tests check)."""
        return self.draw_pile + sum(self.hands) + self.pile + self.discards

    def to_json(self) -> dict[str, Any]:
        """The state shape of `sorry-companion replay --json` (TRANSCRIPT.md), plus extras."""
        window = self.window
        tb = self.tiebreak
        return {
            "players": [
                {"name": p.name, "color": p.color.value, "progress": p.progress,
                 "home": p.home, "hand": p.hand}
                for p in self.players
            ],
            "total": self.total,
            "direction": "forward" if self.direction == 1 else "reverse",
            "turn": self.turn_name,
            "round": self.round,
            "awaiting": None if self.awaiting is None else self.awaiting.value,
            "winner": None if self.winner is None else self.name(self.winner),
            "tied": [] if tb is None else [self.name(s) for s in tb.tied],
            "draw_pile": self.draw_pile,
            "pile": self.pile,
            "discards": self.discards,
            "reshuffles": self.reshuffles,
            "owed": self.owed,
            "goal": self.goal,
            "pawns": self.setup.pawns,
            "variant": self.setup.variant.value,
            "window": None if window is None else {
                "kind": window.kind.value,
                "cause": window.cause.value,
                "scorer": self.name(window.scorer),
                "victim": self.name(window.victim),
                "caller": None if window.caller is None else self.name(window.caller),
            },
            "tiebreak_totals": None if tb is None else {
                self.name(s): t for s, t in zip(tb.tied, tb.totals, strict=True)
            },
        }


def initial_state(setup: Setup) -> GameState:
    """The state right after the deal: 5 cards each, the rest in the draw pile."""
    n = len(setup.players)
    return GameState(
        setup=setup,
        progress=(0,) * n,
        hands=(HAND_SIZE,) * n,
        total=0,
        direction=1,
        turn=setup.players.index(setup.first),
        round=1,
        pile=0,
        discards=0,
        draw_pile=DECK_SIZE - HAND_SIZE * n,
        owed=0,
        window=None,
        tiebreak=None,
        winner=None,
        reshuffles=0,
    )
