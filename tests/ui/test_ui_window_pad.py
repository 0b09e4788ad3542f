"""SORRY! windows at a real table (issue 13): the card pad stays live while a window is
open and the next card closes it (RULES.md: "a window closes ... when the next card is
logged"); a window reopened by undo or redo runs no timer and waits for a tap, so redo
is never lost to a timer. By touch on the real app, with the real journal.
"""

from __future__ import annotations

import json
import queue
import subprocess
import sys
import threading
from typing import Any

from ui_helpers import REPO
from window_helpers import journal_events, start, table

from companion.game import Game
from companion.journal import Journal

SHORT_WINDOW = 0.2  # seconds


def window_timers() -> list[threading.Thread]:
    """The window timers' threads still alive (companion.windows is their one user)."""
    return [t for t in threading.enumerate() if isinstance(t, threading.Timer)]


def stored(d: Any) -> tuple[int, list[dict[str, Any]]]:
    assert d.app.session.writer.flush(10)
    journal = Journal.open(d.app.data_dir)
    try:
        game_id = d.app.session.game_id
        return game_id, journal.load(game_id).events
    finally:
        journal.close()


def test_cards_logged_during_steal_and_block_windows_close_them_and_count(driver, tmp_path):
    d = start(driver)
    for card in ("10", "10", "1"):
        d.tap_code(card)
    assert table(d).window_shown and d.app.session.state.awaiting.value == "steal"
    assert not d.button(code="5").dim  # the pad is live under an open window
    d.tap_code("5")  # Ana's card: nobody called, Cy keeps the round, a new round starts
    assert not table(d).window_shown
    state = d.app.session.state
    assert state.progress == (0, 0, 1) and state.total == 5
    assert d.label("table", "total_label") == "5"
    assert "Cy keeps the round" in d.label("table", "message_label")

    for card in ("10", "6"):  # Ben 10, Cy 6: Cy reaches 21 again
        d.tap_code(card)
    d.tap(d.button(code="Ana"))  # Ana calls SORRY!: Cy may block
    assert d.app.session.state.awaiting.value == "block"
    d.tap_code("3")  # Cy does not block: the card closes the window, Ana steals
    state = d.app.session.state
    assert state.window is None and state.progress == (1, 0, 1) and state.total == 3
    assert journal_events(d) == ["10", "10", "1", "5", "10", "6", "press Ana", "3"]

    # The journal replays to the screen's state, and so does export | replay.
    final = state.to_json()
    game_id, events = stored(d)
    assert Game.from_json(events).state.to_json() == final
    transcript = tmp_path / "game.jsonl"
    cli = [sys.executable, "-m", "companion.cli", "--data", str(d.app.data_dir)]
    subprocess.run([*cli, "export", str(game_id), "-o", str(transcript)], check=True,
                   cwd=REPO, timeout=60)
    out = subprocess.run([*cli, "replay", str(transcript), "--json"], check=True, cwd=REPO,
                         capture_output=True, text=True, timeout=60)
    replayed = json.loads(out.stdout)
    for key, value in replayed.items():
        assert final[key] == value, key


def test_undo_into_a_window_waits_for_a_tap_and_redo_gives_back_the_same_state(driver):
    d = start(driver, steal_seconds=SHORT_WINDOW, block_seconds=SHORT_WINDOW)
    closes: queue.Queue[Any] = queue.Queue()
    d.app.session.subscribe(
        lambda u: closes.put(u) if u.result and u.result.event.to_json() == {"type": "close"}
        else None
    )
    for card in ("10", "10", "1"):
        d.tap_code(card)
    closes.get(timeout=10)  # a fresh window is timed: nobody but its timer closes it
    d.wait_for(lambda: not table(d).window_shown, "the timer closing the steal window")
    assert d.app.session.state.progress == (0, 0, 1)  # Cy kept the round
    before = d.app.session.state.to_json()

    d.tap_id("table", "undo_button")  # back into the window the timer closed
    assert table(d).window_shown and d.app.session.state.awaiting.value == "steal"
    assert d.app.session.remaining() is None
    assert d.label("table", "countdown") == "Waiting: tap a button"
    d.tap_id("table", "menu_button")
    d.tap_id("menu", "menu_language")
    d.tap_id("menu", "menu_back")
    assert d.label("table", "countdown") == "En attente : touchez un bouton"
    # No timer is left to close it: the one that closed the steal window has ended and
    # none was started for the reopened window (one started would have fired by the time
    # no timer thread is left, and its close would be in `closes`).
    d.wait_for(lambda: not window_timers(), "the window timer threads to end")
    d.frames(2)
    assert closes.empty(), "a timer closed a window that undo reopened"
    assert table(d).window_shown and d.app.session.update.redo is not None
    d.tap_id("table", "redo_button")
    assert d.app.session.state.to_json() == before
    assert not table(d).window_shown
    assert journal_events(d) == ["10", "10", "1", "close", "undo", "redo"]
    _game_id, events = stored(d)
    assert Game.from_json(events).state.to_json() == before
