"""A board game survives the app being closed: the resume screen describes it, and
resuming shows the same board, the same card waiting, and the same way of drawing."""

from __future__ import annotations

from board_play import Scorekeeper
from test_ui_board_whole_game import start_by_touch

from games.board.rules import RULES


def test_a_board_game_resumes_where_it_was(driver, tmp_path):
    data = tmp_path / "data"
    d = driver(data)
    start_by_touch(d, ["Ana", "Ben"], "classic", companion_draws=True)
    keeper = Scorekeeper(d, 11)
    while len(d.app.session.update.steps) < 6 or d.app.models["board"].phase != "move":
        if d.app.models["board"].phase == "draw":
            keeper.draw()
        else:
            keeper.take(keeper.choose())
    before = RULES.state_json(d.app.session.state)
    assert before["card"] is not None
    d.stop()

    d = driver(data)
    assert d.screen == "resume"
    desc = d.label("resume", "resume_desc")
    assert desc.startswith(f"Board game: Ana, Ben, {before['turn']} to play\nResumed after “")
    assert desc.split("“")[1].split(" ")[0] in ("Ana", "Ben")  # who did the last saved step
    d.tap_id("resume", "resume_button")
    assert d.screen == "board"
    assert RULES.state_json(d.app.session.state) == before
    assert d.app.models["board"].card_text == before["card"].replace("sorry", "Sorry!")
    assert [b.code for b in d.buttons() if b.code.startswith("opt")]  # the options again
    keeper = Scorekeeper(d, 12)
    keeper.take(keeper.choose())
    d.wait_for(lambda: d.app.models["board"].phase in ("draw", "move", "over"), "the next turn")
    if d.app.models["board"].phase == "draw":
        assert len(d.buttons(code="draw")) == 1  # the companion still draws this game
