"""Issue 9, finding 1: the app tells the scorekeeper what the journal repaired or set
aside, on the start screen, in the current language, until dismissed (and again at the
next start if nobody tapped OK)."""

from __future__ import annotations

import sqlite3

from companion.journal import Journal


def damaged_game(data) -> None:
    with Journal.open(data) as j:
        gid = j.start_game({"type": "setup", "players": ["Ana", "Ben"]})
        for card in ("7", "4", "2"):
            j.append(gid, {"type": "play", "card": card})
    conn = sqlite3.connect(data / "journal.sqlite3")
    conn.execute("UPDATE events SET json = '{\"type\":\"play\",\"card\":\"9\"}' WHERE seq = 2")
    conn.commit()
    conn.close()


def test_a_set_aside_is_shown_over_the_start_screen_until_ok(driver, tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    damaged_game(data)
    d = driver(data)
    view = d.app.notice_view
    assert view is not None and view.parent is not None
    assert "event 2 was damaged" in view.label.text and "set aside" in view.label.text
    d.app.set_language("fr")
    d.frames()
    assert "l'événement 2 était abîmé" in view.label.text
    d.stop()

    d = driver(data)  # not dismissed: shown again
    view = d.app.notice_view
    assert view is not None and "l'événement 2" in view.label.text
    d.tap(view.ok)
    d.frames()
    assert view.parent is None
    d.stop()

    d = driver(data)  # dismissed: gone
    assert d.app.notice_view is None
