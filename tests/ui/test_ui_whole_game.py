"""A whole game at the table, from the setup to the winner, by touch alone.

It goes through a steal call that is blocked, a flip-back SORRY!, Switch, Play 2 (with a
refused tap), a wrong card taken back with undo and put back with redo, a steal that
succeeds, a Slide to any total, Take 2, a bust that ties two players (1 pawn card each,
longer game: the goal is 2), and the tiebreaker. The app's final state must equal the
replay of what the real journal file holds, and `sorry-companion export | replay`.
"""

from __future__ import annotations

import json
import subprocess
import sys

from ui_helpers import REPO, setup_by_touch

from companion.game import Game
from companion.journal import Journal


def state(d):
    return d.app.session.state


def test_whole_game_by_touch_equals_the_replay_of_its_journal(driver, tmp_path):
    d = driver()
    setup_by_touch(d, ["Ana", "Ben", "Cy"], pawns=1, variant="long", typed=True)
    table = d.app.screen("table")
    ids = table.ids
    assert d.label("table", "turn_label") == "▲ Ana's turn"

    # Round 1: Cy reaches 21, Ana calls SORRY!, Cy blocks with Don't Be SORRY!
    for card in ("10", "10", "1"):
        d.tap_code(card)
    assert d.label("table", "total_label") == "21"
    assert table.window_shown and ids.pad_manager.current == "pad"  # the pad stays live
    assert "Cy reached 21" in d.label("table", "window_title")
    assert d.label("table", "countdown").endswith(" s")
    assert {b.code for b in ids.press_grid.children} == {"Ana", "Ben"}
    d.tap(d.button(code="Ana"))
    assert state(d).window.kind == "block"
    assert d.label("table", "window_title") == "Ana called SORRY! on Cy"
    assert [b.code for b in ids.press_grid.children] == ["Cy"]
    assert "Don't Be SORRY!" in ids.press_grid.children[0].text
    d.tap(d.button(code="Cy"))
    assert not table.window_shown
    assert "Cy blocked the steal" in d.label("table", "message_label")
    assert state(d).progress == (0, 0, 1)
    cy_panel = ids.players_grid.children[0]
    assert [c.text for c in cy_panel.ids.pawns.children] == ["HOME"]

    # Round 2: Ana plays the flip-back SORRY! on Cy, who does not block.
    d.tap_code("sorry")
    assert ids.pad_manager.current == "flip"
    assert [b.code for b in ids.flip_grid.children] == ["Cy"]
    d.tap(d.button(code="Cy"))
    assert d.label("table", "window_title") == "Ana played SORRY! on Cy"
    d.tap_id("table", "window_close")
    assert state(d).progress == (0, 0, 0)
    assert "Cy moves a pawn back" in d.label("table", "message_label")
    assert d.label("table", "turn_label") == "■ Ben's turn"

    # Round 3: Switch, then Play 2 for Ana, who may not play Switch meanwhile.
    d.tap_code("switch")
    assert ids.direction_arrow.direction == -1
    assert d.label("table", "turn_label") == "▲ Ana's turn"
    assert d.label("table", "next_label") == "then Cy"
    d.tap_code("play2")
    assert d.label("table", "owed_label") == "Play 2: 2 number cards still owed"
    assert d.button(code="switch").dim
    before = state(d).to_json()
    assert d.app.session.writer.flush(10)  # the journal writer has caught up
    events_before = len(Journal.open(d.app.data_dir).unfinished().events)
    d.tap_code("switch")
    assert "owes 2 number cards for Play 2" in d.label("table", "message_label")
    assert state(d).to_json() == before
    assert d.app.session.writer.flush(10)
    assert len(Journal.open(d.app.data_dir).unfinished().events) == events_before
    d.tap_code("5")
    assert d.label("table", "owed_label") == "Play 2: 1 number card still owed"
    d.tap_code("6")
    assert d.label("table", "owed_label") == ""
    assert d.label("table", "turn_label") == "● Cy's turn"
    # A wrong tap, taken back and put back, and taken back again.
    d.tap_code("9")
    assert d.label("table", "total_label") == "20"
    assert d.label("table", "undo_button") == "Undo: Cy played 9"
    d.tap_id("table", "undo_button")
    assert d.label("table", "total_label") == "11"
    assert d.label("table", "redo_button") == "Redo: Cy played 9"
    d.tap_id("table", "redo_button")
    assert d.label("table", "total_label") == "20"
    d.tap_id("table", "undo_button")
    assert d.label("table", "total_label") == "11"
    # Cy reaches 21 and Ben steals it: no block.
    d.tap_code("10")
    d.tap(d.button(code="Ben"))
    d.tap_id("table", "window_close")
    assert "Ben stole the round from Cy" in d.label("table", "message_label")
    assert state(d).progress == (0, 1, 0)
    assert d.label("table", "turn_label") == "■ Ben's turn"

    # Round 4: a Slide to 12 (any total, by a second tap), then Ben busts.
    d.tap_id("table", "slide_other")
    assert ids.pad_manager.current == "slide"
    d.tap_code("slide:12")
    assert d.label("table", "total_label") == "12"
    assert ids.pad_manager.current == "pad"
    for card in ("3", "4", "3"):
        d.tap_code(card)
    assert "Ben busts at 22" in d.label("table", "message_label")
    assert state(d).progress == (1, 1, 1)

    # Round 5: Take 2, then Ana busts: Ben and Cy reach the goal together.
    d.tap_code("10")
    d.tap_code("take2")
    d.tap_code("10")
    d.tap_code("5")
    d.wait_for(lambda: d.screen == "tiebreak", "the tiebreaker screen")
    tb = d.app.screen("tiebreak")
    assert {b.code for b in tb.ids.tied_grid.children} == {"Ben", "Cy"}
    assert d.label("tiebreak", "tb_prompt") == "Enter Ben's total"
    for key in ("1", "9", "ok"):
        d.tap(d.button(code=key))
    assert d.label("tiebreak", "tb_prompt") == "Enter Cy's total"
    d.tap_id("tiebreak", "tb_undo")  # Ben's total taken back, and put back
    assert d.label("tiebreak", "tb_prompt") == "Enter Ben's total"
    assert d.label("tiebreak", "tb_redo") == "Redo: Ben's tiebreaker total 19"
    d.tap_id("tiebreak", "tb_redo")
    assert d.label("tiebreak", "tb_prompt") == "Enter Cy's total"
    for key in ("2", "0", "ok"):
        d.tap(d.button(code=key))
    d.wait_for(lambda: d.screen == "over", "the game-over screen")
    assert d.label("over", "winner_label") == "Cy wins!"
    assert state(d).winner == 2

    # The journal file, read back by a fresh connection, replays to the same state (once
    # the journal writer has caught up: the screen never waits for it).
    final = state(d).to_json()
    assert d.app.session.writer.flush(10)
    journal = Journal.open(d.app.data_dir)
    record = journal.games()[-1]
    assert record.winner == "Cy"
    stored = journal.load(record.game_id)
    journal.close()
    replayed = Game.from_json(stored.events).state.to_json()
    assert replayed == final

    # And so does the product's own export and replay, in subprocesses.
    transcript = tmp_path / "game.jsonl"
    cli = [sys.executable, "-m", "companion.cli", "--data", str(d.app.data_dir)]
    subprocess.run(
        [*cli, "export", str(record.game_id), "-o", str(transcript)],
        check=True,
        cwd=REPO,
        timeout=60,
    )
    out = subprocess.run(
        [*cli, "replay", str(transcript), "--json"],
        check=True,
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
    )
    replay_json = json.loads(out.stdout)
    for key, value in replay_json.items():
        assert final[key] == value, key
