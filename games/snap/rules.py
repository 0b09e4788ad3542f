"""Snap's rules, pure: the players lay their cards face up on one pile in turn; when the
two top cards show the same picture, the first to call "Snap!" wins the pile (and lays
the next card). A wrong call pays one won card, face down, under the pile. The first to
have won `target` cards wins the game.

The companion keeps the pile and the score: a card laid is a `Flip` (tapped, or seen by
the camera), a call is a `Snap` (tapped, or a seat's button).

>>> s = RULES.initial_state(RULES.parse_setup({"type": "setup", "game": "snap",
...                                             "players": ["Ana", "Ben"], "target": 2}))
>>> for event in (Flip("sun"), Flip("sun"), Snap("Ben")):
...     s = RULES.apply(s, event).state
>>> s.won, s.winner, s.pile
((0, 2), 1, ())
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, NamedTuple

from companion.errors import BadEvent, BadSetup, GameOver, IllegalEvent
from companion.games import player_names
from companion.rules import GameSummary, Json, Rules, Transition

if TYPE_CHECKING:
    from companion.game import Step

__all__ = [
    "CARDS", "COUNTERS", "RULES", "TARGETS", "Event", "Flip", "Outcome", "Setup", "Snap",
    "SnapRules", "State",
]

CARDS = ("sun", "moon", "star", "fish", "tree", "boat")  # the deck's pictures
TARGET = 10  # the cards to win, unless the setup (or [snap] target) says otherwise
TARGETS = (2, 48)  # a whole deck is 48 cards: eight of each picture
COUNTERS = ("piles", "cards", "wrong")  # stats: piles won, cards won, wrong calls


@dataclass(frozen=True, slots=True)
class Setup:
    players: tuple[str, ...]
    target: int = TARGET
    game: ClassVar[str] = "snap"

    def to_json(self) -> Json:
        return {"type": "setup", "game": self.game, "players": list(self.players),
                "target": self.target}


@dataclass(frozen=True, slots=True)
class Flip:
    """The player whose turn it is lays `card` face up on the pile."""

    card: str

    def to_json(self) -> Json:
        return {"type": "flip", "card": self.card}


@dataclass(frozen=True, slots=True)
class Snap:
    """`player` calls "Snap!"."""

    player: str

    def to_json(self) -> Json:
        return {"type": "snap", "player": self.player}


Event = Flip | Snap


class Outcome(NamedTuple):
    """What one event did: "flipped" (a card laid), "won" (`cards` taken with the pile),
    "wrong" (a call with no pair: `cards` paid under the pile, 0 or 1), "game" (the game
    won); `seat` is whose."""

    what: str
    seat: int
    cards: int = 0


class State(NamedTuple):
    setup: Setup
    pile: tuple[str, ...]  # face up, the top card last
    under: int  # the cards paid face down under the pile by wrong calls
    won: tuple[int, ...]  # the cards each seat has won
    turn: int  # whose card is laid next
    winner: int | None

    @property
    def names(self) -> tuple[str, ...]:
        return self.setup.players

    @property
    def pair(self) -> bool:
        """Whether the two top cards show the same picture: a call now wins the pile."""
        return len(self.pile) >= 2 and self.pile[-1] == self.pile[-2]


class SnapRules:
    name = "snap"
    counters = COUNTERS

    def parse_setup(self, obj: Json) -> Setup:
        players = player_names(obj.get("players"))
        target = obj.get("target", TARGET)
        lo, hi = TARGETS
        if isinstance(target, bool) or not isinstance(target, int) or not lo <= target <= hi:
            raise BadSetup(f"target must be a whole number of cards from {lo} to {hi}",
                           code="snap_target", low=lo, high=hi)
        return Setup(players, target)

    def parse_event(self, obj: Json) -> Event:
        kind = obj.get("type")
        if kind == "flip":
            card = obj.get("card")
            if card not in CARDS:
                raise BadEvent(f"{str(card)[:20]!r} is no card of the snap deck; the cards are "
                               + ", ".join(CARDS), code="snap_card")
            return Flip(str(card))
        if kind == "snap":
            player = obj.get("player")
            if not isinstance(player, str):
                raise BadEvent("a snap names the player who called it", code="snap_player")
            return Snap(player)
        raise BadEvent(f"a snap game's events are flip and snap, not {str(kind)[:20]!r}",
                       code="snap_event")

    def initial_state(self, setup: Setup) -> State:
        return State(setup, (), 0, (0,) * len(setup.players), 0, None)

    def apply(self, state: State, event: Event) -> Transition[State]:
        if state.winner is not None:
            name = state.names[state.winner]
            raise GameOver(f"the game is over: {name} has won; undo to go back",
                           code="game_over", winner=name)
        if isinstance(event, Flip):
            return Transition(state._replace(pile=(*state.pile, event.card),
                                             turn=(state.turn + 1) % len(state.names)),
                              (Outcome("flipped", state.turn),))
        if event.player not in state.names:
            raise IllegalEvent(f"{event.player[:40]} does not play in this game",
                               code="snap_not_playing", player=event.player[:40])
        seat = state.names.index(event.player)
        if not state.pair:
            paid = min(1, state.won[seat])
            won = _plus(state.won, seat, -paid)
            return Transition(state._replace(under=state.under + paid, won=won),
                              (Outcome("wrong", seat, paid),))
        cards = len(state.pile) + state.under
        won = _plus(state.won, seat, cards)
        winner = seat if won[seat] >= state.setup.target else None
        outcomes = (Outcome("won", seat, cards),
                    *((Outcome("game", seat),) if winner is not None else ()))
        return Transition(state._replace(pile=(), under=0, won=won, turn=seat, winner=winner),
                          outcomes)

    def options(self, state: State) -> Sequence[Event]:
        if state.winner is not None:
            return ()
        return (*(Flip(c) for c in CARDS), *(Snap(p) for p in state.names))

    def state_json(self, state: State) -> Json:
        return {"pile": list(state.pile), "under": state.under,
                "won": dict(zip(state.names, state.won, strict=True)),
                "turn": state.names[state.turn], "target": state.setup.target,
                "winner": None if state.winner is None else state.names[state.winner]}

    def summary(self, state: State) -> GameSummary:
        winner = None if state.winner is None else state.names[state.winner]
        return GameSummary(state.names, winner, winner is not None)

    def describe(self, state: State) -> str:
        """`replay`'s text: the pile and the score."""
        score = ", ".join(f"{n} {w}" for n, w in zip(state.names, state.won, strict=True))
        top = state.pile[-1] if state.pile else "empty"
        done = (f"; {state.names[state.winner]} won" if state.winner is not None
                else f"; {state.names[state.turn]} lays next")
        return f"pile {len(state.pile) + state.under} (top: {top}); won: {score}{done}"

    def stats(self, steps: Sequence[Step[State, Event]]) -> dict[str, dict[str, int]]:
        out = {name: dict.fromkeys(COUNTERS, 0) for name in (steps[0].before.names
                                                            if steps else ())}
        for step in steps:
            for o in step.outcomes:
                if isinstance(o, Outcome) and o.what in ("won", "wrong"):
                    counters = out[step.before.names[o.seat]]
                    counters["piles" if o.what == "won" else "wrong"] += 1
                    counters["cards"] += o.cards if o.what == "won" else -o.cards
        return out


def _plus(won: tuple[int, ...], seat: int, n: int) -> tuple[int, ...]:
    return tuple(w + n if i == seat else w for i, w in enumerate(won))


RULES: Rules[Setup, State, Event] = SnapRules()
