"""Whole games played by simple bots with real cards: transcripts for tests and benchmarks.

The engine only counts cards; here a seeded table deals the real 93 (companion.deck) and
bots play them. The bots' cards follow the engine: every event's outcomes say which cards
moved (DRAWN, LAID, RESHUFFLED, ROUND_ENDED: the pile set aside), so the table never
restates a rule. Whether the engine's rules are right is checked elsewhere: tests/
companion/referee.py is an independent reading of RULES.md that watches these games.

The returned events are what a scorekeeper would have logged: the transcript. Refused
wrong taps are tried on the game (and must change nothing) but, like at a real table,
never reach the transcript; undo/redo pairs do.

Decisions of the simulator (not of the rules):
- A bot holding only out-of-turn SORRY! cards (steal, Don't Be SORRY!) must still play on
  its turn: it plays one of them as a flip-back SORRY!, logged as "sorry".
- A bot whose hand is empty on its turn takes the top card of the draw pile and plays it,
  as the engine assumes; if nothing is left to draw the game stops as "stalled".
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from companion.errors import CompanionError
from companion.game import Game, Redo, Result, ResultKind, Undo
from games.revenge.rules import RULES
from games.revenge.rules.cards import Card
from games.revenge.rules.deck import (
    DEFAULT_DECK,
    DONT_BE_SORRY,
    FLIP,
    OUT_OF_TURN,
    SORRY_FAMILY,
    STEAL,
    Cards,
    number_value,
)
from games.revenge.rules.engine import WINNING_TOTAL as TWENTY_ONE  # what bots aim for
from games.revenge.rules.engine import Happening, apply, outcomes_of
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
from games.revenge.rules.state import Awaiting, GameState, Window

NAMES = ("Ana", "Ben", "Cleo", "Dev")
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


class SimulationError(AssertionError):
    """The table could not follow the engine (its cards and the engine's counts differ,
    a wrong tap was accepted, undo/redo did not give the state back); `events` is the
    transcript so far."""

    def __init__(self, message: str, events: list[Any]) -> None:
        super().__init__(f"after event {len(events)}: {message}")
        self.events = events


# A watcher sees the deal, then every logged event: (event, result, physical card or None).
Watcher = Callable[[Any, Any, Any], None]


class FollowedCards:
    """The table's real cards, moved as the engine's outcomes say, for every state the
    game has been in (undo, redo and a replaced SORRY! caller go back to one of them)."""

    def __init__(self, cards: Cards, state: GameState) -> None:
        self.cards = cards
        self._at: dict[int, tuple[GameState, Cards]] = {}
        self._keep(state)
        self.reshuffled_ahead = False

    def _keep(self, state: GameState) -> None:
        self._at[id(state)] = (state, self.cards.copy())

    def _at_state(self, state: GameState) -> Cards:
        kept = self._at.get(id(state))
        if kept is None or kept[0] is not state:
            raise KeyError("the table never saw this state")
        return kept[1].copy()

    def follow(self, result: Result[GameState, Event], before: GameState,
               physical: str | None) -> None:
        if result.kind is ResultKind.IGNORED:
            return
        if result.kind in (ResultKind.UNDONE, ResultKind.REDONE):
            self.cards = self._at_state(result.state)
            return
        outcomes = outcomes_of(result)
        if any(o.what is Happening.CALLER_REPLACED for o in outcomes):
            assert before.window is not None and before.window.before_call is not None
            self.cards = self._at_state(before.window.before_call)  # the old call undone
        for out in outcomes:
            if out.what is Happening.DRAWN:
                assert out.seat is not None
                self.cards.take(out.seat, int(out.value or 0))
            elif out.what is Happening.LAID:
                assert out.seat is not None and physical is not None
                self.cards.lay(out.seat, physical)
            elif out.what is Happening.RESHUFFLED:
                if self.reshuffled_ahead:
                    self.reshuffled_ahead = False
                else:
                    self.cards.reshuffle()
            elif out.what is Happening.ROUND_ENDED:
                self.cards.set_aside()
        self._keep(result.state)

    def top_card(self) -> str | None:
        """The card an empty hand plays (the top of the draw pile, after the reshuffle
        the engine will count when the draw pile is empty); None: nothing to draw."""
        cards = self.cards
        if not cards.draw_pile and cards.discards:
            cards.reshuffle()
            self.reshuffled_ahead = True
        return cards.draw_pile[-1] if cards.draw_pile else None


def engine_counts(state: GameState) -> dict[str, object]:
    """The engine's card counts in the shape of `Cards.counts`."""
    return {"hands": state.hands, "draw_pile": state.draw_pile, "pile": state.pile,
            "discards": state.discards, "reshuffles": state.reshuffles}


def after_close(state: GameState) -> GameState:
    """The state once the open window closes unanswered (asked of the engine)."""
    closed: GameState = apply(state, Close()).state
    return closed


def closing_decides(state: GameState) -> bool:
    closed = after_close(state)
    return closed.winner is not None or closed.tiebreak is not None


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


# --- the table: bots and the scorekeeper ---

@dataclass
class SimulatedGame:
    events: list[Event | Setup | Undo | Redo]  # the transcript, setup first
    game: Game[Setup, GameState, Event]  # the engine's game after every event
    stats: Counter[str]  # happenings of the engine, refused taps, undos, ...
    stalled: bool = False

    @property
    def state(self) -> GameState:
        state: GameState = self.game.state
        return state

    @property
    def rounds(self) -> int:
        return self.state.round - 1


class _Table:
    def __init__(self, rng: random.Random, setup: Setup, deck: dict[str, int],
                 mistakes: bool, watch: Watcher | None) -> None:
        self.rng, self.mistakes, self.watch = rng, mistakes, watch
        self.game = Game(setup, RULES)
        cards = Cards.deal(rng, deck, len(setup.players))
        self.table = FollowedCards(cards, self.game.state)
        self.names = setup.players
        self.events: list[Event | Setup | Undo | Redo] = [setup]
        self.stats: Counter[str] = Counter()
        self.now = 0.0
        self.left_open: Window | None = None
        if watch is not None:
            watch(setup, None, cards.twin())

    @property
    def state(self) -> GameState:
        state: GameState = self.game.state
        return state

    def hand(self, seat: int) -> list[str]:
        return self.table.cards.hands[seat]

    def run(self) -> SimulatedGame:
        while self.state.winner is None:
            if len(self.events) > MAX_EVENTS:
                raise RuntimeError(f"a simulated game passed {MAX_EVENTS} events")
            if self.mistakes and self.rng.random() < P_WRONG_TAP:
                self._wrong_tap()
            state = self.state
            if state.window is not None and state.window is not self.left_open:
                self._answer(state.window)
            elif state.tiebreak is not None:
                self._tiebreak()
            elif not self._turn():
                return SimulatedGame(self.events, self.game, self.stats, stalled=True)
        if self.mistakes and self.rng.random() < P_WRONG_TAP * 10:
            self._wrong_tap()
        return SimulatedGame(self.events, self.game, self.stats)

    # -- logging events --

    def _push(self, event: Event, physical: str | None = None) -> Result[GameState, Event]:
        before = self.state
        w = before.window
        if physical is None and isinstance(event, Press) and w is not None:
            # The card a press holds up: the victim's Don't Be SORRY!, anyone else's steal.
            victim = w.kind is Awaiting.BLOCK and event.player == self.names[w.victim]
            physical = DONT_BE_SORRY if victim else STEAL
        try:
            result = self.game.push(event)
        except CompanionError as exc:
            raise SimulationError(f"the engine refused {event.to_json()}: {exc}",
                                  [*self.events, event]) from None
        self.table.follow(result, before, physical)
        self.events.append(event)
        self.stats.update(o.what.value for o in outcomes_of(result))
        self._check(event)
        if self.watch is not None:
            self.watch(event, result, physical)
        if result.kind is ResultKind.APPLIED and self.mistakes \
                and self.rng.random() < P_UNDO_REDO:
            self._undo_redo()
        return result

    def _check(self, event: object) -> None:
        mine, theirs = self.table.cards.counts(), engine_counts(self.state)
        if mine != theirs:
            diff = {k: (theirs[k], mine[k]) for k in mine if mine[k] != theirs[k]}
            raise SimulationError(
                f"{getattr(event, 'to_json', lambda: event)()}: the table's cards do not "
                f"follow the engine's counts (engine, table): {diff}", self.events)

    def _undo_redo(self) -> None:
        """Take back a few steps and apply them again: the state must come back exactly."""
        before = self.state
        k = self.rng.randint(1, min(3, self.game.depth))
        for event in [Undo()] * k + [Redo()] * k:
            at = self.state
            self.table.follow(self.game.push(event), at, None)
            self.events.append(event)
        self.stats["undo_redo"] += 1
        if self.state is not before:
            raise SimulationError(f"{k} undos and redos did not give the state back",
                                  self.events)

    def _wrong_tap(self) -> None:
        """A tap the rules do not allow now: the engine must refuse it and change nothing."""
        event = self.rng.choice(self._wrong_taps())
        before = self.state
        try:
            self.game.push(event)
        except CompanionError:
            self.stats["refused"] += 1
        else:
            raise SimulationError(f"the engine accepted the wrong tap {event.to_json()}",
                                  [*self.events, event])
        if self.state is not before:
            raise SimulationError(f"the refused {event.to_json()} changed the state",
                                  self.events)

    def _wrong_taps(self) -> list[Any]:
        state, names, card = self.state, self.names, Card.parse
        taps: list[Any] = []
        if not self.game.depth:
            taps.append(Undo())
        if self.game.redo_step is None:
            taps.append(Redo())
        tb = state.tiebreak
        if tb is None:
            taps.append(Tiebreak(names[0], 12))
        else:
            taps.extend(Tiebreak(n, 12) for i, n in enumerate(names) if i not in tb.tied)
        if state.winner is not None or tb is not None:
            return [*taps, Play(card("5"))]
        if state.window is None:
            taps.append(Close())
            taps.append(Play(card(FLIP), target=names[state.turn]))
            if not state.owed and any(p for i, p in enumerate(state.progress)
                                      if i != state.turn):
                taps.append(Play(card(FLIP)))
        elif closing_decides(state):
            taps.append(Play(card("5")))
        taps.append(Play(card("slide:10")) if state.owed else EndPlay2())
        turn = state.turn if state.window is None else after_close(state).turn
        others = [n for i, n in enumerate(names) if i != turn]
        taps.append(Play(card("3"), player=self.rng.choice(others)))
        return taps

    # -- the bots' moves --

    def _t(self, low: float, high: float) -> float:
        return round(self.now + self.rng.uniform(low, high), 3)

    def _leader(self, seat: int) -> int | None:
        """Who a flip-back targets: the most advanced opponent once any open window closes."""
        state = self.state
        progress = (state if state.window is None else after_close(state)).progress
        eligible = [i for i, p in enumerate(progress) if p > 0 and i != seat]
        if not eligible:
            return None
        best = max(progress[i] for i in eligible)
        return self.rng.choice([i for i in eligible if progress[i] == best])

    def _turn(self) -> bool:
        """The player whose turn it is plays a card; False if they cannot (stalled)."""
        rng = self.rng
        state = self.state
        seat = state.turn
        hand = self.hand(seat)
        if not hand and not state.owed:
            if state.window is not None:
                self._push(Close())
                state = self.state
            top = self.table.top_card()
            if top is None:
                return False
            hand = [top]  # the engine counts the card as drawn when it is played
        self.now += rng.uniform(0.5, 4.0)
        if state.window is None and rng.random() < P_STRAY / 2:  # "no SORRY! now"
            self._push(Press(rng.choice(self.names), self._t(0, 1)))
        leader = self._leader(seat)
        total = state.total if state.window is None else 0  # the card closes the window
        code = choose_card(rng, hand, total, state.owed, leader is not None)
        if code is None:
            self._push(EndPlay2())
            return True
        flip = code in SORRY_FAMILY
        target = self.names[leader] if flip and leader is not None else None
        player = self.names[seat] if rng.random() < P_NAME_PLAYER else None
        self._push(Play(Card.parse(FLIP if flip else code), player, target), code)
        return True

    def _answer(self, w: Window) -> None:
        """The table answers an open window: calls, blocks, stray presses, then close."""
        if w.kind is Awaiting.STEAL:
            self._steal_presses(w)
        else:
            self._block(w.victim)
            if self.state.window is not None and self.rng.random() < P_STRAY:
                stray = [i for i in range(len(self.names)) if i != w.victim]
                self._push(Press(self.names[self.rng.choice(stray)], self._t(0.1, 3)))
        if self.state.window is None:
            return
        if self.rng.random() < P_LEAVE_OPEN and not closing_decides(self.state):
            self.left_open = self.state.window
        else:
            self._push(Close())

    def _block(self, victim: int) -> None:
        if DONT_BE_SORRY in self.hand(victim) and self.rng.random() < P_BLOCK:
            self._push(Press(self.names[victim], self._t(0.5, 4)))

    def _steal_presses(self, w: Window) -> None:
        """R9: steal holders call at random edge times, delivered in or out of order."""
        rng = self.rng
        calls: list[tuple[float, int]] = []
        for seat in range(len(self.names)):
            if seat != w.scorer and STEAL in self.hand(seat) and rng.random() < P_CALL:
                calls.append((self._t(0.05, 2.5), seat))
                if rng.random() < P_DOUBLE:
                    calls.append((round(calls[-1][0] + rng.uniform(0.01, 1), 3), seat))
        calls.sort()
        if len(calls) > 1 and rng.random() < P_OUT_OF_ORDER:
            rng.shuffle(calls)
        scorer_blocks = DONT_BE_SORRY in self.hand(w.scorer)
        if scorer_blocks and rng.random() < P_EARLY_BLOCK:
            calls.insert(0, (self._t(0.05, 1), w.scorer))
        block = scorer_blocks and rng.random() < P_BLOCK
        early = rng.random() < 0.5  # the block may arrive before later presses
        for t, seat in calls:
            self._push(Press(self.names[seat], t))
            if block and early and self._called() and rng.random() < 0.5:
                self._push(Press(self.names[w.scorer], self._t(0.5, 4)))
                block = False
        if block and self._called():
            self._push(Press(self.names[w.scorer], self._t(0.5, 4)))

    def _called(self) -> bool:
        w = self.state.window
        return w is not None and w.caller is not None

    def _tiebreak(self) -> None:
        tb = self.state.tiebreak
        assert tb is not None
        seat = self.rng.choice([s for s, t in zip(tb.tied, tb.totals, strict=True) if t is None])
        if self.rng.random() < P_BEST_TIEBREAK:
            total = best_total(self.hand(seat))
        else:
            total = self.rng.randint(10, 25)
        self._push(Tiebreak(self.names[seat], total))


def simulate(rng: random.Random, *, players: int = 4, pawns: int = 4,
             variant: str = Variant.STANDARD.value, deck: dict[str, int] | None = None,
             mistakes: bool = True, watch: Watcher | None = None) -> SimulatedGame:
    """Play one whole game. `watch` (a test's referee) is called with (setup, None, the
    dealt cards) and then (event, result, the physical card or None) for every event."""
    names = [NAMES[i] if i < len(NAMES) else f"Player {i + 1}" for i in range(players)]
    setup = Setup.create(names, first=rng.choice(names), pawns=pawns, variant=variant)
    return _Table(rng, setup, deck or DEFAULT_DECK, mistakes, watch).run()


def simulate_game(rng: random.Random, *, players: int = 4, pawns: int = 4,
                  variant: str = Variant.STANDARD.value,
                  deck: dict[str, int] | None = None) -> list[Any]:
    """The transcript of one simulated game, setup first."""
    return simulate(rng, players=players, pawns=pawns, variant=variant, deck=deck).events
