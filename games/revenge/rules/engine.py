"""The rules engine: `apply(state, event)` is the only place the rules of RULES.md live.

It is a pure function: it never mutates `state`, reads no clock and does no I/O. It
either returns a Transition (the new state and what happened, for voice, lamps and
statistics) or raises one of the IllegalEvent/BadEvent refusals with a plain sentence.
A press that the rules ignore (R9, "no SORRY! now") returns the *same* state object.

>>> from games.revenge.rules.cards import Card
>>> from games.revenge.rules.events import Play, Setup
>>> s = initial_state(Setup.create(["Ana", "Ben"]))
>>> apply(s, Play(Card.parse("7"))).state.total
7
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from enum import StrEnum
from functools import lru_cache
from typing import TYPE_CHECKING, Any, NamedTuple

from companion.errors import BadEvent, BadTarget, CardRefused, GameOver, IllegalEvent, NotYourTurn
from companion.members import members
from companion.rules import Countdown, JsonEvent, Transition
from companion.safe_text import quote
from games.revenge.rules.cards import ALL_CARDS, CardKind
from games.revenge.rules.events import (
    MAX_PAWNS,
    MAX_PLAYERS,
    Close,
    EndPlay2,
    Event,
    Play,
    Press,
    Setup,
    Tiebreak,
    Variant,
)
from games.revenge.rules.state import (
    HAND_LIMIT,
    HAND_SIZE,
    Awaiting,
    Cause,
    GameState,
    TiebreakRound,
    Window,
    initial_state,
)

if TYPE_CHECKING:
    from companion.game import Result

__all__ = [
    "MOVEMENTS", "Happening", "Outcome", "Parts", "Transition", "apply", "apply_parts",
    "countdown", "initial_state", "options", "outcomes_of",
]

WINNING_TOTAL = 21

# Named tuples built on the hot path go through tuple.__new__ directly: the generated
# __new__ of a NamedTuple is a Python call per object, and replay builds several per event.
_new = tuple.__new__


class Happening(StrEnum):
    """What an event did, beyond the new numbers: for voice, lamps, LEDs and statistics."""

    REACHED_21 = "reached_21"  # seat reached 21; the steal window opens
    BUST = "bust"  # seat went over 21; value = the total
    ADVANCE = "advance"  # seat +1 progress; value = new progress
    MOVE_BACK = "move_back"  # seat -1 progress; value = new progress
    ROUND_KEPT = "round_kept"  # seat keeps its 21 (no call, or blocked)
    STEAL_CALLED = "steal_called"  # seat called SORRY! on other
    CALLER_REPLACED = "caller_replaced"  # seat's earlier edge replaced other; value = margin s
    STOLEN = "stolen"  # seat stole the round from other
    STEAL_BLOCKED = "steal_blocked"  # seat blocked other's steal
    FLIP_PLAYED = "flip_played"  # seat played SORRY! on other (other None: no target)
    FLIP_BLOCKED = "flip_blocked"  # seat blocked other's flip-back
    FLIPPED_BACK = "flipped_back"  # seat was flipped back by other
    TAKE2_SKIPPED = "take2_skipped"  # seat would hold more than 7; value = the hand
    RESHUFFLED = "reshuffled"  # the old piles became the draw pile
    ROUND_ENDED = "round_ended"  # value = the number of the round that ended
    TIED = "tied"  # a tiebreaker starts (again)
    WON = "won"  # seat won the game
    EARLIER_EDGE = "earlier_edge"  # the caller's own earlier edge arrived late; value = s
    IGNORED = "ignored"  # a press that changes nothing ("no SORRY! now"); seat pressed
    # Card movements, in the order they happen, so real cards can follow the counts
    # (the simulator's deck): with RESHUFFLED and ROUND_ENDED (the pile set aside).
    DRAWN = "drawn"  # seat took cards from the draw pile; value = how many
    LAID = "laid"  # seat laid a card from the hand on the play pile (the event's card)


MOVEMENTS = frozenset({Happening.DRAWN, Happening.LAID})

# The members the hot paths read, as plain attributes (see companion.members).
_Happening, _CardKind = members(Happening), members(CardKind)
_Awaiting, _Cause = members(Awaiting), members(Cause)


class Outcome(NamedTuple):
    what: Happening
    seat: int | None = None
    other: int | None = None
    value: float | None = None


def outcomes_of(result: Result[object, JsonEvent] | None) -> tuple[Outcome, ...]:
    """The card game's outcomes of one result: the core keeps every game's as objects, and
    every outcome this engine makes is an Outcome."""
    if result is None:
        return ()
    return tuple(o for o in result.outcomes if isinstance(o, Outcome))


# _Draft and _new build these by position: a field added or moved must be seen here first.
assert GameState._fields == (
    "setup", "progress", "hands", "total", "direction", "turn", "round", "pile", "discards",
    "draw_pile", "owed", "window", "tiebreak", "winner", "reshuffles")
assert Transition._fields == ("state", "outcomes", "changed", "amends")
assert Outcome._fields == ("what", "seat", "other", "value")


# A transition as the engine's functions build it: Transition's fields in a plain tuple
Parts = tuple[GameState, tuple[Outcome, ...], bool, bool]

_DRAWN, _LAID = _Happening.DRAWN, _Happening.LAID  # every card played emits these
_ADVANCE, _MOVE_BACK = _Happening.ADVANCE, _Happening.MOVE_BACK
_ROUND_ENDED = _Happening.ROUND_ENDED
_Variant = members(Variant)

# The outcomes a game emits again and again, built once and shared (outcomes are
# immutable values, so sharing them changes nothing): building a NamedTuple costs about as
# much as ten dict look-ups. Keyed as `_Draft.emit` asks: (what, seat, other, value).
_SEATS = range(MAX_PLAYERS)
_VALUES = {_DRAWN: range(1, HAND_LIMIT + 1), _ADVANCE: range(2 * MAX_PAWNS + 1),
           _MOVE_BACK: range(2 * MAX_PAWNS + 1), _Happening.BUST: range(22, 32),
           _Happening.TAKE2_SKIPPED: range(HAND_LIMIT - 1, HAND_LIMIT + 3)}
_OUTCOMES: dict[tuple[Happening, int | None, int | None, int | None], Outcome] = {
    key: _new(Outcome, key) for key in (
        *((what, seat, other, None) for what in Happening if what not in _VALUES
          for seat in (None, *_SEATS) for other in (None, *_SEATS)),
        *((what, seat, None, value) for what, values in _VALUES.items() for seat in _SEATS
          for value in values),
        *((_ROUND_ENDED, None, None, n) for n in range(1, 101)))}


def _outcome(key: tuple[Happening, int | None, int | None, int | None]) -> Outcome:
    """The table's shared outcome when it has it (every value the engine emits is a whole
    number, so an equal key is the very outcome), else a new one."""
    return _OUTCOMES.get(key) or _new(Outcome, key)


class _Draft:
    """A mutable copy of a state while one event is applied; frozen again at the end."""

    # GameState's own fields (one definition: state.py), plus the state drafted from and
    # the outcomes so far. `progress` and `hands` are lists while drafting.
    __slots__ = (*GameState._fields, "out", "s")

    if TYPE_CHECKING:  # for the checker: the fields whose drafting type it cannot infer
        progress: list[int] | tuple[int, ...]  # the state's tuple until a pawn card moves
        hands: list[int]
        window: Window | None
        tiebreak: TiebreakRound | None
        pile: int
        discards: int
        draw_pile: int
        def __getattr__(self, name: str) -> Any: ...  # the other fields, as GameState's
        def __setattr__(self, name: str, value: Any) -> None: ...

    def __init__(self, s: GameState) -> None:
        self.s = s
        (self.setup, progress, hands, self.total, self.direction, self.turn, self.round,
         self.pile, self.discards, self.draw_pile, self.owed, self.window, self.tiebreak,
         self.winner, self.reshuffles) = s  # one unpacking, in GameState's order (above)
        self.progress = progress  # a list once a pawn card moves (most events move none)
        self.hands = list(hands)
        self.out: list[Outcome] = []

    def emit(self, what: Happening, seat: int | None = None, other: int | None = None,
             value: int | None = None) -> None:
        """One outcome (`_outcome`, inline: emitted several times an event)."""
        key = (what, seat, other, value)
        self.out.append(_OUTCOMES.get(key) or _new(Outcome, key))

    def freeze(self) -> Parts:
        # Each field by name, in GameState's order (above): twice as fast as one attrgetter
        # whose result is star-unpacked through a list.
        state = _new(GameState, (
            self.setup, tuple(self.progress), tuple(self.hands), self.total, self.direction,
            self.turn, self.round, self.pile, self.discards, self.draw_pile, self.owed,
            self.window, self.tiebreak, self.winner, self.reshuffles))
        return (state, tuple(self.out), True, False)

    # --- cards and hands (tracked, advisory: they never refuse a real card) ---

    def draw(self, seat: int, n: int) -> None:
        """Draw n cards; when the draw pile runs out mid-draw the old piles are shuffled in."""
        pile = self.draw_pile
        take = n if n < pile else pile  # min(), inline: a builtin call costs ten compares
        if take:
            self.draw_pile -= take
            self.hands[seat] += take
            self.emit(_DRAWN, seat, None, take)
        n -= take
        if n and self.discards:
            self.draw_pile, self.discards = self.discards, 0
            self.reshuffles += 1
            self.emit(_Happening.RESHUFFLED)
            pile = self.draw_pile
            take = n if n < pile else pile
            if take:
                self.draw_pile -= take
                self.hands[seat] += take
                self.emit(_Happening.DRAWN, seat, value=take)

    def refill(self, seat: int) -> None:
        """Draw back up to 5 (a player holding more keeps them)."""
        if self.hands[seat] < HAND_SIZE:
            self.draw(seat, HAND_SIZE - self.hands[seat])

    def lay(self, seat: int) -> None:
        """A card leaves seat's hand onto the play pile.

        A tracked hand of 0 means the tracker missed a draw: the card is taken to have come
        from the draw pile. Only a card that cannot exist by count (an empty hand and
        nothing left to draw, which a real deck's mix of cards never reaches) is refused.
        """
        if self.hands[seat] == 0:
            self.draw(seat, 1)
            if self.hands[seat] == 0:
                raise IllegalEvent(
                    f"{self.s.name(seat)} has no card left by the count and there is none to "
                    "draw, so this card cannot have been played; undo the last tap",
                    code="no_card_left", player=self.s.name(seat),
                )
        self.hands[seat] -= 1
        self.pile += 1
        self.out.append(_new(Outcome, (_LAID, seat, None, None)))  # emit, inlined: hot

    # --- turns, rounds, progress ---

    def end_turn(self, seat: int) -> None:
        """R1 and the draw rule: draw up to 5, then the next player in the direction plays."""
        self.owed = 0
        self.refill(seat)
        self.turn = (seat + self.direction) % len(self.hands)

    def end_round(self) -> None:
        """R8: the play pile is set aside (after any drawing) and a new one begins."""
        self.emit(_ROUND_ENDED, None, None, self.round)
        self.discards += self.pile
        self.pile = 0
        self.total = 0
        self.owed = 0
        self.round += 1
        self.check_end()

    def advance(self, seat: int) -> None:
        setup = self.setup  # (GameState.goal, inline, and min(): a call each costs more)
        goal = setup.pawns * 2 if setup.variant is _Variant.LONG else setup.pawns
        progress = self.progress
        if type(progress) is not list:
            progress = self.progress = list(progress)
        p = progress[seat] + 1
        if p > goal:
            p = goal
        progress[seat] = p
        self.emit(_ADVANCE, seat, None, p)

    def move_back(self, seat: int) -> None:
        progress = self.progress
        if type(progress) is not list:
            progress = self.progress = list(progress)
        p = progress[seat] - 1
        if p < 0:
            p = 0
        progress[seat] = p
        self.emit(_MOVE_BACK, seat, None, p)

    def check_end(self) -> None:
        """R12: one player at the goal wins; several start a tiebreaker."""
        setup = self.setup  # (GameState.goal and max(), inline: a call each costs more)
        goal = setup.pawns * 2 if setup.variant is _Variant.LONG else setup.pawns
        for p in self.progress:
            if p >= goal:
                break
        else:  # the common case: nobody there yet
            return
        reached = tuple(i for i, p in enumerate(self.progress) if p >= goal)
        if len(reached) == 1:
            self.winner = reached[0]
            self.emit(_Happening.WON, reached[0])
        elif reached:
            self.tiebreak = TiebreakRound(reached, (None,) * len(reached))
            self.emit(_Happening.TIED)

    def close_window(self) -> None:
        """The open window closes without an answer: R9 or R10 decides what happens."""
        w = self.window
        assert w is not None
        self.window = None
        seat, step, what, other = _unanswered(w)
        if step > 0:
            self.advance(seat)
        else:
            self.move_back(seat)
        self.emit(what, seat, other)
        self.end_round()

    def sorry_out_of_turn(self, seat: int) -> None:
        """A SORRY!-family card played out of turn: laid, then draw back up to 5 at once."""
        self.lay(seat)
        self.refill(seat)


def _unanswered(w: Window) -> tuple[int, int, Happening, int | None]:
    """What a window closing unanswered does (R9, R10): whose pawn card moves, which way,
    and what that is: the 21 kept (its scorer +1), stolen (the caller +1, from the scorer),
    or a flip-back (its victim -1, by the scorer)."""
    if w.kind is _Awaiting.STEAL:
        return w.scorer, 1, _Happening.ROUND_KEPT, None
    if w.cause is _Cause.STEAL:
        assert w.caller is not None
        return w.caller, 1, _Happening.STOLEN, w.scorer
    return w.victim, -1, _Happening.FLIPPED_BACK, w.scorer


def apply(state: GameState, event: object) -> Transition[GameState]:
    """Apply one game event (play, press, close, end_play2, tiebreak) to `state`."""
    return _new(Transition, apply_parts(state, event))


def apply_parts(state: GameState, event: object) -> Parts:
    """`apply`'s transition as a plain tuple (state, outcomes, changed, amends), what
    `Game.push` unpacks: a NamedTuple built and dropped per event cost it about a tenth of
    a number card's event."""
    cls = type(event)  # the common case in one look-up; subclasses fall through below
    if cls is Play:
        return _play(state, event)  # type: ignore[arg-type]
    if cls is Press:
        return _press(state, event)  # type: ignore[arg-type]
    if cls is Close:
        return _close(state)
    if isinstance(event, Play):
        return _play(state, event)
    if isinstance(event, Press):
        return _press(state, event)
    if isinstance(event, Close):
        return _close(state)
    if isinstance(event, EndPlay2):
        return _end_play2(state)
    if isinstance(event, Tiebreak):
        return _tiebreak(state, event)
    raise BadEvent(f"{type(event).__name__} is not a game event the engine applies")


def _seat(state: GameState, name: str) -> int:
    seat = state.seat_of(name)
    if seat is None:
        raise BadEvent(
            f"no player is called {quote(name)}; the players are {list(state.setup.players)}",
            code="unknown_player", player=name, players=", ".join(state.setup.players),
        )
    return seat


def _refuse_when_over(state: GameState) -> None:
    if state.winner is not None:
        raise GameOver(
            f"the game is over: {state.name(state.winner)} has won; undo to go back",
            code="game_over", winner=state.name(state.winner),
        )
    if state.tiebreak is not None:
        raise IllegalEvent(
            "the tiebreaker is being played: enter each tied player's total",
            code="in_tiebreak",
        )


def _play(state: GameState, ev: Play) -> Parts:
    kind = ev.card.kind
    if kind is _CardKind.NUMBER or kind is _CardKind.SLIDE:  # (the rest: _quick_total)
        quick = _quick_total(state, ev, kind is _CardKind.NUMBER)
        if quick is not None:
            return quick
    elif kind is not _CardKind.SORRY:
        quick = _quick_turn(state, ev, kind)
        if quick is not None:
            return quick
    return _play_in_full(state, ev)


def _play_in_full(state: GameState, ev: Play) -> Parts:
    """Any card, every rule checked on a draft of the state."""
    card = ev.card
    kind = card.kind
    _refuse_when_over(state)
    d = _Draft(state)
    if d.window is not None:
        d.close_window()  # "a window closes when the next card is logged"
        if d.winner is not None or d.tiebreak is not None:
            raise IllegalEvent(
                "the open SORRY! window decides the game; close it before logging another card",
                code="window_decides",
            )
    seat = d.turn
    if ev.player is not None and _seat(state, ev.player) != seat:
        raise NotYourTurn(
            f"it is {state.name(seat)}'s turn, not {ev.player}'s",
            code="not_your_turn", turn=state.name(seat), player=ev.player,
        )
    if d.owed and not card.is_number:
        raise CardRefused(
            f"{state.name(seat)} owes {d.owed} number card{'s' if d.owed > 1 else ''} for "
            f"Play 2, so {card.label} cannot be played now; log a number card or end the Play 2",
            code="play2_owed", player=state.name(seat), owed=d.owed, card=card.code,
        )
    if card.kind is not _CardKind.SORRY and ev.target is not None:
        raise BadEvent(
            f"only a SORRY! card takes a target, not {card.label}",
            code="target_without_sorry", card=card.code,
        )
    if kind is _CardKind.SORRY:
        _flip_back(state, d, seat, ev.target)
        return d.freeze()
    d.lay(seat)
    if kind is _CardKind.NUMBER:
        d.total += card.value
        _after_total(d, seat)
    elif kind is _CardKind.SLIDE:
        d.total = card.value
        _after_total(d, seat)
    elif kind is _CardKind.SWITCH:
        d.direction = -d.direction
        d.end_turn(seat)
    elif kind is _CardKind.TAKE2:
        if d.hands[seat] + 2 > HAND_LIMIT:
            d.emit(_Happening.TAKE2_SKIPPED, seat, value=d.hands[seat] + 2)
        else:
            d.draw(seat, 2)
        d.end_turn(seat)
    else:  # PLAY2
        d.owed = 2
    return d.freeze()


def _quick_total(state: GameState, ev: Play, number: bool) -> Parts | None:
    """The most common event, a number or Slide card that leaves the total under 21 with
    no window open (a number may be one a Play 2 owes), built straight from the tuple:
    the same state and outcomes as the general path (the replay and state-machine tests
    compare them), or None when anything unusual is in play (a named player not seated
    there, an empty hand, a reshuffle), which the general path then decides."""
    (setup, progress, hands, total, direction, turn, rnd, pile, discards, draw_pile, owed,
     window, tiebreak, winner, reshuffles) = state
    # (read here from the unpacked state: a NamedTuple's field by name costs more)
    if window is not None or winner is not None or tiebreak is not None or (
            owed and not number):  # a Slide while a Play 2 is owed: refused in full
        return None
    total = total + ev.card.value if number else ev.card.value
    if total >= WINNING_TOTAL:
        return None
    players = setup.players
    if (ev.player is not None and ev.player != players[turn]) or ev.target is not None:
        return None
    held = hands[turn] - 1  # laid
    if held < 0:
        return None
    if owed > 1:  # a Play 2's first number: the same player plays again, no drawing yet
        need, owed, after_turn = 0, owed - 1, turn
    else:  # the turn ends (R1): draw up to 5
        need = HAND_SIZE - held if held < HAND_SIZE else 0
        if need > draw_pile:
            return None
        owed, after_turn = 0, (turn + direction) % len(players)
    if held + need != hands[turn]:  # a hand of 5 lays one and draws one: the same tuple
        hands = (*hands[:turn], held + need, *hands[turn + 1:])
    after = _new(GameState, (setup, progress, hands, total, direction, after_turn, rnd,
                             pile + 1, discards, draw_pile - need, owed, None, None, None,
                             reshuffles))
    return (after, _LAID_DRAWN[turn][need], True, False)


def _quick_turn(state: GameState, ev: Play, kind: CardKind) -> Parts | None:
    """A Switch, Take 2 or Play 2 played on its turn with no window open and nothing owed
    (one event in nine), built straight from the tuple as `_quick_total` builds a number:
    the same state and outcomes as the general path, or None when anything unusual is in
    play (a refusal, an empty hand, a reshuffle), which the general path then decides."""
    (setup, progress, hands, total, direction, turn, rnd, pile, discards, draw_pile, owed,
     window, tiebreak, winner, reshuffles) = state
    if window is not None or winner is not None or tiebreak is not None or owed or (
            ev.target is not None or (ev.player is not None and ev.player != setup.players[turn])):
        return None
    held = hands[turn] - 1  # laid
    if held < 0:
        return None
    laid = _LAID_DRAWN[turn][0]
    if kind is _CardKind.PLAY2:  # the same player plays two numbers
        after = _new(GameState, (setup, progress, (*hands[:turn], held, *hands[turn + 1:]),
                                 total, direction, turn, rnd, pile + 1, discards, draw_pile, 2,
                                 None, None, None, reshuffles))
        return (after, laid, True, False)
    out = laid
    if kind is _CardKind.SWITCH:
        direction = -direction
    elif held + 2 > HAND_LIMIT:  # Take 2 that would hold more than 7: skipped
        out = (*out, _outcome((_Happening.TAKE2_SKIPPED, turn, None, held + 2)))
    elif draw_pile < 2:
        return None
    else:
        held, draw_pile = held + 2, draw_pile - 2
        out = (*out, _OUTCOMES[(_DRAWN, turn, None, 2)])
    need = HAND_SIZE - held if held < HAND_SIZE else 0  # the turn ends (R1): draw up to 5
    if need > draw_pile:
        return None
    if need:
        out = (*out, _OUTCOMES[(_DRAWN, turn, None, need)])
    after = _new(GameState, (setup, progress, (*hands[:turn], held + need, *hands[turn + 1:]),
                             total, direction, (turn + direction) % len(hands), rnd, pile + 1,
                             discards, draw_pile - need, 0, None, None, None, reshuffles))
    return (after, out, True, False)


# The outcomes of _quick_total, by seat and cards drawn: (LAID,) or (LAID, DRAWN n), built
# once (outcomes are immutable values, so sharing them changes nothing).
_LAID_DRAWN = tuple(
    tuple((_new(Outcome, (_LAID, seat, None, None)),
           *((_new(Outcome, (_DRAWN, seat, None, need)),) if need else ()))
          for need in range(HAND_SIZE + 1))
    for seat in range(MAX_PLAYERS))


def _after_total(d: _Draft, seat: int) -> None:
    """R4 and R7 after a number or Slide card changed the total."""
    if d.total == WINNING_TOTAL:
        d.emit(_Happening.REACHED_21, seat)
        d.end_turn(seat)
        d.window = Window(_Awaiting.STEAL, _Cause.STEAL, scorer=seat, victim=seat)
    elif d.total > WINNING_TOTAL:
        d.emit(_Happening.BUST, seat, value=d.total)
        d.end_turn(seat)
        for other in range(len(d.hands)):
            if other != seat:
                d.advance(other)
        d.end_round()
    elif d.owed > 1:
        d.owed -= 1
    else:
        d.end_turn(seat)


def _flip_back(state: GameState, d: _Draft, seat: int, target: str | None) -> None:
    """R10: SORRY! on your turn, naming an opponent with an advanced pawn (or no one)."""
    eligible = [i for i, p in enumerate(d.progress) if p > 0 and i != seat]
    names = " or ".join(state.name(i) for i in eligible)
    if target is None:
        if eligible:
            raise BadTarget(
                f"name the player to flip back: {names}", code="name_target",
                players=", ".join(state.name(i) for i in eligible),
            )
        d.lay(seat)
        d.emit(_Happening.FLIP_PLAYED, seat)
        d.end_turn(seat)
        d.end_round()
        return
    victim = _seat(state, target)
    if victim == seat:
        raise BadTarget(
            f"{state.name(seat)} cannot flip back their own pawn; name another player",
            code="target_self", player=state.name(seat),
        )
    if d.progress[victim] == 0:
        fix = f"name {names}" if eligible else "play it with no target"
        raise BadTarget(
            f"{state.name(victim)} has no pawn card to flip back; {fix}",
            code="target_at_start", player=state.name(victim),
        )
    d.lay(seat)
    d.emit(_Happening.FLIP_PLAYED, seat, victim)
    d.end_turn(seat)
    d.window = Window(_Awaiting.BLOCK, _Cause.FLIP, scorer=seat, victim=victim)


def _ignored(state: GameState, seat: int) -> Parts:
    return (state, _IGNORED_BY_SEAT[seat], False, False)


_IGNORED_BY_SEAT = tuple((Outcome(_Happening.IGNORED, seat),) for seat in range(MAX_PLAYERS))


def _press(state: GameState, ev: Press) -> Parts:
    """R9/R10: a press is a SORRY! call or a Don't Be SORRY!, whichever applies now."""
    seat = _seat(state, ev.player)
    w = state.window
    if w is None:
        return _ignored(state, seat)
    if w.kind is _Awaiting.STEAL:
        if seat == w.scorer:
            return _ignored(state, seat)
        return _call(state, seat, ev.t)
    if seat == w.victim:
        d = _Draft(state)
        d.sorry_out_of_turn(seat)
        d.window = None
        if w.cause is _Cause.STEAL:
            d.emit(_Happening.STEAL_BLOCKED, seat, w.caller)
            d.advance(seat)
            d.emit(_Happening.ROUND_KEPT, seat)
        else:
            d.emit(_Happening.FLIP_BLOCKED, seat, w.scorer)
        d.end_round()
        return d.freeze()
    earlier = (
        w.cause is _Cause.STEAL
        and ev.t is not None
        and w.caller_t is not None
        and ev.t < w.caller_t
    )
    if not earlier:
        return _ignored(state, seat)
    assert ev.t is not None and w.caller_t is not None  # what `earlier` says
    if seat == w.caller:
        # The caller's own earlier edge arrived late: it is their call time from now on.
        refined = state._replace(window=replace(w, caller_t=ev.t))
        edge = Outcome(_Happening.EARLIER_EDGE, seat, value=w.caller_t - ev.t)
        return (refined, (edge,), True, True)
    assert w.before_call is not None and w.caller is not None
    after, outcomes, _changed, _amends = _call(w.before_call, seat, ev.t)
    replaced = Outcome(_Happening.CALLER_REPLACED, seat, w.caller, w.caller_t - ev.t)
    return (after, (replaced, *outcomes), True, False)


def _call(state: GameState, seat: int, t: float | None) -> Parts:
    """The first SORRY! call in a steal window: the block window opens for W."""
    w = state.window
    assert w is not None
    d = _Draft(state)
    d.sorry_out_of_turn(seat)
    d.window = Window(_Awaiting.BLOCK, _Cause.STEAL, w.scorer, w.scorer, seat, t, state)
    d.emit(_Happening.STEAL_CALLED, seat, w.scorer)
    return d.freeze()


def _close(state: GameState) -> Parts:
    """The open window closes unanswered (R9, R10; `_Draft.close_window` and `end_round`),
    built straight from the tuple (one event in ten); the general path when the pawn card
    it moves reaches the goal (R12 decides the game)."""
    (setup, progress, hands, _total, direction, turn, rnd, pile, discards, draw_pile, _owed,
     window, tiebreak, winner, reshuffles) = state
    if window is None:
        raise IllegalEvent(
            "no SORRY! window is open, so there is nothing to close", code="no_window"
        )
    seat, step, what, other = _unanswered(window)
    goal, progress = _moved_by_window(setup, progress, seat, step)
    moved = progress[seat]
    for p in progress:
        if p >= goal:  # someone at the goal: a winner or a tiebreaker
            d = _Draft(state)
            d.close_window()
            return d.freeze()
    outcomes = (_outcome((_ADVANCE if step > 0 else _MOVE_BACK, seat, None, moved)),
                _outcome((what, seat, other, None)), _outcome((_ROUND_ENDED, None, None, rnd)))
    after = _new(GameState, (setup, progress, hands, 0, direction, turn, rnd + 1, 0,
                             discards + pile, draw_pile, 0, None, tiebreak, winner, reshuffles))
    return (after, outcomes, True, False)


def _moved_by_window(setup: Setup, progress: tuple[int, ...], seat: int, step: int
                     ) -> tuple[int, tuple[int, ...]]:
    """The goal (R11) and the progress once the closing window's pawn card moves `seat`
    by `step` (R9, R10), kept within 0 and the goal: from the tuple, without the goal
    property, min() or max() (a window is open about one state in five)."""
    goal = setup.pawns * 2 if setup.variant is _Variant.LONG else setup.pawns
    moved = progress[seat] + step
    moved = goal if moved > goal else 0 if moved < 0 else moved
    return goal, (*progress[:seat], moved, *progress[seat + 1:])


def _end_play2(state: GameState) -> Parts:
    if not state.owed:
        raise IllegalEvent("no Play 2 is owed, so there is nothing to end", code="no_play2")
    d = _Draft(state)
    d.end_turn(d.turn)
    return d.freeze()


def _tiebreak(state: GameState, ev: Tiebreak) -> Parts:
    """R13: the highest total not over 21 wins; equal best or all over: play it again."""
    tb = state.tiebreak
    if tb is None:
        raise IllegalEvent("there is no tiebreaker now", code="no_tiebreak")
    seat = _seat(state, ev.player)
    if seat not in tb.tied:
        tied = " and ".join(state.name(i) for i in tb.tied)
        raise IllegalEvent(
            f"{state.name(seat)} is not in the tiebreaker; {tied} are",
            code="not_tied", player=state.name(seat),
            players=", ".join(state.name(i) for i in tb.tied),
        )
    idx = tb.tied.index(seat)
    if tb.totals[idx] is not None:
        raise IllegalEvent(
            f"{state.name(seat)}'s tiebreaker total is already in ({tb.totals[idx]}); "
            "undo it to change it",
            code="total_already_in", player=state.name(seat), total=tb.totals[idx],
        )
    totals = (*tb.totals[:idx], ev.total, *tb.totals[idx + 1:])
    d = _Draft(state)
    d.tiebreak = TiebreakRound(tb.tied, totals)
    if all(t is not None for t in totals):
        valid = [t for t in totals if t is not None and t <= WINNING_TOTAL]
        leaders = tb.tied
        if valid:
            best = max(valid)
            leaders = tuple(s for s, t in zip(tb.tied, totals, strict=True) if t == best)
        if len(leaders) == 1:
            d.tiebreak = None
            d.winner = leaders[0]
            d.emit(_Happening.WON, leaders[0])
        else:
            d.tiebreak = TiebreakRound(leaders, (None,) * len(leaders))
            d.emit(_Happening.TIED)
    return d.freeze()


def options(state: GameState) -> tuple[Event, ...]:
    """Every event `apply` accepts now that changes the game, in a stable order, read
    from the rules above rather than found by trying events: the cards (SORRY! once per
    player it may flip back, or once with no target when nobody can be), the presses that
    count, close, end_play2, and one Tiebreak per tied player still to enter a total
    (its total 0 stands for any whole number). Cards and presses name no player; the
    same card naming the player whose turn it is is accepted too.
    """
    (setup, progress, hands, _total, _direction, turn, _round, pile, discards, draw_pile,
     owed, window, tb, winner, _reshuffles) = state  # one unpacking: read per event
    if winner is not None:
        return ()
    if tb is not None:
        return tuple(Tiebreak(state.name(s), 0)
                     for s, t in zip(tb.tied, tb.totals, strict=True) if t is None)
    players = setup.players
    if window is None:  # the common case: no presses count, nothing to close
        if not (hands[turn] or draw_pile or discards):  # _legal_plays, inline
            return _END_PLAY2 if owed else ()
        if owed:
            return _NUMBERS_OR_END
        return _turn_plays(players, turn, progress)
    # Logging a card closes the window first: one pawn card moves, the round ends (its
    # pile set aside, nothing owed), and if that reaches the goal the window decides the
    # game (R12) and no card can be logged. (Inline, without min(), max(), the goal
    # property or pressers(): a window is open about one state in five.)
    seat, step, _what, _other = _unanswered(window)
    goal, progress = _moved_by_window(setup, progress, seat, step)
    plays: tuple[Event, ...] = ()
    for p in progress:
        if p >= goal:
            break
    else:  # nobody at the goal: _legal_plays's, with nothing owed
        if hands[turn] or draw_pile or discards or pile:
            plays = _turn_plays(players, turn, progress)
    presses = _presses(players)
    if window.kind is _Awaiting.STEAL:  # (GameState.pressers: all but the scorer, or the victim)
        scorer = window.scorer
        events = plays + presses[:scorer] + presses[scorer + 1:] + _CLOSE_ALONE
    else:
        events = (*plays, presses[window.victim], _CLOSE)
    return events + _END_PLAY2 if owed else events


def _legal_plays(players: tuple[str, ...], seat: int, progress: tuple[int, ...],
                 hands: Sequence[int], to_draw: int, owed: int) -> tuple[Play, ...]:
    """The cards `seat` may play (with no window open): none when no card is left by the
    count (see _Draft.lay), only numbers while a Play 2 is owed."""
    if not (hands[seat] or to_draw):
        return ()
    if owed:
        return _NUMBER_PLAYS
    return _turn_plays(players, seat, progress)


@lru_cache(maxsize=1024)
def _turn_plays(players: tuple[str, ...], seat: int, progress: tuple[int, ...]
                ) -> tuple[Play, ...]:
    """Every card, SORRY! once per player it may flip back (or once with no target when
    nobody can be): looked up per table, seat and progress, as a game comes back to
    them again and again; a new progress only finds which players have any (`_flips`)."""
    return _flips(players, seat, tuple(map(bool, progress)))  # (progress is never below 0)


@lru_cache(maxsize=256)
def _flips(players: tuple[str, ...], seat: int, started: tuple[bool, ...]
           ) -> tuple[Play, ...]:
    """`_turn_plays` by which players have progress (`started`): the Play objects are
    built once per table and seat, not once per progress."""
    flips = tuple(Play(_SORRY, None, players[i])
                  for i, has in enumerate(started) if has and i != seat)
    return _PLAIN_PLAYS + (flips or _SORRY_UNTARGETED)


@lru_cache(maxsize=64)
def _presses(players: tuple[str, ...]) -> tuple[Press, ...]:
    """Each seat's SORRY! press naming no time, built once per table."""
    return tuple(Press(name) for name in players)


# The events options offers, built once (events are immutable values, so sharing them
# changes nothing): every card but SORRY! in ALL_CARDS' order, then the SORRY! plays.
_SORRY = next(card for card in ALL_CARDS if card.kind is _CardKind.SORRY)
assert ALL_CARDS[-1] is _SORRY  # the SORRY! plays come last, as before
_PLAIN_PLAYS = tuple(Play(card) for card in ALL_CARDS if card is not _SORRY)
_NUMBER_PLAYS = tuple(play for play in _PLAIN_PLAYS if play.card.is_number)
_SORRY_UNTARGETED = (Play(_SORRY),)
_END_PLAY2 = (EndPlay2(),)
_NUMBERS_OR_END = _NUMBER_PLAYS + _END_PLAY2  # while a Play 2 is owed, no window open
_CLOSE = Close()
_CLOSE_ALONE = (_CLOSE,)


def countdown(state: GameState) -> Countdown | None:
    """The window the table closes by the clock (R9, R10): its kind picks the seconds.
    Its key leaves out the caller's edge time, so a refined edge keeps the countdown."""
    w = state.window
    if w is None:
        return None
    return Countdown(w.kind.value, (w.kind, w.cause, w.scorer, w.victim, w.caller), w, Close())
