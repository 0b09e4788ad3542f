"""Simulated games per edition (1,000 in `make fuzz`, 100 in `make test`), exported as
transcripts and replayed by the core to identical final states (issue 11). Bots take
legal options only; the engine's per-position cache is cleared before each replay, so
the replay works every option out again.

Tables of 2, 3 and 4 players (2 most often) and the settings vary from game to game:
faster start, play on, the adult variation (classic), start_move circle (2016), a slide
printed in another colour. `BOARD_ROUNDTRIP_GAMES` sets the count per edition."""

from __future__ import annotations

import io
import os
import random

import pytest

from companion.transcript import replay_lines, write_transcript
from games.board.rules import RULES
from games.board.rules.moves import _analyse
from games.board.rules.simulate import simulate_board

GAMES = int(os.environ.get("BOARD_ROUNDTRIP_GAMES", "100"))


def settings_for(i: int, edition: str) -> dict[str, object]:
    return {"faster_start": i % 5 == 1, "play_on": i % 7 == 3,
            "adult": edition == "classic" and i % 6 == 5,
            "start_move": "circle" if edition == "2016" and i % 2 else "count",
            "slide_colors": {"T24": "green"} if i % 9 == 4 else {}}


@pytest.mark.slow
@pytest.mark.parametrize("edition", ["classic", "2016"])
def test_simulated_games_export_and_replay_to_identical_states(edition):
    finished = 0
    for i in range(GAMES):
        rng = random.Random(f"roundtrip/{edition}/{i}")
        game = simulate_board(rng, edition=edition, players=(2, 2, 3, 4)[i % 4],
                              settings=settings_for(i, edition))
        out = io.StringIO()
        write_transcript(out, game.events)
        _analyse.cache_clear()
        replay = replay_lines(out.getvalue().splitlines())
        assert replay.error is None, (i, replay.error)
        assert replay.game is not None
        assert replay.game.state == game.state, f"game {i} replays to another state"
        assert RULES.state_json(replay.game.state) == RULES.state_json(game.state)
        finished += game.state.over
    assert finished == GAMES  # every simulated game reached its winner
