"""The journal writer thread and snapshots: real SQLite files, a real writer thread.

- events are applied and shown at once, and all reach the journal, in order;
- a game resumes from its snapshot to exactly the state a full replay gives, undo included;
- a damaged snapshot, or one the events no longer agree with, is ignored;
- a write that fails (a real SQLITE_FULL) takes the game back to the last durable event
  with one sentence, and the failed event never comes back on resume.
"""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path
from typing import Any

import pytest

from bench.core import long_game
from companion import snapshots
from companion.events import Event, Setup, parse_event
from companion.game import Game
from companion.journal import Journal, StoredGame
from companion.journal_writer import JournalWriter
from companion.session import Session, Update
from companion.snapshots import Resumable, load_unfinished


def _game(events: int) -> list[dict[str, Any]]:
    return long_game(events)


def _replayed_state(objs: list[dict[str, Any]]):
    return Game.from_events(parse_event(o) for o in objs).state


def _play(data: Path, objs: list[dict[str, Any]]) -> tuple[int, list[Any]]:
    """Play `objs` through a writer-backed session; the states it showed after each."""
    shown = []
    with Journal.open(data) as journal:
        writer = JournalWriter(journal)
        session = Session(journal, writer=writer)
        session.subscribe(lambda u: shown.append(u.state))
        first = parse_event(objs[0])
        assert isinstance(first, Setup)
        session.new_game(first)
        for obj in objs[1:]:
            session.submit(parse_event(obj))
        game_id = session.game_id
        assert game_id is not None
        writer.close()
    return game_id, shown


def _open(journal: Journal):
    found = load_unfinished(journal)
    assert found is not None
    session = Session(journal)
    if isinstance(found, Resumable):
        session.open_game(found.game_id, (), replayed=found.replay())
    else:
        session.open_game(found.game_id, found.events)
    return found, session


def test_events_are_shown_at_once_and_all_saved_in_order(tmp_path: Path) -> None:
    objs = _game(400)
    durable: list[int] = []
    seen = threading.Event()
    with Journal.open(tmp_path) as journal:
        writer = JournalWriter(journal)
        writer.subscribe(durable=lambda gid, seq: (durable.append(seq), seen.set()))
        session = Session(journal, writer=writer)
        session.new_game(parse_event(objs[0]))  # type: ignore[arg-type]
        game = Game(parse_event(objs[0]))  # type: ignore[arg-type]
        for obj in objs[1:]:
            event: Event = parse_event(obj)
            session.submit(event)
            game.push(event)
            assert session.state == game.state  # applied at once, whatever the disk does
        assert writer.flush(30)
        assert writer.lag() == 0.0
        assert journal.load(session.game_id).events == objs
        writer.close()
    assert durable == sorted(durable) and durable[-1] == len(objs) - 1


def test_resume_from_a_snapshot_is_exactly_a_full_replay(tmp_path: Path) -> None:
    objs = _game(1000)
    _play(tmp_path, objs)
    with Journal.open(tmp_path) as journal:
        found, session = _open(journal)
        assert isinstance(found, Resumable) and found.snapshot_seq is not None
        assert len(found.recent) < snapshots.EVERY  # only the recent events were read
        full = Game.from_events(parse_event(o) for o in objs)
        assert session.state == full.state
        for _ in range(10):  # undo reaches back across the resume point
            session.undo()
            full.push(parse_event({"type": "undo"}))
            assert session.state == full.state


def _damage(data: Path, sql: str) -> None:
    conn = sqlite3.connect(data / "journal.sqlite3")
    with conn:
        conn.execute(sql)
    conn.close()


@pytest.mark.parametrize("damage", [
    "UPDATE snapshots SET json = substr(json, 1, length(json) - 9)",  # checksum fails
    "UPDATE snapshots SET json = '{\"format\":1}', crc = 2938028857",  # checksum right, empty
    "UPDATE snapshots SET events_crc = events_crc + 1",  # disagrees with the events
])
def test_a_damaged_snapshot_is_ignored_and_the_events_replayed(tmp_path: Path,
                                                                damage: str) -> None:
    objs = _game(500)
    _play(tmp_path, objs)
    _damage(tmp_path, damage)
    with Journal.open(tmp_path) as journal:
        found, session = _open(journal)
        assert isinstance(found, StoredGame)  # the slow, sure way
        assert session.state == _replayed_state(objs)


def test_events_set_aside_under_a_snapshot_make_it_unusable(tmp_path: Path) -> None:
    objs = _game(500)
    _play(tmp_path, objs)
    with Journal.open(tmp_path) as journal:
        game_id = journal.games()[-1].game_id
        journal.set_aside(game_id, 300, "a test sets the rest aside")
        _found, session = _open(journal)
        assert session.state == _replayed_state(objs[:300])


def test_a_failed_write_goes_back_to_the_last_durable_event(tmp_path: Path) -> None:
    objs = _game(3000)
    updates: list[Update] = []
    failed = threading.Event()
    with Journal.open(tmp_path) as journal:
        writer = JournalWriter(journal)
        session = Session(journal, writer=writer)

        def listen(update: Update) -> None:
            updates.append(update)
            if update.unsaved:
                failed.set()

        session.subscribe(listen)
        session.new_game(parse_event(objs[0]))  # type: ignore[arg-type]
        pages = journal.query("PRAGMA page_count")[0][0]
        journal.query(f"PRAGMA max_page_count = {pages + 1}")  # a real SQLITE_FULL soon
        submitted = 0
        for obj in objs[1:]:
            session.submit(parse_event(obj))
            submitted += 1
            writer.flush(30)
            if failed.is_set():
                break
        assert failed.is_set(), "the journal never filled up"
        unsaved = [u for u in updates if u.unsaved]
        assert len(unsaved) == 1 and "full" in (unsaved[0].unsaved or "")
        stored = journal.load(session.game_id).events
        assert len(stored) == submitted  # the last one failed: not in the journal
        assert session.state == _replayed_state(stored)  # back to the last durable event
        journal.query("PRAGMA max_page_count = 1073741823")
        session.submit(parse_event(objs[len(stored)]))  # the table goes on from there
        writer.close()
    with Journal.open(tmp_path) as journal:
        found, resumed = _open(journal)
        assert journal.load(found.game_id).events == [*stored, objs[len(stored)]]
        assert resumed.state == _replayed_state([*stored, objs[len(stored)]])


def test_the_saving_mark_waits_for_real_lag(tmp_path: Path) -> None:
    clock = [0.0]
    with Journal.open(tmp_path) as journal:
        writer = JournalWriter(journal, clock=lambda: clock[0])
        assert writer.lag() == 0.0
        with journal.transaction("holding the journal"):  # the writer waits for the lock
            writer.begin(1, 1)
            clock[0] = 0.3
            assert writer.lag() == pytest.approx(0.3)
        assert writer.flush(30)
        assert writer.lag() == 0.0
        writer.close()
