"""Whole games played by simple bots with real cards, to cross-check the rules engine.

The engine only counts cards; here a seeded table deals the real 93 (companion.games.revenge.deck)
and bots play them. `Referee` is deliberately a second, independent reading of RULES.md
(card moves, turns, windows, progress, tiebreakers) and shares no code with
companion/engine.py: after every event the simulator compares the two and raises
Disagreement at the first difference, so a slip in either shows up with its transcript.

The returned events are what a scorekeeper would have logged: the transcript. Refused
wrong taps are tried on the game (and must change nothing) but, like at a real table,
never reach the transcript; undo/redo pairs do.

Decisions of the simulator (not of the rules):
- A bot holding only out-of-turn SORRY! cards (steal, Don't Be SORRY!) must still play on
  its turn: it plays one of them as a flip-back SORRY!, logged as "sorry".
- A bot whose hand is empty on its turn takes the top card of the draw pile and plays a
  card, as the engine assumes; if nothing is left to draw the game stops as "stalled".
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from companion.errors import CompanionError
from companion.game import Game, Redo, Result, ResultKind, Undo
from companion.games.revenge.cards import Card
from companion.games.revenge.deck import (
    DEFAULT_DECK,
    DONT_BE_SORRY,
    FLIP,
    OUT_OF_TURN,
    SORRY_FAMILY,
    STEAL,
    Cards,
    number_value,
)
from companion.games.revenge.events import (
    Close,
    EndPlay2,
    Event,
    Play,
    Press,
    Setup,
    Tiebreak,
    Variant,
)
from companion.games.revenge.state import HAND_LIMIT, GameState

NAMES = ("Ana", "Ben", "Cleo", "Dev")
TWENTY_ONE = 21
MAX_EVENTS = 100_000  # a game this long means a bot loops: fail loudly

# How often the simulated table does each thing (per chance it has to).
P_MAKE_21 = 0.9  # a bot that can make 21 does
P_AVOID_BUST = 0.95  # a bot that can avoid busting does
P_FLIP = 0.5  # a bot holding a flip-back plays it on the leader
P_CALL = 0.8  # a bot holding a steal calls SORRY!
P_DOUBLE = 0.15  # ... and presses twice
P_OUT_OF_ORDER = 0.3  # several presses are delivered out of edge order
P_EARLY_BLOCK = 0.1  # the scorer presses Don't Be SORRY! before anyone called (ignored)
P_BLOCK = 0.85  # a victim holding Don't Be SORRY! blocks
P_STRAY = 0.1  # someone presses when their press does not count (ignored)
P_LEAVE_OPEN = 0.15  # the next card is logged instead of closing the window
P_NAME_PLAYER = 0.5  # the play names its player (checked by the engine)
P_WRONG_TAP = 0.03  # the scorekeeper taps something the engine must refuse
P_UNDO_REDO = 0.02  # the scorekeeper undoes a few steps and redoes them
P_BEST_TIEBREAK = 0.75  # a tied bot enters its best hand total (else a random one)


class Disagreement(AssertionError):
    """The simulator's table and the engine's state differ; `events` is the transcript."""

    def __init__(self, message: str, events: list[Event]) -> None:
        super().__init__(f"after event {len(events)}: {message}")
        self.events = events


# --- the referee: an independent reading of RULES.md over real cards ---

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
                self.cards.draw(seat, 2)
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
            self.cards.refill(seat)
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
        self.cards.refill(seat)
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
        self.cards.refill(seat)
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


# --- the bots ---

def total_after(code: str, total: int) -> int | None:
    """The play-pile total after a number or Slide card; None for other cards."""
    value = number_value(code)
    if value is not None:
        return total + value
    return int(code[6:]) if code.startswith("slide:") else None


def prefer(rng: random.Random, options: list[str], total: int) -> str:
    """Make 21 if possible, else avoid busting, each with a little randomness."""
    after = {c: total_after(c, total) for c in options}
    wins = [c for c in options if after[c] == TWENTY_ONE]
    if wins and rng.random() < P_MAKE_21:
        return rng.choice(wins)
    safe = [c for c in options if (after[c] or 0) < TWENTY_ONE]
    if safe and rng.random() < P_AVOID_BUST:
        return rng.choice(safe)
    return rng.choice(options)


def choose_card(rng: random.Random, hand: list[str], total: int, owed: int,
                can_flip: bool) -> str | None:
    """The card a bot plays on its turn; None ends an owed Play 2 (no number card)."""
    if owed:
        numbers = [c for c in hand if number_value(c) is not None]
        return prefer(rng, numbers, total) if numbers else None
    playable = [c for c in hand if c not in OUT_OF_TURN]
    if not playable:
        return rng.choice(hand)  # only steal / Don't Be SORRY!: played as a flip-back
    if can_flip and FLIP in playable and rng.random() < P_FLIP:
        return FLIP
    return prefer(rng, playable, total)


def best_total(hand: list[str]) -> int:
    """The tiebreaker: the closest to 21, not over, of the hand's number cards."""
    values = [v for v in map(number_value, hand) if v is not None]
    sums = {sum(c) for r in range(len(values) + 1) for c in combinations(values, r)}
    return max(s for s in sums if s <= TWENTY_ONE)


def random_options(rng: random.Random) -> dict[str, Any]:
    """A mix of table sizes, pawn counts and variants; few pawns make ties likely."""
    return {"players": rng.randint(2, 4), "pawns": rng.randint(1, 4),
            "variant": rng.choice((Variant.STANDARD.value, Variant.LONG.value))}


# --- the table: bots, scorekeeper and both referees ---

@dataclass
class SimulatedGame:
    events: list[Event]  # the transcript, setup first
    game: Game  # the engine's game after every event
    stats: Counter[str]  # happenings of the engine, refused taps, undos, ...
    stalled: bool = False

    @property
    def state(self) -> GameState:
        return self.game.state

    @property
    def rounds(self) -> int:
        return self.state.round - 1


class _Table:
    def __init__(self, rng: random.Random, setup: Setup, deck: dict[str, int],
                 mistakes: bool, check: bool) -> None:
        self.rng, self.mistakes, self.check = rng, mistakes, check
        self.game = Game(setup)
        self.ref = Referee(setup, Cards.deal(rng, deck, len(setup.players)))
        self.names = setup.players
        self.events: list[Event] = [setup]
        self.stats: Counter[str] = Counter()
        self.now = 0.0
        self.left_open: SimWindow | None = None

    def run(self) -> SimulatedGame:
        ref = self.ref
        self._compare(None, None)
        while ref.winner is None:
            if len(self.events) > MAX_EVENTS:
                raise RuntimeError(f"a simulated game passed {MAX_EVENTS} events")
            if self.mistakes and self.rng.random() < P_WRONG_TAP:
                self._wrong_tap()
            if ref.window is not None and ref.window is not self.left_open:
                self._answer(ref.window)
            elif ref.tied is not None:
                self._tiebreak(ref.tied)
            elif not self._turn():
                return SimulatedGame(self.events, self.game, self.stats, stalled=True)
        if self.mistakes and self.rng.random() < P_WRONG_TAP * 10:
            self._wrong_tap()
        return SimulatedGame(self.events, self.game, self.stats)

    # -- logging events into both referees --

    def _push(self, event: Event, physical: str | None = None) -> Result:
        try:
            result = self.game.push(event)
        except CompanionError as exc:
            raise Disagreement(f"the engine refused {event.to_json()}: {exc}",
                               [*self.events, event]) from None
        changed = self.ref.apply(event, physical)
        self.events.append(event)
        self.stats.update(o.what.value for o in result.outcomes)
        if self.check:
            self._compare(event, result, changed)
        if result.kind is ResultKind.APPLIED and self.mistakes \
                and self.rng.random() < P_UNDO_REDO:
            self._undo_redo()
        return result

    def _compare(self, event: Event | None, result: Result | None,
                 changed: bool = True) -> None:
        if result is not None and (result.kind is not ResultKind.IGNORED) != changed:
            raise Disagreement(
                f"{event.to_json() if event else None}: the engine "
                f"{'ignored' if changed else 'applied'} it, the simulator did the opposite",
                self.events)
        mine, theirs = self.ref.view(), engine_view(self.game.state)
        if mine != theirs:
            diff = {k: (theirs[k], mine[k]) for k in mine if mine[k] != theirs[k]}
            raise Disagreement(
                f"{event.to_json() if event else 'setup'}: (engine, simulator) differ: {diff}",
                self.events)

    def _undo_redo(self) -> None:
        """Take back a few steps and apply them again: the state must come back exactly."""
        before = self.game.state
        k = self.rng.randint(1, min(3, self.game.depth))
        for event in [Undo()] * k + [Redo()] * k:
            self.game.push(event)
            self.events.append(event)
        self.stats["undo_redo"] += 1
        if self.game.state is not before:
            raise Disagreement(f"{k} undos and redos did not give the state back", self.events)

    def _wrong_tap(self) -> None:
        """A tap the rules do not allow now: the engine must refuse it and change nothing."""
        event = self.rng.choice(self._wrong_taps())
        before = self.game.state
        try:
            self.game.push(event)
        except CompanionError:
            self.stats["refused"] += 1
        else:
            raise Disagreement(f"the engine accepted the wrong tap {event.to_json()}",
                               [*self.events, event])
        if self.game.state is not before:
            raise Disagreement(f"the refused {event.to_json()} changed the state", self.events)

    def _wrong_taps(self) -> list[Event]:
        ref, names, card = self.ref, self.names, Card.parse
        taps: list[Event] = []
        if not self.game.depth:
            taps.append(Undo())
        if self.game.redo_step is None:
            taps.append(Redo())
        if ref.tied is None:
            taps.append(Tiebreak(names[0], 12))
        else:
            taps.extend(Tiebreak(n, 12) for i, n in enumerate(names) if i not in ref.tied)
        if ref.winner is not None or ref.tied is not None:
            return [*taps, Play(card("5"))]
        if ref.window is None:
            taps.append(Close())
            taps.append(Play(card(FLIP), target=names[ref.turn]))
            if not ref.owed and any(p for i, p in enumerate(ref.progress) if i != ref.turn):
                taps.append(Play(card(FLIP)))
        elif ref.closing_decides():
            taps.append(Play(card("5")))
        taps.append(Play(card("slide:10")) if ref.owed else EndPlay2())
        others = [n for i, n in enumerate(names) if i != ref.turn]
        taps.append(Play(card("3"), player=self.rng.choice(others)))
        return taps

    # -- the bots' moves --

    def _t(self, low: float, high: float) -> float:
        return round(self.now + self.rng.uniform(low, high), 3)

    def _leader(self, seat: int) -> int | None:
        """Who a flip-back targets: the most advanced opponent once any open window closes."""
        progress = list(self.ref.progress)
        if self.ref.window is not None:
            who, step = self.ref.closure()
            progress[who] = max(0, progress[who] + step)
        eligible = [i for i, p in enumerate(progress) if p > 0 and i != seat]
        if not eligible:
            return None
        best = max(progress[i] for i in eligible)
        return self.rng.choice([i for i in eligible if progress[i] == best])

    def _turn(self) -> bool:
        """The player whose turn it is plays a card; False if they cannot (stalled)."""
        ref, rng = self.ref, self.rng
        seat = ref.turn
        hand = ref.cards.hands[seat]
        if not hand and not ref.owed:
            if ref.window is not None:
                self._push(Close())
            if not (ref.cards.draw_pile or ref.cards.discards):
                return False
            ref.cards.draw(seat, 1)  # the engine counts an empty hand's card as drawn
        self.now += rng.uniform(0.5, 4.0)
        if ref.window is None and rng.random() < P_STRAY / 2:  # "no SORRY! now"
            self._push(Press(rng.choice(self.names), self._t(0, 1)))
        leader = self._leader(seat)
        total = ref.total if ref.window is None else 0  # logging the card closes the window
        code = choose_card(rng, hand, total, ref.owed, leader is not None)
        if code is None:
            self._push(EndPlay2())
            return True
        flip = code in SORRY_FAMILY
        target = self.names[leader] if flip and leader is not None else None
        player = self.names[seat] if rng.random() < P_NAME_PLAYER else None
        self._push(Play(Card.parse(FLIP if flip else code), player, target), code)
        return True

    def _answer(self, w: SimWindow) -> None:
        """The table answers an open window: calls, blocks, stray presses, then close."""
        if w.kind == "steal":
            self._steal_presses(w)
        else:
            self._block(w.victim)
            if self.ref.window is not None and self.rng.random() < P_STRAY:
                stray = [i for i in range(len(self.names)) if i != w.victim]
                self._push(Press(self.names[self.rng.choice(stray)], self._t(0.1, 3)))
        if self.ref.window is None:
            return
        if self.rng.random() < P_LEAVE_OPEN and not self.ref.closing_decides():
            self.left_open = self.ref.window
        else:
            self._push(Close())

    def _block(self, victim: int) -> None:
        if DONT_BE_SORRY in self.ref.cards.hands[victim] and self.rng.random() < P_BLOCK:
            self._push(Press(self.names[victim], self._t(0.5, 4)))

    def _steal_presses(self, w: SimWindow) -> None:
        """R9: steal holders call at random edge times, delivered in or out of order."""
        rng, hands = self.rng, self.ref.cards.hands
        calls: list[tuple[float, int]] = []
        for seat in range(len(self.names)):
            if seat != w.scorer and STEAL in hands[seat] and rng.random() < P_CALL:
                calls.append((self._t(0.05, 2.5), seat))
                if rng.random() < P_DOUBLE:
                    calls.append((round(calls[-1][0] + rng.uniform(0.01, 1), 3), seat))
        calls.sort()
        if len(calls) > 1 and rng.random() < P_OUT_OF_ORDER:
            rng.shuffle(calls)
        if DONT_BE_SORRY in hands[w.scorer] and rng.random() < P_EARLY_BLOCK:
            calls.insert(0, (self._t(0.05, 1), w.scorer))
        block = DONT_BE_SORRY in hands[w.scorer] and rng.random() < P_BLOCK
        early = rng.random() < 0.5  # the block may arrive before later presses
        for t, seat in calls:
            self._push(Press(self.names[seat], t))
            if block and early and self._called() and rng.random() < 0.5:
                self._push(Press(self.names[w.scorer], self._t(0.5, 4)))
                block = False
        if block and self._called():
            self._push(Press(self.names[w.scorer], self._t(0.5, 4)))

    def _called(self) -> bool:
        return self.ref.window is not None and self.ref.window.caller is not None

    def _tiebreak(self, tied: tuple[int, ...]) -> None:
        seat = self.rng.choice([s for s in tied if s not in self.ref.entered])
        if self.rng.random() < P_BEST_TIEBREAK:
            total = best_total(self.ref.cards.hands[seat])
        else:
            total = self.rng.randint(10, 25)
        self._push(Tiebreak(self.names[seat], total))


def simulate(rng: random.Random, *, players: int = 4, pawns: int = 4,
             variant: str = Variant.STANDARD.value, deck: dict[str, int] | None = None,
             mistakes: bool = True, check: bool = True) -> SimulatedGame:
    """Play one whole game; with `check`, raise Disagreement at the first difference."""
    names = [NAMES[i] if i < len(NAMES) else f"Player {i + 1}" for i in range(players)]
    setup = Setup.create(names, first=rng.choice(names), pawns=pawns, variant=variant)
    return _Table(rng, setup, deck or DEFAULT_DECK, mistakes, check).run()


def simulate_game(rng: random.Random, *, players: int = 4, pawns: int = 4,
                  variant: str = Variant.STANDARD.value,
                  deck: dict[str, int] | None = None) -> list[Event]:
    """The transcript of one simulated game, setup first."""
    return simulate(rng, players=players, pawns=pawns, variant=variant, deck=deck).events
