"""A SORRY! button press is stamped and applied while the journal cannot write (a slow
SD card): the session runs a journal writer thread, and the press is durable once the
journal is free again, with its edge time."""

from __future__ import annotations

import threading
from pathlib import Path

from hw_helpers import ClockedMockFactory, ScriptedClock

from companion.config import Config
from companion.journal import Journal
from companion.session import Session
from games.revenge.rules import Card, Play, Setup
from hardware import start_table_hardware


def test_a_press_is_applied_while_the_journal_is_held(
        factory: ClockedMockFactory, clock: ScriptedClock, tmp_path: Path) -> None:
    with Journal.open(tmp_path) as journal:
        session = Session(journal, clock=clock, background=True)
        session.new_game(Setup.create(["Ana", "Ben", "Cy"]))
        session.submit(Play(Card.parse("slide:21")))  # Ana reached 21: the steal window is open
        assert session.writer is not None and session.writer.flush(10)
        holding, release = threading.Event(), threading.Event()

        def hold() -> None:
            with journal.transaction("holding the journal for the test"):
                holding.set()
                release.wait(60)

        holder = threading.Thread(target=hold)
        holder.start()
        assert holding.wait(10)
        try:
            with start_table_hardware(session, Config(), pin_factory=factory):
                factory.pin(27).drive_low_at(clock.now + 0.5)  # Ben's button
                window = session.state.window  # applied, with the journal still held
                assert window is not None and window.caller == 1
                edge = window.caller_t
                assert edge is not None
                assert not session.writer.flush(0)  # and not yet durable
        finally:
            release.set()
            holder.join()
        assert session.writer.flush(10)
        stored = journal.load(session.game_id).events
        assert stored[-1] == {"type": "press", "player": "Ben", "t": edge}
        session.close()
