"""One trip per event: the options are worked out once per state and carried in the Update,
a listed option is submitted as it is (a board move is not searched for again by its legs),
and the rules' summary runs once per event."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Callable
from typing import Any

import pytest

from companion.session import Session
from games.board.rules import RULES, Move, Moved, moves, options

SETUP = {"type": "setup", "game": "board", "players": ["Ana", "Ben"], "first": "Ana"}


def _counting(calls: list[str], name: str, method: Callable[..., Any]) -> Callable[..., Any]:
    def counted(*args: Any) -> Any:
        calls.append(name)
        return method(*args)

    return counted


def _card_waiting(session: Session) -> None:
    session.new_game(Session.setup(SETUP))
    session.submit(session.parse_event({"type": "draw", "card": "1"}))
    update = session.update
    assert update is not None and update.state.card == "1"


def test_a_listed_board_move_carries_its_option_and_is_applied_without_a_search(monkeypatch):
    session = Session()
    _card_waiting(session)
    update = session.update
    assert update is not None
    listed = update.options
    assert listed and all(isinstance(m, Move) and m.option is not None for m in listed)
    engine = options(update.state)  # what the board screen shows: the very same objects
    assert len(engine) == len(listed) and all(
        m.option is o for m, o in zip(listed, engine, strict=True))
    assert listed == tuple(RULES.options(update.state))

    def no_search(*_: object, **__: object) -> None:
        raise AssertionError("a listed option was searched for again by its legs")

    monkeypatch.setattr(moves, "match", no_search)
    chosen = listed[0]
    result = session.submit(chosen)
    [moved] = [o for o in result.outcomes if isinstance(o, Moved)]
    assert moved.option is chosen.option  # the very option the screen showed


def test_a_move_named_by_its_legs_is_still_matched_and_journals_the_same(monkeypatch):
    session = Session()
    _card_waiting(session)
    update = session.update
    assert update is not None
    chosen = update.options[0]
    by_legs = Move(chosen.legs, chosen.kind, chosen.landed)
    assert by_legs == chosen and by_legs.to_json() == chosen.to_json()
    searched: list[str] = []
    monkeypatch.setattr(moves, "match", _counting(searched, "match", moves.match))
    session.submit(by_legs)
    assert searched == ["match"]


def test_summary_and_options_run_once_per_event(count_game, monkeypatch):
    calls: list[str] = []
    for name in ("summary", "options"):
        monkeypatch.setattr(count_game, name, _counting(calls, name, getattr(count_game, name)))
    session = Session()
    session.new_game(Session.setup({"type": "setup", "game": "count", "players": ["A", "B"]}))
    calls.clear()
    for _ in range(4):
        session.submit(count_game.parse_event({"type": "add", "n": 1}))
        assert sorted(calls) == ["options", "summary"]
        calls.clear()


@pytest.mark.parametrize("event", [{"type": "undo"}, {"type": "redo"}])
def test_undo_and_redo_also_make_one_trip(count_game, monkeypatch, event):
    session = Session()
    session.new_game(Session.setup({"type": "setup", "game": "count", "players": ["A", "B"]}))
    session.submit(count_game.parse_event({"type": "add", "n": 1}))
    if event["type"] == "redo":
        session.undo()
    calls: list[str] = []
    monkeypatch.setattr(count_game, "summary",
                        _counting(calls, "summary", count_game.summary))
    session.submit(session.parse_event(event))
    assert calls == ["summary"]


def test_a_session_without_helpers_is_freed_as_soon_as_it_is_dropped(count_game):
    """No reference cycle through its helpers' hooks: the cyclic collector never has to
    find a whole game's history (it once cost the card-game door a fifth of its speed)."""
    gc.disable()
    try:
        session = Session()
        session.new_game(Session.setup({"type": "setup", "game": "count", "players": ["A", "B"]}))
        session.submit(count_game.parse_event({"type": "add", "n": 1}))
        dropped = weakref.ref(session)
        del session
        assert dropped() is None
    finally:
        gc.enable()
