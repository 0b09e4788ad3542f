"""Every Update a Session tells over the card game's 400 bench games, against a digest
checked in: the events `make bench`'s submit row times (games.revenge.bench.core), each
submitted as a tap is, and all of each Update hashed (state, result, steps, undo, redo,
options, summary, damage, unsaved). A change to any of them fails here, also one the
engine's own tests would not see (the options' order, a shared outcome, the history a
listener is handed). The digest was taken of main's submit path at 4281a5c (the same
under PYTHONHASHSEED 1, 2 and 3; the options' order reversed fails it); a change of the
rules on purpose updates it (the failure prints the new one).
"""

from __future__ import annotations

import hashlib

from companion.session import AnyUpdate, Session
from games.revenge.bench.core import STREAM_GAMES, simulated_stream

DIGEST = "5c49def52d49127a8f7e176f62acd3b779bb9bfa28773662c3dbfbcb607dea26"


def _told(update: AnyUpdate) -> str:
    """All of one Update as text: its steps by their count and the newest (the whole
    history is hashed at each game's end: a History is a linked list of the same steps)."""
    steps = update.steps
    newest = next(reversed(steps), None)
    return repr((*update[:4], len(steps), newest, *update[5:]))


def _digest() -> tuple[str, int]:
    h = hashlib.sha256()
    heard: list[AnyUpdate] = []
    session = Session()
    session.subscribe(heard.append)
    told = 0
    for setup, *events in simulated_stream(STREAM_GAMES):
        session.new_game(setup)
        heard.clear()  # the new game told: its first Update is not an event's
        for event in events:
            result = session.submit(event)
            (update,) = heard
            assert update.result is result and session.update is update
            h.update(_told(update).encode())
            heard.clear()
            told += 1
        last = session.update
        assert last is not None
        h.update(repr(tuple(last.steps)).encode())
    return h.hexdigest(), told


def test_every_update_of_the_bench_games_is_as_checked_in() -> None:
    found, told = _digest()
    assert told > 20_000  # every event of the 400 games, not only their setups
    assert found == DIGEST, f"the submitted Updates changed: digest now {found}"
