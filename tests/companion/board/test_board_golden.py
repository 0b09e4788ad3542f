"""The option generator's whole answers on thousands of fixed positions, against a digest
checked in: a change to any option (its kind, legs, landings, slides, bumps, board, flags),
to the ways a transcript may name, to the reasons a pawn is stuck or to the forfeit check
fails here, also one the slow reference of test_board_oracle.py would not run often
enough to see (it checks 250 positions by default). The digest was taken of main's
generator before issue 36's speed work; a change of the rules on purpose updates it (the
failure prints the new one).
"""

from __future__ import annotations

import hashlib
import random

from test_board_oracle import random_position

from games.board.bench.core import random_position as bench_position
from games.board.rules import moves
from games.board.rules.cards import CARDS
from games.board.rules.position import Position

POSITIONS = 1_000  # of each kind: the oracle's (crowded, random settings) and the bench's
DIGEST = "f9181e0339e8773d58a1d289f4a600a6432e583a1fa0e4b7669ab78a9cef894d"


def _answers(p: Position, card: str, color: str) -> str:
    """Everything the generator says of one card for one colour, as text."""
    playable = moves.has_options(p, card, color)  # before the card is worked out
    return repr((playable, moves.generate(p, card, color), moves.candidates(p, card, color),
                 moves.blocked(p, card, color)))


def _digest() -> str:
    h = hashlib.sha256()
    rng = random.Random("board/golden")
    for n in range(POSITIONS * 2):
        p = random_position(rng) if n % 2 else bench_position(rng)
        for card in CARDS:
            for color in p.colors:
                h.update(_answers(p, card, color).encode())
    return h.hexdigest()


def test_every_answer_of_the_generator_on_fixed_positions_is_as_checked_in() -> None:
    moves._analyse.cache_clear()
    found = _digest()
    assert found == DIGEST, f"the generator's answers changed: digest now {found}"
