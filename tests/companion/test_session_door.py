"""The Session is the one door: immutable updates out, and the calls the UI and the
hardware make instead of reaching for the journal, the game or the timer."""

from __future__ import annotations

import queue

import pytest

from companion.errors import REFUSALS, JournalError, NoGame
from companion.journal import Journal
from companion.session import ResultKind, Session, Update
from games.revenge.rules import Awaiting, Card, Play, Setup, legal_cards


def test_an_update_is_frozen_and_carries_steps_undo_redo_and_legal_events():
    session = Session()
    heard: list[Update] = []
    session.subscribe(heard.append)
    first = session.new_game(Setup.create(["Ana", "Ben"]))
    assert first.result is None and first.undo is None and first.steps == ()
    session.submit(Play(Card.parse("7")))
    update = heard[-1]
    assert update is session.update and update.game == "revenge"
    assert update.result is not None and update.result.kind is ResultKind.APPLIED
    assert isinstance(update.steps[-1].event, Play) and update.undo == update.steps[-1]
    assert "slide:21" in legal_cards(update.options)
    with pytest.raises(AttributeError):  # immutable
        update.state = None  # type: ignore[misc]
    session.undo()
    assert session.update.redo == update.steps[-1] and session.update.undo is None
    assert first.state is session.update.state  # undo is exact: the very same state


def test_new_game_abandons_the_open_game_only_when_asked(tmp_path):
    with Journal.open(tmp_path) as journal:
        session = Session(journal)
        session.new_game(Setup.create(["Ana", "Ben"]))
        kept = session.game_id
        session.new_game(Setup.create(["Ana", "Ben"]))  # e.g. a test, a bench: kept open
        dropped = session.game_id
        session.new_game(Setup.create(["Cy", "Di"]), abandon=True)  # the new-game button
        games = {g.game_id: g for g in journal.games()}
        assert not games[kept].abandoned and games[dropped].abandoned
        assert not games[session.game_id].abandoned


def test_preview_and_resume_open_the_unfinished_game(tmp_path):
    with Journal.open(tmp_path) as journal:
        first = Session(journal)
        first.new_game(Setup.create(["Ana", "Ben"]))
        first.submit(Play(Card.parse("9")))
        again = Session(journal)
        preview = again.preview()
        assert preview is not None and preview.game_id == first.game_id
        assert preview.state.total == 9 and preview.damage is None and again.update is None
        resumed = again.resume()
        assert resumed is not None and resumed.state.total == 9
        assert again.game_id == first.game_id
    assert Session().resume() is None and Session().preview() is None


def test_window_seconds_are_set_through_the_session():
    session = Session(window_seconds={"steal": 3600, "block": 3600})
    try:
        session.new_game(Setup.create(["Ana", "Ben"]))
        assert session.remaining() is None
        session.set_window_seconds("steal", 1800)
        session.submit(Play(Card.parse("slide:21")))
        assert session.state.awaiting is Awaiting.STEAL
        assert 1700 < session.remaining() <= 1800
        assert session.window_seconds() == {"steal": 1800, "block": 3600}
    finally:
        session.close()


def test_a_window_closes_by_itself_when_its_time_is_up():
    session = Session(window_seconds={"steal": 0.05, "block": 0.05})
    closed: queue.Queue[Update] = queue.Queue()
    session.subscribe(lambda u: closed.put(u) if u.result and u.result.event.to_json()
                      == {"type": "close"} else None)
    try:
        session.new_game(Setup.create(["Ana", "Ben"]))
        session.submit(Play(Card.parse("slide:21")))
        update = closed.get(timeout=10)
        assert update.state.window is None and update.state.progress == (1, 0)
    finally:
        session.close()


def test_refusals_and_journal_failures_are_one_family_to_show():
    with pytest.raises(NoGame) as refused:
        Session().submit(Play(Card.parse("7")))
    assert refused.value.code == "no_game" and isinstance(refused.value, REFUSALS)
    assert issubclass(JournalError, OSError) and JournalError in REFUSALS
    error = JournalError("the disk is full")
    assert str(error) == "the disk is full" and error.code == "journal"
