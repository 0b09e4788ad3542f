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


def test_a_flipped_bit_in_a_finished_game_is_said_on_the_first_screen(driver, tmp_path):
    """Issue 33: damage in a finished game was said only once History was opened; the
    first screen says it now, with the game and the count, in both languages, once."""
    from journal_damage import finished_games, flip, row_at

    data = tmp_path / "data"
    ids = finished_games(data, [110, 150])
    flip(data, row_at(data, ids[0], 60) + 31, 2)  # inside the event's JSON text
    d = driver(data)
    view = d.app.notice_view
    assert view is not None and view.parent is not None
    text = view.label.text
    assert f"game {ids[0]}: event 60 was damaged" in text and "the 49 events after it" in text
    d.app.set_language("fr")
    d.frames()
    assert f"Partie {ids[0]} : l'événement 60 était abîmé" in view.label.text
    assert "(50 événements en tout)" in view.label.text
    d.tap(view.ok)
    d.frames()
    d.stop()
    d = driver(data)  # said once: not again at the next start
    assert d.app.notice_view is None


def test_a_cut_wal_is_said_on_the_first_screen_with_every_event_it_lost(driver, tmp_path):
    """Issue 33: after a cut -wal the first screen counted only what its remaining frames
    held (8 said where 175 were lost); it says every lost event now, and the game."""
    from journal_damage import crashed_journal, cut_wal

    data = tmp_path / "data"
    saved = crashed_journal(data, 120)
    cut_wal(data, (data / "journal.sqlite3-wal").stat().st_size // 2)
    d = driver(data)
    view = d.app.notice_view
    assert view is not None and view.parent is not None
    english = view.label.text
    d.app.set_language("fr")
    d.frames()
    french = view.label.text
    d.stop()
    with Journal.open(data) as journal:
        lost = saved - sum(len(journal.load(r.game_id).events) for r in journal.games())
        newest = max(r.game_id for r in journal.games() if r.event_count)
    assert lost > 100
    assert f"at least {lost} saved events are missing (game {newest})" in english
    assert f"au moins {lost} événements enregistrés manquent (parties : {newest})" in french
