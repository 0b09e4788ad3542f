"""The core hosts any game behind `Rules`: a tiny second game (players take turns adding
to a count; the first to reach 10 wins) runs through the registry, the undo stack, the
session, the journal, transcripts and statistics without the core knowing its rules."""

from __future__ import annotations

import json

import pytest

from companion import games
from companion.errors import BadEvent
from companion.journal import Journal
from companion.rules import GameSummary, Rules
from companion.session import Session
from companion.transcript import replay_lines


def test_the_second_game_is_a_rules_object_found_by_name(count_game):
    assert isinstance(count_game, Rules) and games.get("count") is count_game
    assert "count" in games.names()


def test_a_transcript_of_the_second_game_replays(count_game):
    lines = [json.dumps(count_game.SETUP), '{"type": "add", "n": 2}', '{"type": "undo"}',
             '{"type": "add", "n": 1}', '{"type": "add", "n": 5}']
    replay = replay_lines(lines)
    assert replay.game is not None and replay.game.rules is count_game
    assert count_game.state_json(replay.game.state) == {"count": 1, "turn": "Ben"}
    assert str(replay.error) == "line 5: the only event is add 1 or 2"


def test_the_session_and_journal_play_it(count_game, tmp_path):
    with Journal.open(tmp_path) as journal:
        session = Session(journal)
        session.new_game(Session.setup(count_game.SETUP))
        for _ in range(5):
            session.submit(count_game.parse_event({"type": "add", "n": 2}))
        update = session.update
        assert update is not None and update.game == "count"
        assert update.summary == GameSummary(("Ana", "Ben"), "Ana", True)
        assert update.options == () and journal.games()[0].winner == "Ana"
        with pytest.raises(BadEvent):  # this game has no window to close
            session.close_window()
        stats = session.game_stats()
        assert stats is not None
        assert [(p.name, p.wins, p.added) for p in stats.players] == [
            ("Ana", 1, 6), ("Ben", 0, 4)]
        again = Session(journal).open_game(session.game_id, journal.load(1).events)
        assert again.state == update.state
