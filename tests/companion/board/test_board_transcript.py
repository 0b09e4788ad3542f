"""Board transcripts as BOARD.md writes them (legs only), refusals as `line N: why`, and
the `place` correction journalled and undone like any event."""

from __future__ import annotations

import json

from companion.session import Session
from companion.transcript import replay_lines
from games.board.rules import RULES, Draw, Place

SETUP = {"type": "setup", "game": "board", "edition": "classic", "players": ["Ana", "Ben"],
         "colors": ["red", "blue"], "first": "Ana"}


def _lines(*objs: dict[str, object]) -> list[str]:
    return [json.dumps(o) for o in objs]


def test_a_transcript_with_legs_only_replays_and_a_bad_move_says_its_line_and_why():
    lines = _lines(SETUP, {"type": "draw", "card": "1"},
                   {"type": "move", "legs": [["START", "T4"]]},  # no kind, no landed
                   {"type": "draw", "card": "2"},
                   {"type": "move", "legs": [["START", "T19"]]},
                   {"type": "draw", "card": "2"},  # the classic 2: Ben draws again
                   {"type": "move", "legs": [["T19", "T22"]]})
    replay = replay_lines(lines)
    assert replay.error is not None and replay.error.line == 7
    assert "T19 to T21" in str(replay.error)  # the options it could have been
    state = replay.game.state
    assert RULES.state_json(state)["turn"] == "Ben" and state.card == "2"


def test_the_1939_deck_has_four_ones():
    setup = {**SETUP, "settings": {"deck": "1939"}}
    ones = [{"type": "draw", "card": "1"}, {"type": "move", "legs": [["START", "T4"]]},
            {"type": "draw", "card": "1"}, {"type": "move", "legs": [["START", "T19"]]},
            {"type": "draw", "card": "1"}, {"type": "move", "legs": [["T4", "T5"]]},
            {"type": "draw", "card": "1"}, {"type": "move", "legs": [["T19", "T20"]]},
            {"type": "draw", "card": "1"}]
    replay = replay_lines(_lines(setup, *ones))
    assert replay.error is not None and replay.error.line == 10
    assert "every 1 card has already been played" in str(replay.error)


def test_place_is_journalled_and_undone_like_any_event(tmp_path):
    session = Session(Session.open_journal(tmp_path))
    session.new_game(Session.setup(SETUP))
    session.submit(Draw("3"))  # forfeited: every pawn in START
    before = session.state
    session.submit(Place("red", "START", "T10"))
    assert RULES.state_json(session.state)["players"][0]["pawns"][-1] == "T10"
    session.undo()
    assert session.state == before
    session.redo()
    session.close()
    again = Session(Session.open_journal(tmp_path))
    update = again.resume()
    assert update is not None
    assert RULES.state_json(update.state)["players"][0]["pawns"][-1] == "T10"
    again.close()
