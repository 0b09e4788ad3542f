"""The board game's `Rules` (companion.rules): a turn as BOARD.md "A turn" says, pure.

`apply` never mutates a state: a draw, a move, a no_play or a place gives a new state and
its outcomes, or raises a refusal whose `code` and params `explain` words in EN and FR.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

from companion.errors import CompanionError, GameOver
from companion.rules import GameSummary, Rules, Transition
from games.board.rules import moves
from games.board.rules.cards import CARDS
from games.board.rules.errors import IllegalMove, IllegalPlace
from games.board.rules.events import (
    GAME,
    BoardEvent,
    BoardSetup,
    Draw,
    Move,
    NoPlay,
    Place,
    parse_event,
    parse_setup,
)
from games.board.rules.explain import render
from games.board.rules.outcomes import (
    DrawAgain,
    Drew,
    Finished,
    Forfeited,
    Moved,
    NoPlayed,
    Placed,
    Reshuffled,
    Returned,
)
from games.board.rules.position import HOME_I, LOC, START_I, is_safety, is_track
from games.board.rules.state import BoardState, initial_state
from games.board.rules.stats import COUNTERS, game_counters

__all__ = ["RULES", "BoardRules", "options"]

E = TypeVar("E", bound=CompanionError)


def _refuse(cls: type[E], code: str, **params: Any) -> E:
    """A refusal whose English sentence is `explain`'s, so both languages say the same."""
    return cls(render(code, params, "en"), code=code, **params)


def options(state: BoardState) -> tuple[moves.Option, ...]:
    """Every legal option for the player to move with the card waiting (none: ())."""
    if state.card is None or state.color is None:
        return ()
    return moves.generate(state.position, state.card, state.color)


def _game_over(state: BoardState) -> None:
    if state.over:
        raise _refuse(GameOver, "game_over", winner=state.winner)


def _reshuffle(state: BoardState, out: list[Any], below: int = 1) -> BoardState:
    """The draw pile is empty: the discards become the new pile. `below` 0: the adult
    refill, whose card the pile count already leaves out."""
    if state.draw_pile >= below or not any(state.discards):
        return state
    out.append(Reshuffled(sum(state.discards)))
    unseen = tuple(u + d for u, d in zip(state.unseen, state.discards, strict=True))
    return state.with_(unseen=unseen, discards=(0,) * len(CARDS))


def _count(counts: tuple[int, ...], card: str, delta: int) -> tuple[int, ...]:
    i = CARDS.index(card)
    return (*counts[:i], counts[i] + delta, *counts[i + 1:])


def _discard(state: BoardState, card: str) -> tuple[int, ...]:
    return _count(state.discards, card, 1)


def _take(state: BoardState, card: str) -> tuple[int, ...]:
    i = CARDS.index(card)
    if state.unseen[i] == 0:
        raise _refuse(IllegalMove, "card_gone", card=card)
    return _count(state.unseen, card, -1)


def _next_seat(state: BoardState, seat: int) -> int:
    n = len(state.names)
    for step in range(1, n + 1):
        nxt = (seat + step) % n
        if nxt not in state.finished:
            return nxt
    return seat


def _end_turn(state: BoardState, seat: int, again: bool, out: list[Any]) -> BoardState:
    """The turn passes clockwise (or the classic 2 draws again); the adult hand refills."""
    if state.position.settings.adult and not state.over:
        state = _reshuffle(state, out, below=0)
    if state.over:
        return state
    if again and seat not in state.finished:
        out.append(DrawAgain(state.position.colors[seat]))
        return state.with_(turn=seat)
    return state.with_(turn=_next_seat(state, seat))


def _finish(state: BoardState, seat: int, out: list[Any]) -> BoardState:
    """Record `seat` finishing if its pawns are all HOME; end the game when it is decided."""
    if seat in state.finished or any(x != HOME_I for x in state.position.pawns[seat]):
        return state
    finished = (*state.finished, seat)
    out.append(Finished(state.position.colors[seat], len(finished)))
    state = state.with_(finished=finished)
    n = len(state.names)
    if not state.position.settings.play_on or len(finished) >= n - 1:
        rest = tuple(s for s in range(n) if s not in finished)
        if state.position.settings.play_on:
            finished = finished + rest
        state = state.with_(finished=finished, turn=None)
        if state.card is not None:
            state = state.with_(card=None, discards=_discard(state, state.card))
    return state


def _forfeit_or_wait(state: BoardState, out: list[Any]) -> BoardState:
    """After a card is drawn (or the board corrected): with no option, the turn is forfeited
    (adult variation: the card goes back to the hand)."""
    color = state.color
    if state.card is None or color is None or moves.has_options(state.position, state.card,
                                                                color):
        return state
    card, seat = state.card, state.turn
    assert seat is not None
    if state.position.settings.adult:
        out.append(Returned(color, card))
        return state.with_(card=None, unseen=_count(state.unseen, card, 1))
    again = state.position.edition == "classic" and card == "2"
    out.append(Forfeited(color, card, moves.blocked(state.position, card, color), again))
    state = state.with_(card=None, discards=_discard(state, card))
    return _end_turn(state, seat, again, out)


def _draw(state: BoardState, event: Draw, out: list[Any]) -> BoardState:
    if state.card is not None:
        raise _refuse(IllegalMove, "card_waiting", card=state.card)
    if not state.position.settings.adult:
        state = _reshuffle(state, out)
    state = state.with_(unseen=_take(state, event.card), card=event.card)
    assert state.color is not None
    if state.position.settings.adult and not moves.has_options(state.position, event.card,
                                                              state.color):
        raise _refuse(IllegalMove, "unplayable", card=event.card, color=state.color)
    out.append(Drew(state.color, event.card))
    return _forfeit_or_wait(state, out)


def _move(state: BoardState, event: Move, out: list[Any]) -> BoardState:
    if state.card is None or state.turn is None:
        raise _refuse(IllegalMove, "no_card")
    color, card, seat = state.position.colors[state.turn], state.card, state.turn
    option = event.option  # chosen from the listed options: no search by its legs
    if option is None or not _listed(state, option):
        option = moves.match(state.position, card, color, event.legs, event.kind, event.landed)
    if option is None:
        raise refusal(state, event.legs)
    out.append(Moved(color, option))
    state = state.with_(position=state.position.with_pawns(option.board), card=None,
                        discards=_discard(state, card))
    state = _finish(state, seat, out)
    return _end_turn(state, seat, option.draw_again, out)


def _listed(state: BoardState, option: moves.Option) -> bool:
    """Whether `option` is one the rules list now (the same object: the list is kept per
    position and card, so this finds it without working the card out again)."""
    return any(o is option for o in options(state))


def refusal(state: BoardState, legs: tuple[tuple[str, str], ...]) -> IllegalMove:
    """Why legs name no option of the waiting card: the pawn's own reason where one exists."""
    assert state.card is not None and state.color is not None
    card, color = state.card, state.color
    if not legs:
        code = "decline_forward" if any(o.kind in ("forward", "start") for o in
                                        options(state)) else "decline_no_switch"
        return _refuse(IllegalMove, code, card=card)
    src = legs[0][0]
    mine = state.position.pawns[state.turn or 0]
    if LOC[src] not in mine:
        return _refuse(IllegalMove, "no_pawn_there", color=color, square=src, you=color)
    for b in moves.blocked(state.position, card, color):
        if b.src == LOC[src]:
            return _refuse(IllegalMove, "pawn_blocked", card=card, square=src, why=b,
                           you=color)
    shown = "; ".join(o.text for o in options(state)) or "none"
    return _refuse(IllegalMove, "no_such_move", card=card, options=shown)


def _no_play(state: BoardState, event: NoPlay, out: list[Any]) -> BoardState:
    if not state.position.settings.adult:
        raise _refuse(IllegalMove, "not_adult")
    if state.card is not None:
        raise _refuse(IllegalMove, "card_waiting", card=state.card)
    color, seat = state.color, state.turn
    assert color is not None and seat is not None
    unseen = _take(state, event.discard)
    if moves.generate(state.position, event.discard, color):
        raise _refuse(IllegalMove, "playable", card=event.discard, color=color)
    out.append(NoPlayed(color, event.discard))
    state = state.with_(unseen=unseen, discards=_discard(state, event.discard))
    return _end_turn(state, seat, False, out)


def _place(state: BoardState, event: Place, out: list[Any]) -> BoardState:
    pos = state.position
    if event.color not in pos.colors:
        raise _refuse(IllegalPlace, "color_not_seated", color=event.color)
    seat = pos.seat(event.color)
    src, dst = LOC[event.src], LOC[event.dst]
    if src not in pos.pawns[seat]:
        raise _refuse(IllegalPlace, "no_pawn_there", color=event.color, square=event.src)
    if src == dst:
        raise _refuse(IllegalPlace, "same_square", square=event.dst, color=event.color)
    if seat in state.finished:
        raise _refuse(IllegalPlace, "finished", color=event.color)
    if dst not in (START_I, HOME_I):
        taken = (any(dst in locs for locs in pos.pawns) if is_track(dst)
                 else is_safety(dst) and dst in pos.pawns[seat])
        if taken:
            raise _refuse(IllegalPlace, "square_taken", square=event.dst, color=event.color)
    locs = list(pos.pawns[seat])
    locs.remove(src)
    locs.append(dst)
    pawns = (*pos.pawns[:seat], tuple(sorted(locs)), *pos.pawns[seat + 1:])
    out.append(Placed(event.color, event.src, event.dst))
    state = state.with_(position=pos.with_pawns(pawns))
    turn = state.turn
    state = _finish(state, seat, out)
    if not state.over and turn is not None and turn in state.finished:
        if state.card is not None:
            state = state.with_(card=None, discards=_discard(state, state.card))
        return state.with_(turn=_next_seat(state, turn))
    return _forfeit_or_wait(state, out)


class BoardRules:
    """The Sorry! board game, both editions (BOARD.md)."""

    name = GAME
    counters = COUNTERS  # the stats' columns, in this order

    def parse_setup(self, obj: dict[str, Any]) -> BoardSetup:
        return parse_setup(obj)

    def parse_event(self, obj: dict[str, Any]) -> BoardEvent:
        return parse_event(obj)

    def initial_state(self, setup: BoardSetup) -> BoardState:
        return initial_state(setup)

    def apply(self, state: BoardState, event: BoardEvent) -> Transition[BoardState]:
        _game_over(state)
        out: list[Any] = []
        if isinstance(event, Draw):
            new = _draw(state, event, out)
        elif isinstance(event, Move):
            new = _move(state, event, out)
        elif isinstance(event, NoPlay):
            new = _no_play(state, event, out)
        elif isinstance(event, Place):
            new = _place(state, event, out)
        else:
            raise TypeError(f"{type(event).__name__} is no board event")
        return Transition(new, tuple(out))

    def options(self, state: BoardState) -> Sequence[BoardEvent]:
        """Draws (or, adult, plays and no_plays) of the cards left, or the options' moves.
        Corrections (`place`) are not listed: they are not moves."""
        if state.over:
            return ()
        if state.card is not None:
            return tuple(Move.of(o) for o in options(state))
        pile = state.unseen
        if state.draw_pile == 0 and not state.position.settings.adult:
            pile = tuple(u + d for u, d in zip(state.unseen, state.discards, strict=True))
        cards = [c for c, n in zip(CARDS, pile, strict=True) if n]
        if not state.position.settings.adult:
            return tuple(Draw(c) for c in cards)
        color = state.color
        assert color is not None
        playable = [c for c in cards if moves.generate(state.position, c, color)]
        return (*(Draw(c) for c in playable),
                *(NoPlay(c) for c in cards if c not in playable))

    def state_json(self, state: BoardState) -> dict[str, Any]:
        """BOARD.md's `replay --json` object, plus the deck's counts and the settings."""
        pos = state.position
        pawns = pos.pawns_json()  # once, not once a player
        players = [{"name": name, "color": color, "pawns": pawns[color],
                    "home": state.home(seat)}
                   for seat, (name, color) in enumerate(zip(state.names, pos.colors,
                                                            strict=True))]
        return {
            "game": GAME, "edition": pos.edition, "players": players,
            "turn": None if state.turn is None else state.names[state.turn],
            "card": state.card, "winner": state.winner, "draw_pile": state.draw_pile,
            "remaining": state.remaining(), "discards": sum(state.discards),
            "ranking": [state.names[s] for s in state.finished],
            "settings": pos.settings.to_json(),
        }

    def describe(self, state: BoardState) -> str:
        """`replay` without --json: each player's pawns, the deck, whose turn or the winner."""
        pos = state.position
        n = len(pos.pawns[0])
        lines = [f"{name:<12} {color:<6} home {state.home(seat)}/{n}  "
                 + " ".join(pos.pawns_json()[color])
                 for seat, (name, color) in enumerate(zip(state.names, pos.colors,
                                                          strict=True))]
        lines.append(f"{pos.edition} edition, draw pile {state.draw_pile}, "
                     f"discards {sum(state.discards)}")
        if state.over:
            lines.append("ranking: " + ", ".join(state.names[s] for s in state.finished)
                         if pos.settings.play_on else f"winner: {state.winner}")
        else:
            waiting = f" ({state.card} drawn, waiting for a move)" if state.card else ""
            lines.append(f"next: {state.names[state.turn or 0]}{waiting}")
        return "\n".join(lines)

    def rounds_played(self, steps: Sequence[Any]) -> int:
        """History's ROUNDS column for a board game: the turns taken (cards drawn)."""
        return sum(1 for step in steps for o in step.outcomes if isinstance(o, Drew))

    def summary(self, state: BoardState) -> GameSummary:
        """The winner only once the game is over: with `play_on` the others go on after
        the first finishes, and the journal must still resume that game."""
        return GameSummary(state.setup.players, state.winner if state.over else None,
                           state.over)

    def stats(self, steps: Sequence[Any]) -> dict[str, dict[str, int]]:
        return game_counters(steps)


RULES: Rules[BoardSetup, BoardState, BoardEvent] = BoardRules()  # mypy checks the class
