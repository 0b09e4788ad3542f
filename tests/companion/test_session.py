"""The Session: the thread-safe door the UI and the hardware use."""

from __future__ import annotations

import queue
import threading
from pathlib import Path

import pytest

from companion.errors import CardRefused, CompanionError
from companion.session import NoGame, Session, Update
from companion.windows import WindowTimer
from games.revenge.rules import Card, EndPlay2, Play, Press, Tiebreak, flip_targets, legal_cards
from games.revenge.rules.engine import Happening
from games.revenge.rules.events import Setup
from games.revenge.rules.state import Awaiting


def started(*names: str, **options) -> Session:
    session = Session()
    session.new_game(Setup.create(list(names or ("Ana", "Ben", "Cy")), **options))
    return session


def test_events_before_a_game_are_refused():
    with pytest.raises(NoGame, match="start a new game"):
        Session().submit(Play(Card.parse("3")))


def test_listeners_hear_every_change_in_order_and_can_unsubscribe():
    session = started()
    heard: list[Update] = []
    stop = session.subscribe(heard.append)
    session.submit(Play(Card.parse("4")))
    session.submit(Play(Card.parse("5")))
    assert [u.state.total for u in heard] == [4, 9]
    assert heard[-1].result.event.card.code == "5"
    stop()
    session.submit(Play(Card.parse("1")))
    assert len(heard) == 2


def test_a_refused_event_reaches_no_listener_and_changes_nothing():
    session = started()
    session.submit(Play(Card.parse("play2")))
    heard: list[Update] = []
    session.subscribe(heard.append)
    before = session.state
    with pytest.raises(CardRefused):
        session.submit(Play(Card.parse("switch")))
    assert heard == [] and session.state is before


def test_legal_cards_follow_the_rules():
    session = started()
    legal = legal_cards(session.update.options)
    assert {"0", "10", "slide:21", "switch", "take2", "play2", "sorry"} <= legal
    session.submit(Play(Card.parse("play2")))
    assert legal_cards(session.update.options) == {str(n) for n in range(11)}


def test_flip_targets_ask_the_engine():
    session = started()
    assert flip_targets(session.update.options) == ()  # nobody has a pawn card HOME yet
    for code in ("10", "10", "1"):
        session.submit(Play(Card.parse(code)))
    session.submit(Press("Ben", 1.0))
    session.close_window()
    assert flip_targets(session.update.options) == ("Ben",)
    session.submit(Play(Card.parse("play2")))
    assert flip_targets(session.update.options) == ()  # a Play 2 is owed: no SORRY! now


def test_close_window_with_expected_ignores_a_stale_window():
    session = started()
    for code in ("10", "10", "1"):
        session.submit(Play(Card.parse(code)))
    window = session.state.window
    session.submit(Play(Card.parse("3")))  # the next card closed it
    assert session.close_window(expected=window) is None
    assert session.state.total == 3


def test_presses_from_many_threads_all_land_and_the_earliest_edge_wins():
    session = started("Ana", "Ben", "Cy", "Dee")
    for code in ("10", "10", "1"):
        session.submit(Play(Card.parse(code)))  # Cy reaches 21
    edges = {"Ana": 7.003, "Ben": 7.001, "Dee": 7.002}
    barrier = threading.Barrier(len(edges))
    errors: list[BaseException] = []

    def press(name: str) -> None:
        barrier.wait()
        try:
            session.submit(Press(name, edges[name]))
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=press, args=(n,)) for n in edges]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert session.state.window.caller == 1  # Ben's edge was first


def test_window_timer_closes_the_window_it_timed():
    session = started()
    closed: queue.Queue[Update] = queue.Queue()
    session.subscribe(lambda u: closed.put(u) if u.result and u.result.event.to_json()
                      == {"type": "close"} else None)
    timer = WindowTimer(session.hooks(), {"steal": 0.05, "block": 0.05})
    try:
        for code in ("10", "10", "1"):
            session.submit(Play(Card.parse(code)))
        assert session.state.awaiting is Awaiting.STEAL
        assert timer.remaining() is not None
        update = closed.get(timeout=10)
        outcomes = [o.what for o in update.result.outcomes]
        assert Happening.ROUND_KEPT in outcomes and update.state.progress[2] == 1
        assert timer.remaining() is None
    finally:
        timer.stop()


def test_window_timer_never_closes_a_window_that_undo_reopened_late():
    session = started()
    timer = WindowTimer(session.hooks(), {"steal": 3600, "block": 3600})
    try:
        for code in ("10", "10", "1"):
            session.submit(Play(Card.parse(code)))
        first = timer.window
        assert timer.remaining() > 3000  # a window opened by a card is timed
        session.close_window()
        session.undo()  # reopens the very same window object: untimed, it waits for a tap
        assert session.state.window is first and timer.window is first
        assert timer.remaining() is None and timer.deadline is None
        assert session.close_window(expected=first) is not None  # a tap still closes it
    finally:
        timer.stop()


def closes(session: Session) -> queue.Queue[Update]:
    """Every update that a close event made (the timer's or a tap's)."""
    closed: queue.Queue[Update] = queue.Queue()
    session.subscribe(lambda u: closed.put(u) if u.result and u.result.event.to_json()
                      == {"type": "close"} else None)
    return closed


@pytest.mark.parametrize("back", ["undo", "redo"])
def test_a_window_reopened_by_undo_or_redo_has_no_timer_and_the_redo_survives(back):
    session = started()
    closed = closes(session)
    timer = WindowTimer(session.hooks(), {"steal": 0.02, "block": 0.02})
    try:
        for code in ("10", "10", "1"):
            session.submit(Play(Card.parse(code)))
        assert timer.remaining() is not None
        first = closed.get(timeout=10)  # the fresh window's timer does fire
        assert first.state.window is None and first.state.progress[2] == 1
        after_close = session.state
        if back == "undo":
            session.undo()  # back into the window the timer closed
        else:
            session.undo()
            session.undo()  # before the 21...
            session.redo()  # ...and the 21 again: the window reopens
        assert session.state.window is not None
        assert timer.remaining() is None and timer.deadline is None
        with pytest.raises(queue.Empty):  # 50 window lengths: no timer closes it
            closed.get(timeout=1.0)
        assert session.state.window is not None and session.update.redo is not None
        session.redo()
        assert session.state == after_close
    finally:
        timer.stop()


def test_a_call_in_an_untimed_window_opens_a_timed_block_window():
    session = started()
    timer = WindowTimer(session.hooks(), {"steal": 3600, "block": 3600})
    try:
        for code in ("10", "10", "1"):
            session.submit(Play(Card.parse(code)))
        session.submit(Play(Card.parse("5")))  # the next card closes the steal window
        session.undo()
        assert session.state.awaiting is Awaiting.STEAL and timer.remaining() is None
        # a fresh event: the block window runs its countdown
        session.submit(Press("Ben", session.clock()))
        assert session.state.awaiting is Awaiting.BLOCK and timer.remaining() > 3000
    finally:
        timer.stop()


def test_every_refusal_is_a_companion_error_with_a_sentence():
    session = started()
    for bad in (lambda: session.submit(Play(Card.parse("12"))),
                lambda: session.submit(Press("Zed", session.clock())),
                lambda: session.submit(Tiebreak("Ana", 3)), lambda: session.submit(EndPlay2()),
                lambda: session.redo()):
        with pytest.raises(CompanionError) as info:
            bad()
        assert len(str(info.value)) > 10


def test_a_won_game_killed_before_its_result_was_written_is_finished_on_resume(tmp_path):
    from companion.journal import Journal

    journal = Journal.open(tmp_path)
    gid = journal.start_game(Setup.create(["Ana", "Ben"], pawns=1).to_json())
    for card in ("slide:20", "5"):  # Ben busts: Ana wins
        journal.append(gid, {"type": "play", "card": card})  # as if killed before set_result
    assert journal.unfinished().game_id == gid
    stored = journal.unfinished()
    session = Session(journal)
    state = session.open_game(stored.game_id, stored.events).state
    assert state.winner == 0
    assert journal.unfinished() is None
    assert [g.winner for g in journal.games()] == ["Ana"]


def test_a_journal_that_cannot_write_refuses_the_event_and_the_state_stays(tmp_path):
    from companion.errors import JournalError
    from companion.journal import Journal

    journal = Journal.open(tmp_path)
    session = Session(journal)
    session.new_game(Setup.create(["Ana", "Ben"]))
    session.submit(Play(Card.parse("4")))
    heard: list[Update] = []
    session.subscribe(heard.append)
    before = session.state
    journal.close()  # the journal can no longer write
    with pytest.raises(JournalError):
        session.submit(Play(Card.parse("5")))
    assert session.state is before and heard == []


def test_a_stored_event_that_no_longer_replays_is_set_aside_and_play_goes_on(tmp_path):
    from companion.journal import Journal

    journal = Journal.open(tmp_path)
    gid = journal.start_game(Setup.create(["Ana", "Ben"]).to_json())
    for obj in ({"type": "play", "card": "4"}, {"type": "end_play2"},  # refused today
                {"type": "play", "card": "5"}):
        journal.append(gid, obj)
    stored = journal.unfinished()
    session = Session(journal)
    state = session.open_game(stored.game_id, stored.events).state
    assert state.total == 4
    assert "event 2 no longer replays (no Play 2 is owed" in session.damage
    assert "set aside" in session.damage
    session.submit(Play(Card.parse("6")))  # the journal and the state agree again: next event
    again = journal.unfinished()
    assert [e.get("card") for e in again.events[1:]] == ["4", "6"]
    assert Session().open_game(None, again.events).state.total == 10


def test_window_timer_keeps_its_countdown_when_only_the_call_time_is_refined():
    session = started()
    timer = WindowTimer(session.hooks(), {"steal": 3600, "block": 3600})
    try:
        for code in ("10", "10", "1"):
            session.submit(Play(Card.parse(code)))
        session.submit(Press("Ben", 2.0))
        deadline = timer.deadline
        session.submit(Press("Ben", 1.0))  # Ben's own earlier edge: the same block window
        assert timer.deadline == deadline and timer.window is session.state.window
        timer.stop()
        timer.stop()  # stopping twice is harmless
    finally:
        timer.stop()


def test_a_failed_result_write_still_applies_and_announces_the_winning_event(tmp_path):
    from companion.errors import JournalError
    from companion.journal import Journal

    class ResultFails(Journal):  # a real journal whose result write fails (disk full)
        def set_result(self, game_id, winner):
            raise JournalError("the disk holding the journal is full")

    journal = ResultFails(tmp_path / "journal.sqlite3")
    session = Session(journal)
    session.new_game(Setup.create(["Ana", "Ben"], pawns=1))
    heard: list[Update] = []
    session.subscribe(heard.append)
    session.submit(Play(Card.parse("slide:20")))
    session.submit(Play(Card.parse("5")))  # Ben busts: Ana wins; the result row cannot be written
    assert session.state.winner == 0 and heard[-1].state.winner == 0
    stored = journal.unfinished()
    assert Session(journal).open_game(stored.game_id, stored.events).state.winner == 0


def test_the_resume_preview_says_the_last_saved_event_in_the_screens_language(
        tmp_path: Path) -> None:
    """Issue 21: "Resumed after '…'" names the event in the language's own words."""
    from companion.journal import Journal

    with Journal.open(tmp_path) as journal:
        game_id = journal.start_game({"type": "setup", "players": ["Ana", "Ben"]})
        journal.append(game_id, {"type": "play", "card": "take2"})
        preview = Session(journal).preview()
    assert preview is not None
    assert preview.last_words("en") == preview.last == "Ana played Take 2"
    assert preview.last_words("fr") == "Ana a joué Pigez-en 2"
