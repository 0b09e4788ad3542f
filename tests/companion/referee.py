"""The simulator's referee: a second, independent reading of RULES.md, kept in the tests.

It shares no code with companion/games/revenge/engine.py: it keeps the table over real
cards (card moves, turns, windows, progress, tiebreakers) and, watching a simulated game
event by event, compares its reading with the engine's state, raising Disagreement at
the first difference, so a slip in either shows up with its transcript. (The simulator
itself only follows the engine's card movements; this is where the rules are re-read.)
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from companion.game import ResultKind
from games.revenge.rules.deck import DONT_BE_SORRY, SORRY_FAMILY, STEAL, Cards, number_value
from games.revenge.rules.events import (
    Close,
    EndPlay2,
    Event,
    Play,
    Press,
    Setup,
    Tiebreak,
    Variant,
)
from games.revenge.rules.simulate import SimulatedGame, simulate
from games.revenge.rules.state import GameState

TWENTY_ONE = 21
HAND_SIZE = 5
HAND_LIMIT = 7


def draw(cards: Cards, seat: int, n: int) -> None:
    """Take n cards; if the draw pile runs out, the discards are shuffled in first."""
    for _ in range(n):
        if not cards.draw_pile and cards.discards:
            cards.reshuffle()
        if not cards.draw_pile:
            return
        cards.take(seat, 1)


def refill(cards: Cards, seat: int) -> None:
    """Draw back up to 5; a player holding more keeps them."""
    draw(cards, seat, HAND_SIZE - len(cards.hands[seat]))


class Disagreement(AssertionError):
    """The simulator's table and the engine's state differ; `events` is the transcript."""

    def __init__(self, message: str, events: list[Event]) -> None:
        super().__init__(f"after event {len(events)}: {message}")
        self.events = events



@dataclass
class SimWindow:
    kind: str  # "steal" (anyone but the scorer may call) or "block" (the victim may block)
    cause: str  # "steal" (someone reached 21) or "flip" (a flip-back SORRY!)
    scorer: int
    victim: int
    caller: int | None = None
    caller_t: float | None = None
    before_call: Cards | None = None  # the cards before the call, to replace a caller


@dataclass
class Referee:
    """The table as a careful human referee keeps it, real cards included."""

    setup: Setup
    cards: Cards
    total: int = 0
    direction: int = 1
    turn: int = 0
    round: int = 1
    owed: int = 0
    progress: list[int] = field(default_factory=list)
    window: SimWindow | None = None
    tied: tuple[int, ...] | None = None
    entered: dict[int, int] = field(default_factory=dict)
    winner: int | None = None

    def __post_init__(self) -> None:
        self.turn = self.setup.players.index(self.setup.first)
        self.progress = [0] * len(self.setup.players)

    @property
    def goal(self) -> int:
        return self.setup.pawns * (2 if self.setup.variant is Variant.LONG else 1)

    def view(self) -> dict[str, Any]:
        """What is compared with the engine (see `engine_view`)."""
        w = self.window
        return {
            **self.cards.counts(),
            "total": self.total, "direction": self.direction, "turn": self.turn,
            "round": self.round, "owed": self.owed, "progress": tuple(self.progress),
            "window": None if w is None else (w.kind, w.cause, w.scorer, w.victim,
                                              w.caller, w.caller_t),
            "tied": self.tied,
            "tie_totals": None if self.tied is None else tuple(
                self.entered.get(s) for s in self.tied),
            "winner": self.winner,
        }

    # -- the moves --

    def apply(self, event: Event, physical: str | None = None) -> bool:
        """Apply one logged event; False for a press that changes nothing."""
        if isinstance(event, Play):
            target = None if event.target is None else self.setup.players.index(event.target)
            self.play(physical or event.card.code, target)
        elif isinstance(event, Press):
            return self.press(self.setup.players.index(event.player), event.t)
        elif isinstance(event, Close):
            self.resolve()
        elif isinstance(event, EndPlay2):
            self.end_turn(self.turn)
        elif isinstance(event, Tiebreak):
            self.tiebreak(self.setup.players.index(event.player), event.total)
        else:
            raise TypeError(f"the referee does not apply {event!r}")
        return True

    def play(self, physical: str, target: int | None) -> None:
        """R1-R7 and R10 for the card in the hand of the player whose turn it is."""
        if self.window is not None:
            self.resolve()
        seat = self.turn
        if not self.cards.hands[seat]:  # the card comes from the draw pile
            draw(self.cards, seat, 1)
        self.cards.lay(seat, physical)
        value = number_value(physical)
        if physical in SORRY_FAMILY:
            self.end_turn(seat)
            if target is None:
                self.end_round()
            else:
                self.window = SimWindow("block", "flip", seat, target)
        elif value is not None or physical.startswith("slide:"):
            self.total = self.total + value if value is not None else int(physical[6:])
            self._after_total(seat)
        elif physical == "switch":
            self.direction = -self.direction
            self.end_turn(seat)
        elif physical == "take2":
            if len(self.cards.hands[seat]) + 2 <= HAND_LIMIT:
                draw(self.cards, seat, 2)
            self.end_turn(seat)
        else:  # play2
            self.owed = 2

    def _after_total(self, seat: int) -> None:
        if self.total == TWENTY_ONE:
            self.end_turn(seat)
            self.window = SimWindow("steal", "steal", seat, seat)
        elif self.total > TWENTY_ONE:
            self.end_turn(seat)
            for other in range(len(self.progress)):
                if other != seat:
                    self.move(other, +1)
            self.end_round()
        elif self.owed == 2:
            self.owed = 1
        else:
            self.end_turn(seat)

    def press(self, seat: int, t: float | None) -> bool:
        """R9/R10: a SORRY! call, a caller with an earlier edge, or Don't Be SORRY!."""
        w = self.window
        if w is None:
            return False
        if w.kind == "steal":
            if seat == w.scorer:
                return False
            self._call(w, seat, t, self.cards.copy())
            return True
        if seat == w.victim:
            self.cards.lay(seat, DONT_BE_SORRY)
            refill(self.cards, seat)
            self.window = None
            if w.cause == "steal":
                self.move(seat, +1)
            self.end_round()
            return True
        if w.cause != "steal" or t is None or w.caller_t is None or t >= w.caller_t:
            return False
        assert w.before_call is not None
        if seat == w.caller:  # the caller's own earlier edge: still the first call
            self.window = SimWindow(w.kind, w.cause, w.scorer, w.victim, seat, t, w.before_call)
            return True
        self.cards = w.before_call.copy()
        self._call(w, seat, t, w.before_call)
        return True

    def _call(self, w: SimWindow, seat: int, t: float | None, before: Cards) -> None:
        self.cards.lay(seat, STEAL)
        refill(self.cards, seat)
        self.window = SimWindow("block", "steal", w.scorer, w.scorer, seat, t, before)

    def closure(self) -> tuple[int, int]:
        """Who moves, and which way, if the open window closes unanswered."""
        w = self.window
        assert w is not None
        if w.kind == "steal":
            return w.scorer, +1
        if w.cause == "steal":
            assert w.caller is not None
            return w.caller, +1
        return w.victim, -1

    def closing_decides(self) -> bool:
        seat, step = self.closure()
        return step > 0 and self.progress[seat] + 1 >= self.goal

    def resolve(self) -> None:
        seat, step = self.closure()
        self.window = None
        self.move(seat, step)
        self.end_round()

    def move(self, seat: int, step: int) -> None:
        self.progress[seat] = max(0, min(self.goal, self.progress[seat] + step))

    def end_turn(self, seat: int) -> None:
        self.owed = 0
        refill(self.cards, seat)
        self.turn = (seat + self.direction) % len(self.progress)

    def end_round(self) -> None:
        self.cards.set_aside()
        self.total = self.owed = 0
        self.round += 1
        reached = tuple(i for i, p in enumerate(self.progress) if p >= self.goal)
        if len(reached) == 1:
            self.winner = reached[0]
        elif reached:
            self.tied, self.entered = reached, {}

    def tiebreak(self, seat: int, total: int) -> None:
        """R13: highest total not over 21 wins; equal best, or all over, play again."""
        assert self.tied is not None
        self.entered[seat] = total
        if len(self.entered) < len(self.tied):
            return
        valid = [t for t in self.entered.values() if t <= TWENTY_ONE]
        leaders = self.tied
        if valid:
            leaders = tuple(s for s in self.tied if self.entered[s] == max(valid))
        self.entered = {}
        if len(leaders) == 1:
            self.tied, self.winner = None, leaders[0]
        else:
            self.tied = leaders


def engine_view(state: GameState) -> dict[str, Any]:
    """The engine's state in the shape of `Referee.view`."""
    w, tb = state.window, state.tiebreak
    return {
        "hands": state.hands, "draw_pile": state.draw_pile, "pile": state.pile,
        "discards": state.discards, "reshuffles": state.reshuffles,
        "total": state.total, "direction": state.direction, "turn": state.turn,
        "round": state.round, "owed": state.owed, "progress": state.progress,
        "window": None if w is None else (w.kind.value, w.cause.value, w.scorer, w.victim,
                                          w.caller, w.caller_t),
        "tied": None if tb is None else tb.tied,
        "tie_totals": None if tb is None else tb.totals,
        "winner": state.winner,
    }




class CrossCheck:
    """Watches one simulated game (`simulate(..., watch=CrossCheck())`)."""

    def __init__(self) -> None:
        self.ref: Referee | None = None
        self.events: list[Any] = []

    def __call__(self, event: Any, result: Any, physical: Any) -> None:
        if self.ref is None:
            self.ref = Referee(event, physical)
            self.events = [event]
            self.compare(None, None, True, _initial(event))
            return
        changed = self.ref.apply(event, physical)
        self.events.append(event)
        self.compare(event, result, changed, result.state)

    def compare(self, event: Event | None, result: Any, changed: bool,
                state: GameState) -> None:
        assert self.ref is not None
        if result is not None and (result.kind is not ResultKind.IGNORED) != changed:
            raise Disagreement(
                f"{event.to_json() if event else None}: the engine "
                f"{'ignored' if changed else 'applied'} it, the referee did the opposite",
                self.events)
        mine, theirs = self.ref.view(), engine_view(state)
        if mine != theirs:
            diff = {k: (theirs[k], mine[k]) for k in mine if mine[k] != theirs[k]}
            raise Disagreement(
                f"{event.to_json() if event else 'setup'}: (engine, referee) differ: {diff}",
                self.events)


def _initial(setup: Setup) -> GameState:
    from games.revenge.rules.state import initial_state

    return initial_state(setup)


def cross_checked(rng: random.Random, **options: Any) -> SimulatedGame:
    """One simulated game, watched by the referee from the deal to the last event."""
    return simulate(rng, watch=CrossCheck(), **options)
