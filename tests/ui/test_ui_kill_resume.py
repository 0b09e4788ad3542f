"""SIGKILL the real app mid-game, start it again: it offers to resume, and the table
shows exactly the state the journal replays to."""

from __future__ import annotations

import os
import selectors
import signal
import subprocess
import sys
import time
from pathlib import Path

from ui_helpers import REPO

from companion.game import Game
from companion.journal import Journal
from companion.resume_words import last_saved_words
from games.revenge.rules import Card, Play
from games.revenge.screens.wording import step_label
from ui.theme import marked

ACKS_BEFORE_KILL = 14
STARTUP_SECONDS = 60.0


def read_acks(proc: subprocess.Popen, wanted: int) -> list[str]:
    """Lines of the driver until `wanted` acks, failing if it dies or stalls."""
    sel = selectors.DefaultSelector()
    sel.register(proc.stdout, selectors.EVENT_READ)
    acks: list[str] = []
    deadline = time.monotonic() + STARTUP_SECONDS
    buffer = b""
    while len(acks) < wanted:
        assert time.monotonic() < deadline, f"driver stalled after {acks}"
        if not sel.select(timeout=1.0):
            assert proc.poll() is None, f"driver exited with {proc.returncode}"
            continue
        chunk = os.read(proc.stdout.fileno(), 4096)
        assert chunk, f"driver closed its output (exit {proc.poll()})"
        buffer += chunk
        *lines, buffer = buffer.split(b"\n")
        acks += [ln.decode() for ln in lines if ln.startswith(b"ack ")]
    return acks


def test_sigkill_mid_game_then_resume_shows_the_journal_state(driver, tmp_path):
    data_dir = tmp_path / "data"
    env = dict(os.environ, PYTHONPATH=str(REPO), KIVY_HOME=str(tmp_path / "kivy"))
    proc = subprocess.Popen(
        [sys.executable, str(Path(__file__).with_name("ui_kill_driver.py")), str(data_dir)],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        cwd=REPO,
        env=env,
    )
    try:
        acks = read_acks(proc, ACKS_BEFORE_KILL)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL

    journal = Journal.open(data_dir)
    stored = journal.unfinished()
    journal.close()
    assert stored is not None and stored.damage is None
    acked_events = int(acks[-1].split()[1])
    assert len(stored.events) >= acked_events  # every acknowledged tap is in the journal
    game = Game.from_json(stored.events)
    expected = game.state

    d = driver(data_dir)
    assert d.screen == "resume"
    assert d.label("resume", "resume_desc") == (
        f"Ana, Ben, Cy: round {expected.round}, {expected.name(expected.turn)} to play\n"
        f"Resumed after “{last_saved_words(game)}”: tap again anything played after it."
    )  # issue 21: the last saved tap in words, so the table re-taps what came after
    d.app.set_language("fr")  # ... in the words of the screen's language
    d.frames()
    french = d.label("resume", "resume_desc")
    assert f"Reprise après « {last_saved_words(game, 'fr')} »" in french
    d.screenshot("resume_after_power_cut_fr")
    d.app.set_language("en")
    d.frames()
    d.tap_id("resume", "resume_button")
    assert d.screen == "table"
    assert d.app.session.state.to_json() == expected.to_json()
    assert d.label("table", "total_label") == str(expected.total)
    color = expected.setup.colors[expected.turn].value
    assert d.label("table", "turn_label") == marked(color, f"{expected.name(expected.turn)}'s turn")
    assert d.label("table", "round_label") == f"Round {expected.round}"
    assert d.label("table", "draw_label") == f"Draw pile: {expected.draw_pile}"
    last = game.undo_step
    assert d.label("table", "undo_button") == "Undo: " + step_label(last.event, last.before, "en")
    panels = list(reversed(d.app.screen("table").ids.players_grid.children))
    for panel, player in zip(panels, expected.players, strict=True):
        sides = [c.text for c in reversed(panel.ids.pawns.children)]
        assert sides.count("HOME") == player.home, player.name
        assert panel.hand == f"{player.hand} in hand"
    # The game goes on from there: one more card is one more tap.
    d.tap_code("1")
    assert d.app.session.state.to_json() == game.push(Play(Card.parse("1"))).state.to_json()


def test_a_stored_game_that_no_longer_replays_still_starts_and_resumes_its_good_part(
        driver, tmp_path):
    """An event today's rules refuse (an older version's journal, a hand edit) must not
    keep the appliance from starting: the app offers the game up to that event."""
    data_dir = tmp_path / "data"
    journal = Journal.open(data_dir)
    gid = journal.start_game({"type": "setup", "players": ["Ana", "Ben"]})
    for obj in ({"type": "play", "card": "4"}, {"type": "end_play2"},
                {"type": "play", "card": "5"}):
        journal.append(gid, obj)
    journal.close()

    d = driver(data_dir)
    assert d.screen == "resume"
    assert d.label("resume", "resume_desc") == ("Ana, Ben: round 1, Ben to play\nResumed "
                                                "after “Ana played 4”: tap again anything "
                                                "played after it.")
    assert "event 2 cannot be replayed (no Play 2 is owed" in d.label("resume", "resume_damage")
    d.tap_id("resume", "resume_button")
    assert d.screen == "table" and d.label("table", "total_label") == "4"
    assert "set aside" in d.label("table", "message_label")
    d.tap_code("6")
    assert d.label("table", "total_label") == "10"
