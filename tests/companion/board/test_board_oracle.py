"""The option generator against its slow reference (reference_moves.py, the generator as it
stood before issue 22's rewrite): on thousands of seeded random positions, both editions,
random settings, every card and every colour, the options (their order, legs, boards and
flags), the candidates, the reasons, the forfeit check and the transcript matches must be
exactly the reference's. `make fuzz` runs 5,000 positions (BOARD_ORACLE_POSITIONS).
"""

from __future__ import annotations

import os
import random
from typing import Any

import reference_moves as ref

from games.board.rules import moves
from games.board.rules.cards import CARDS
from games.board.rules.geometry import COLORS, LOCATIONS
from games.board.rules.position import Position

POSITIONS = int(os.environ.get("BOARD_ORACLE_POSITIONS", "125"))
TRIANGLES = ("T1", "T9", "T16", "T24", "T31", "T39", "T46", "T54")
# Squares where the rules have most to say: slides (triangles, their squares, their ends),
# entries E and exits X of every side.
CROWDED = tuple(sorted({15 * side + k for side in range(4) for k in range(0, 15)
                        if k in (0, 1, 2, 3, 4, 5, 8, 9, 10, 11, 12, 13, 14)}))


def random_position(rng: random.Random) -> Position:
    """A legal position, often crowded around slides, entries and exits, with random
    slide colours and start move."""
    edition = rng.choice(("classic", "2016"))
    n = 4 if edition == "classic" else 3
    colors = sorted(rng.sample(COLORS, rng.randint(2, 4)), key=COLORS.index)
    crowded = rng.random() < 0.5
    weights = rng.choice(((3, 2, 8, 3), (1, 1, 10, 2), (2, 4, 4, 6), (6, 1, 5, 1)))
    track = list(CROWDED if crowded else range(60))
    rng.shuffle(track)  # each track square drawn once
    pawns = {}
    for color in colors:
        zone = rng.sample(range(1, 6), n)  # and each safety square of a colour
        pawns[color] = [rng.choices(("START", "HOME", f"T{track.pop()}", f"S{zone[i]}"),
                                    weights)[0] for i in range(n)]
    settings: dict[str, Any] = {"start_move": rng.choice(("count", "circle"))}
    if rng.random() < 0.4:
        settings["slide_colors"] = {t: rng.choice(COLORS)
                                    for t in rng.sample(TRIANGLES, rng.randint(1, 4))}
    return Position.parse({"edition": edition, "pawns": pawns, "settings": settings})


def _clear() -> None:
    moves._analyse.cache_clear()
    ref._analyse.cache_clear()


def _matches_agree(p: Position, card: str, color: str, option: Any, rng: random.Random) -> None:
    """`match` by legs alone, with kind and landed, worked out or not: the same option."""
    named = (option.legs, option.kind, option.landed)
    for legs, kind, landed in (named, (option.legs, None, None)):
        assert (moves.match(p, card, color, legs, kind, landed)
                == ref.match(p, card, color, legs, kind, landed)), (p, card, color, legs)
    if rng.random() < 0.3:  # a transcript's move on a card not worked out yet
        _clear()
        assert (moves.match(p, card, color, *named)
                == ref.match(p, card, color, *named)), (p, card, color, named)
        moves.generate(p, card, color)
        ref.generate(p, card, color)


def _check(p: Position, card: str, color: str, rng: random.Random) -> int:
    _clear()
    assert moves.has_options(p, card, color) == ref.has_options(p, card, color), (p, card)
    found = moves.generate(p, card, color)
    assert found == ref.generate(p, card, color), (p, card, color)
    assert moves.has_options(p, card, color) == bool(found)
    assert moves.candidates(p, card, color) == ref.candidates(p, card, color), (p, card)
    assert moves.blocked(p, card, color) == ref.blocked(p, card, color), (p, card, color)
    for option in moves.candidates(p, card, color):
        _matches_agree(p, card, color, option, rng)
    # legs that name no option: a pawn's own square to a random one
    mine = [LOCATIONS[x] for x in p.pawns[p.colors.index(color)]]
    legs = ((rng.choice(mine), rng.choice(LOCATIONS)),)
    assert moves.match(p, card, color, legs) == ref.match(p, card, color, legs)
    return len(found)


def test_every_card_of_random_positions_is_worked_out_exactly_as_the_reference_does() -> None:
    rng = random.Random("board/oracle")
    built = 0
    kinds: set[str] = set()
    for _ in range(POSITIONS):
        p = random_position(rng)
        for card in CARDS:
            for color in p.colors:
                built += _check(p, card, color, rng)
                kinds.update(o.kind for o in moves.generate(p, card, color))
    assert kinds == set(moves.KINDS)  # every kind of option was compared
    assert built > POSITIONS  # the positions were not all forfeits
