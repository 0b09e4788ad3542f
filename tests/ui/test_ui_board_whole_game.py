"""Whole board games played by touch on the real app (offscreen Kivy, real journal): a
classic game and a 2016 game, each from the setup screen to the win, with starts, bumps,
slides, a 7 split, an 11 switch and a declined 11, a Sorry!, forfeits, undo and redo, a
correction of the board, and the win. The journal must equal `replay` of the export."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from board_play import Scorekeeper, key_window
from kivy.tests.common import UnitTestTouch
from ui_helpers import REPO, to_board_setup, type_name

from companion.journal import Journal
from games.board.rules import RULES

MAX_TURNS = 2000


def start_by_touch(d, names, edition, *, companion_draws=False):
    d.tap_id("start", f"count_{len(names)}")
    for i, name in enumerate(names):
        type_name(d, f"slot{i}", name)
    to_board_setup(d)
    d.tap_id("board_setup", f"edition_{edition}")
    d.tap_id("board_setup", "draws_companion" if companion_draws else "draws_real")
    d.tap_id("board_setup", "board_start")
    assert d.screen == "board", d.label("board_setup", "setup_message")
    d.frames(2)


def journal_events(d):
    # the app saves behind the screen (Session(background=True)): what was shown may not be
    # in the journal yet on a busy machine; wait for the writer, as the other tests do
    assert d.app.session.writer.flush(10)
    journal = Journal.open(d.app.data_dir)
    try:
        record = journal.games()[-1]
        return record, journal.load(record.game_id).events
    finally:
        journal.close()


def outcome_types(d):
    return [type(o).__name__ for step in d.app.session.update.steps for o in step.outcomes]


def undo_and_redo(d):
    """Undo the last step and put it back, by touch; the board is the same again."""
    before = RULES.state_json(d.app.session.state)
    label = d.label("board", "board_undo")
    assert label.startswith("Undo: ")
    d.tap_id("board", "board_undo")
    assert RULES.state_json(d.app.session.state) != before
    assert d.label("board", "board_redo") == "Redo: " + label[len("Undo: "):]
    d.tap_id("board", "board_redo")
    assert RULES.state_json(d.app.session.state) == before


def correct_a_pawn(d):
    """Drag one of the mover's track pawns one square back, by touch, and say so."""
    st = RULES.state_json(d.app.session.state)
    taken = {loc for p in st["players"] for loc in p["pawns"]}
    for p in st["players"]:
        for loc in p["pawns"]:
            if loc.startswith("T"):
                dest = f"T{(int(loc[1:]) - 1) % 60}"
                if dest not in taken:
                    break
        else:
            continue
        break
    else:
        return False
    d.tap_id("board", "correct_button")
    (x0, y0), (x1, y1) = key_window(d, loc), key_window(d, dest)
    touch = UnitTestTouch(x0, y0)
    touch.touch_down()
    touch.touch_move(x1, y1)
    touch.touch_up()
    d.frames(2)
    d.tap_id("board", "correct_button")
    after = RULES.state_json(d.app.session.state)
    pawns = next(q["pawns"] for q in after["players"] if q["color"] == p["color"])
    assert dest in pawns, (loc, dest, pawns)
    assert "Board corrected" in d.label("board", "message_label")
    return True


def play_to_the_end(d, keeper):
    corrected = undone = False
    for turn in range(MAX_TURNS):
        m = d.app.models["board"]
        if m.phase == "over":
            return turn
        if m.phase in ("card", "draw"):
            keeper.draw()
        elif m.phase == "move":
            keeper.take(keeper.choose())
            if not undone and turn >= 12:
                undo_and_redo(d)
                undone = True
            if not corrected and turn > 20:
                corrected = correct_a_pawn(d)
        else:
            raise AssertionError(f"unexpected phase {m.phase}")
    raise AssertionError("the game did not end")


def check_record(d, tmp_path):
    """The app's state equals the journal's replay, and the CLI's export | replay."""
    final = RULES.state_json(d.app.session.state)
    record, events = journal_events(d)
    assert record.winner == final["winner"]
    transcript = tmp_path / "board.jsonl"
    cli = [sys.executable, "-m", "companion.cli", "--data", str(d.app.data_dir)]
    subprocess.run([*cli, "export", str(record.game_id), "-o", str(transcript)], check=True,
                   cwd=REPO, timeout=60)
    lines = [json.loads(line) for line in transcript.read_text().splitlines()]
    assert lines == events
    out = subprocess.run([*cli, "replay", str(transcript), "--json"], check=True, cwd=REPO,
                         capture_output=True, text=True, timeout=60)
    replayed = json.loads(out.stdout)
    for field, value in replayed.items():
        assert final[field] == value, field
    return events


def game_over_and_history(d, final_winner):
    """The game-over figures on the board screen, then the history's board leaderboard."""
    texts = [w.text for w in d.widgets() if d.visible(w) and hasattr(w, "text")]
    assert "Bumps" in texts and "Pawns HOME" in texts and final_winner in texts
    assert not d.overflowing_labels(), d.overflowing_labels()
    d.screenshot("board-over-en")
    d.tap_id("board", "board_menu_button")
    d.tap_id("board_menu", "board_menu_history")
    grid = d.app.screen("history").ids.leaders_grid
    cells = [w.text for w in reversed(grid.children)]
    assert "Sorry! board game" in cells and "Sorry!s" in cells
    row = cells.index(final_winner)
    assert cells[row + 1:row + 3] == ["1", "1"]  # one game, one win


@pytest.mark.slow
@pytest.mark.parametrize("edition,seed", [("classic", 5), ("2016", 7)])
def test_a_whole_board_game_by_touch(driver, tmp_path, edition, seed):
    d = driver()
    start_by_touch(d, ["Ana", "Ben"], edition)
    keeper = Scorekeeper(d, seed)
    turns = play_to_the_end(d, keeper)
    assert d.label("board", "turn_label").endswith("wins!")
    events = check_record(d, tmp_path)
    kinds = {e.get("kind") for e in events if e["type"] == "move"}
    assert {"start", "split", "switch", "sorry", "decline"} <= kinds, str(keeper.kinds)
    assert any(e["type"] == "move" and e["legs"] == [] for e in events), "no declined 11"
    types = {e["type"] for e in events}
    assert {"draw", "move", "undo", "redo", "place"} <= types
    happened = set(outcome_types(d))
    assert {"Forfeited", "Finished"} <= happened, happened
    moved = [o.option for s in d.app.session.update.steps for o in s.outcomes
             if type(o).__name__ == "Moved"]
    assert any(o.bumped for o in moved), "no bump"
    assert any(leg.slid for o in moved for leg in o.moves), "no slide"
    assert all(keeper.taps.values()), keeper.taps
    if edition == "classic":
        assert "DrawAgain" in happened
        game_over_and_history(d, final_winner=d.app.models["board"].state["winner"])
    print(f"{edition}: {turns} turns, {keeper.kinds}, taps {keeper.taps}")
