"""Hypothesis: random legal positions and cards, random games with corrections, undo, redo.

Invariants (issue 11): pawn counts conserved, at most one pawn per track or safety square,
every option's board reachable by its legs, no two options with one board, undo/redo exact.
`BOARD_EXAMPLES=2000 make test` runs longer (the default keeps `make test` fast).
"""

from __future__ import annotations

import os
import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.errors import CompanionError
from companion.game import Game, Redo, Undo
from games.board.rules import RULES, draw_card, explain, options
from games.board.rules.cards import CARDS
from games.board.rules.events import Draw, NoPlay, Place
from games.board.rules.geometry import COLORS, LOCATIONS
from games.board.rules.moves import blocked, generate, match
from games.board.rules.position import Position
from games.board.rules.simulate import simulate_board
from games.board.rules.state import BoardState

EXAMPLES = int(os.environ.get("BOARD_EXAMPLES", "150"))
GAMES = max(10, EXAMPLES // 6)
TRIANGLES = ["T1", "T9", "T16", "T24", "T31", "T39", "T46", "T54"]


@st.composite
def positions(draw: st.DrawFn) -> Position:
    edition = draw(st.sampled_from(["classic", "2016"]))
    n = 4 if edition == "classic" else 3
    colors = sorted(draw(st.sets(st.sampled_from(COLORS), min_size=2, max_size=4)),
                    key=COLORS.index)
    used: set[str] = set()
    pawns = {}
    for color in colors:
        locs = []
        for _ in range(n):
            kind = draw(st.sampled_from(["START", "HOME", "T", "T", "T", "T", "S"]))
            loc = kind
            if kind == "T":
                loc = f"T{draw(st.integers(0, 59))}"
            elif kind == "S":
                loc = f"S{draw(st.integers(1, 5))}"
            key = loc if kind == "T" else (color, loc)
            if kind in ("T", "S") and key in used:
                loc = "START"
            used.add(key)  # type: ignore[arg-type]
            locs.append(loc)
        pawns[color] = locs
    chosen = {t: draw(st.sampled_from(COLORS)) for t in draw(st.sets(st.sampled_from(TRIANGLES),
                                                                      max_size=2))}
    settings_obj = {"start_move": draw(st.sampled_from(["count", "circle"])),
                    "slide_colors": chosen}
    return Position.parse({"edition": edition, "pawns": pawns, "settings": settings_obj})


def _diff(new: tuple[int, ...], expected: Counter[int]) -> Counter[int]:
    out = Counter(new)
    out.subtract(expected)
    return out


def _only_sent_to_start(diff: Counter[int], sent: int) -> bool:
    """new = expected with `sent` pawns moved from track squares to START."""
    losses = {loc: -d for loc, d in diff.items() if d < 0}
    gains = {loc: d for loc, d in diff.items() if d > 0}
    return (gains in ({}, {0: sent}) and (sent == 0) == (not gains)
            and sum(losses.values()) == sent and all(1 <= loc <= 60 for loc in losses))


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(position=positions(), card=st.sampled_from(CARDS), which=st.integers(0, 3))
def test_every_option_is_a_legal_distinct_board_reachable_by_its_legs(position, card, which):
    color = position.colors[which % len(position.colors)]
    seat = position.colors.index(color)
    found = generate(position, card, color)
    boards = [o.board for o in found if o.kind != "decline"]
    assert len(boards) == len(set(boards)), "two options give one board"
    kinds = [o.kind for o in found]
    assert ("decline" in kinds) == ("switch" in kinds and not {"forward", "start"} & set(kinds))
    if not found:
        assert blocked(position, card, color)
        return
    for o in found:
        after = position.with_pawns(o.board)
        after.check()  # one pawn per track square and per safety square of each colour
        assert [len(p) for p in o.board] == [len(p) for p in position.pawns]
        assert o.why("en") and o.why("fr") and o.text and explain(o, "fr") == o.why("fr")
        event = RULES.parse_event(o.event)
        assert match(position, card, color, event.legs, event.kind, event.landed).board == o.board
        bumps = Counter(o.bumped)
        for s, c in enumerate(position.colors):
            expected = Counter(position.pawns[s])
            if s == seat:
                for leg in o.moves:
                    expected[leg.src] -= 1
                    expected[leg.dst] += 1
            elif o.kind == "switch" and c == o.moves[0].other:
                expected[o.moves[0].landed] -= 1
                expected[o.moves[0].src] += 1
            assert _only_sent_to_start(_diff(o.board[s], expected), bumps[c]), (o.text, c)


def _invariants(state: BoardState) -> None:
    state.position.check()
    n = 4 if state.position.edition == "classic" else 3
    assert all(len(p) == n for p in state.position.pawns)
    hands = 5 * len(state.names) if state.position.settings.adult else 0
    total = sum(state.unseen) + sum(state.discards) + (state.card is not None)
    assert total == (45 if state.position.settings.deck == "standard" else 44)
    assert state.draw_pile >= (-1 if hands else 0)


@settings(max_examples=GAMES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), edition=st.sampled_from(["classic", "2016"]),
       players=st.integers(2, 4), adult=st.booleans(), play_on=st.booleans(),
       faster=st.booleans())
def test_random_games_with_corrections_undo_and_redo_are_exact(seed, edition, players, adult,
                                                               play_on, faster):
    """Through the core's undo stack (companion.game.Game), as the session uses it."""
    rng = random.Random(seed)
    game = Game(RULES.parse_setup({
        "type": "setup", "game": "board", "edition": edition,
        "players": ["Ana", "Ben", "Cy", "Dee"][:players],
        "settings": {"adult": adult and edition == "classic", "play_on": play_on,
                     "faster_start": faster}}))
    history = [game.state]  # the state after each effective step, the initial one first
    for _ in range(160):
        state = game.state
        _invariants(state)
        roll = rng.random()
        if roll < 0.08 and game.undo_step is not None:
            game.push(Undo())
            history.pop()
            assert game.state == history[-1]  # undo is exact
            continue
        if roll < 0.14 and game.redo_step is not None:
            redone = game.redo_step.after
            game.push(Redo())
            assert game.state == redone
            assert RULES.apply(state, game.steps[-1].event).state == redone  # deterministic
            history.append(game.state)
            continue
        if state.over:
            break
        if roll < 0.2:
            color = rng.choice(state.position.colors)
            event = Place(color, rng.choice(["START", *state.position.pawns_json()[color]]),
                          rng.choice(LOCATIONS))
        elif state.card is None:
            event = (RULES.parse_event({"type": "draw", "card": draw_card(state, rng)})
                     if not adult else rng.choice(RULES.options(state)))
        else:
            event = RULES.parse_event(rng.choice(options(state)).event)
        try:
            game.push(event)
        except CompanionError as exc:
            assert isinstance(event, Place) or adult, exc
            assert exc.code and explain(exc, "fr")
            assert game.state is state  # a refusal changes nothing
            continue
        history.append(game.state)


def _accepted(state: BoardState, event: object) -> bool:
    try:
        RULES.apply(state, event)
    except CompanionError:
        return False
    return True


@settings(max_examples=max(5, GAMES // 3), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), edition=st.sampled_from(["classic", "2016"]),
       adult=st.booleans())
def test_legal_events_are_what_the_rules_accept(seed, edition, adult):
    """options against trial and error on the states of a simulated game."""
    rng = random.Random(seed)
    steps: list[object] = []
    simulate_board(rng, edition=edition, players=rng.randint(2, 4), record=steps,
                   settings={"adult": adult and edition == "classic"}, max_events=120)
    for step in steps[::3]:
        state = step.before  # type: ignore[attr-defined]
        legal = set(RULES.options(state))
        assert all(_accepted(state, e) for e in legal)
        if state.card is None:
            tried = {e for c in CARDS for e in (Draw(c), NoPlay(c)) if _accepted(state, e)}
            assert tried == legal
        else:
            others = [o for c in CARDS if c != state.card
                      for o in generate(state.position, c, state.color)]
            wrong = [RULES.parse_event(o.event) for o in others]
            assert {e for e in wrong if _accepted(state, e)} <= legal | {
                e for e in wrong if match(state.position, state.card, state.color, e.legs,
                                          e.kind, e.landed)}
