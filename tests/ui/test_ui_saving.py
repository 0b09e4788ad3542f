"""The screen never waits for the disk: a tap is shown while the journal is held up, a
small "saving" mark appears only when durability lags more than 250 ms, and a write that
fails takes the game back to the last saved event with one sentence."""

from __future__ import annotations

import threading

from ui_helpers import setup_by_touch

from companion.game import Game


def _hold_journal(journal) -> tuple[threading.Event, threading.Thread]:
    """Another thread holds the journal (a slow SD card): the writer cannot write."""
    holding, release = threading.Event(), threading.Event()

    def hold() -> None:
        with journal.transaction("holding the journal for the test"):
            holding.set()
            release.wait(60)

    thread = threading.Thread(target=hold)
    thread.start()
    assert holding.wait(10)
    return release, thread


def test_a_tap_is_shown_at_once_and_saving_is_marked_only_after_250_ms(driver):
    d = driver()
    setup_by_touch(d, ["Ana", "Ben"], pawns=4, variant="standard")
    now = [1000.0]
    d.app.session.writer.clock = lambda: now[0]  # the lag is read on this clock
    release, thread = _hold_journal(d.app.journal)
    try:
        d.tap_code("7")
        assert d.label("table", "total_label") == "7"  # shown while nothing could be saved
        d.frames(3)
        assert "saving" not in d.label("table", "status_label")
        now[0] += 0.3
        d.wait_for(lambda: "saving…" in d.label("table", "status_label"), "the saving mark")
        d.app.set_language("fr")
        d.wait_for(lambda: "enregistrement…" in d.label("table", "status_label"),
                   "the saving mark in French")
    finally:
        release.set()
        thread.join()
    d.wait_for(lambda: "enregistrement" not in d.label("table", "status_label"),
               "the mark to go once saved")
    assert d.app.session.writer.flush(10)
    assert d.app.journal.load(d.app.session.game_id).events[-1] == {"type": "play", "card": "7"}


def test_a_failed_write_goes_back_to_the_last_saved_tap_with_one_sentence(driver):
    d = driver()
    setup_by_touch(d, ["Ana", "Ben"], pawns=4, variant="standard")
    journal = d.app.journal
    pages = journal.query("PRAGMA page_count")[0][0]
    journal.query(f"PRAGMA max_page_count = {pages + 1}")  # a real "disk full" soon
    for n in range(2000):
        d.tap_code("10" if n % 2 == 0 else "sorry")
        assert d.app.session.writer.flush(10)
        d.frames(2)
        if d.label("table", "message_label").startswith("Not saved"):
            break
    message = d.label("table", "message_label")
    assert message.startswith("Not saved: the game went back to event ")
    assert "full" in message
    saved = journal.load(d.app.session.game_id).events
    state = Game.from_json(saved).state
    assert d.app.session.state == state
    assert d.label("table", "total_label") == str(state.total)
