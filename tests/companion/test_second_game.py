"""The core hosts any game behind `Rules`: a tiny second game (players take turns adding
to a count; the first to reach 10 wins) runs through the registry, the undo stack, the
session, the journal, transcripts and statistics without the core knowing its rules."""

from __future__ import annotations

import json
import sys
import types
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

import pytest

from companion import games
from companion.errors import BadEvent, BadSetup, IllegalEvent
from companion.journal import Journal
from companion.rules import GameSummary, Rules, Transition
from companion.session import Session
from companion.transcript import replay_lines


@dataclass(frozen=True)
class CountSetup:
    players: tuple[str, ...]
    game = "count"

    def to_json(self) -> dict[str, Any]:
        return {"type": "setup", "game": self.game, "players": list(self.players)}


@dataclass(frozen=True)
class Add:
    n: int

    def to_json(self) -> dict[str, Any]:
        return {"type": "add", "n": self.n}


class CountState(NamedTuple):
    setup: CountSetup
    count: int
    turn: int
    winner: int | None


class CountRules:
    name = "count"

    def parse_setup(self, obj: dict[str, Any]) -> CountSetup:
        players = obj.get("players")
        if not isinstance(players, list) or len(players) < 2:
            raise BadSetup("name two players or more")
        return CountSetup(tuple(players))

    def parse_event(self, obj: dict[str, Any]) -> Add:
        if obj.get("type") != "add" or obj.get("n") not in (1, 2):
            raise BadEvent("the only event is add 1 or 2")
        return Add(obj["n"])

    def initial_state(self, setup: CountSetup) -> CountState:
        return CountState(setup, 0, 0, None)

    def apply(self, state: CountState, event: Add) -> Transition:
        if state.winner is not None:
            raise IllegalEvent("the game is over")
        count = state.count + event.n
        winner = state.turn if count >= 10 else None
        after = CountState(state.setup, count, (state.turn + 1) % len(state.setup.players),
                           winner)
        return Transition(after, (("added", state.turn, event.n),))

    def legal_events(self, state: CountState) -> Sequence[Add]:
        return () if state.winner is not None else (Add(1), Add(2))

    def state_json(self, state: CountState) -> dict[str, Any]:
        return {"count": state.count, "turn": state.setup.players[state.turn]}

    def summary(self, state: CountState) -> GameSummary:
        winner = None if state.winner is None else state.setup.players[state.winner]
        return GameSummary(state.setup.players, winner, winner is not None)

    def stats(self, steps: Sequence[Any]) -> dict[str, dict[str, int]]:
        added: dict[str, dict[str, int]] = {}
        for step in steps:
            for _what, seat, n in step.outcomes:
                name = step.before.setup.players[seat]
                added.setdefault(name, {"added": 0})["added"] += n
        return added


@pytest.fixture
def count_game(monkeypatch):
    module = types.ModuleType("count_game_for_tests")
    module.RULES = CountRules()  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, module.__name__, module)
    monkeypatch.setitem(games._PACKAGES, "count", module.__name__)
    return module.RULES


SETUP = {"type": "setup", "game": "count", "players": ["Ana", "Ben"]}


def test_the_second_game_is_a_rules_object_found_by_name(count_game):
    assert isinstance(count_game, Rules) and games.get("count") is count_game
    assert "count" in games.names()


def test_a_transcript_of_the_second_game_replays(count_game):
    lines = [json.dumps(SETUP), '{"type": "add", "n": 2}', '{"type": "undo"}',
             '{"type": "add", "n": 1}', '{"type": "add", "n": 5}']
    replay = replay_lines(lines)
    assert replay.game is not None and replay.game.rules is count_game
    assert count_game.state_json(replay.game.state) == {"count": 1, "turn": "Ben"}
    assert str(replay.error) == "line 5: the only event is add 1 or 2"


def test_the_session_and_journal_play_it(count_game, tmp_path):
    with Journal.open(tmp_path) as journal:
        session = Session(journal)
        session.new_game(Session.setup(SETUP))
        for _ in range(5):
            session.act("add", n=2)
        update = session.update
        assert update is not None and update.game == "count"
        assert update.summary == GameSummary(("Ana", "Ben"), "Ana", True)
        assert update.legal == () and journal.games()[0].winner == "Ana"
        with pytest.raises(BadEvent):  # this game has no window to close
            session.close_window()
        stats = session.game_stats()
        assert stats is not None
        assert [(p.name, p.wins, p.added) for p in stats.players] == [
            ("Ana", 1, 6), ("Ben", 0, 4)]
        again = Session(journal).open_game(session.game_id, journal.load(1).events)
        assert again.state == update.state
