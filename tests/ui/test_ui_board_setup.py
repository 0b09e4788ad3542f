"""Choosing the board game on the real app by touch: the start screen's players, then the
edition, who draws and BOARD.md's settings; the rules page's two questions; "Why?"
spoken by the voice."""

from __future__ import annotations

import stat
import time

from board_screen_helpers import ScriptDoor, position
from ui_helpers import to_board_setup, type_name

from games.board.rules import RULES
from games.board.screens.door import BoardSnapshot
from ui.voice import Voice


def test_the_board_game_is_set_up_by_touch(driver):
    door = ScriptDoor()
    d = driver(board_door=door)
    d.tap_id("start", "count_3")
    for i, name in enumerate(["Ana", "Ben", "Cy"]):
        type_name(d, f"slot{i}", name)
    to_board_setup(d)
    assert d.screen == "board_setup"
    setup = d.app.screen("board_setup")
    assert d.label("board_setup", "setup_players") == "▲ Ana, ■ Ben, ● Cy"
    d.tap_id("board_setup", "edition_2016")
    assert "3 pawns" in setup.ids.edition_2016.parent.parent.help
    d.tap_id("board_setup", "draws_real")
    d.tap_id("board_setup", "start_circle")
    d.tap_id("board_setup", "deck_1939")
    setup.ids.slides_row.parent.parent.scroll_y = 0  # the last settings, scrolled to
    d.frames(2)
    d.tap(d.button(code="slide_T9"))  # red's long slide is printed blue on this board
    assert d.button(code="slide_T9").text == "9\n■ blue"
    d.tap_id("board_setup", "board_start")
    assert door.calls == [("new_game", RULES.parse_setup({  # the form's setup, as read
        "type": "setup", "game": "board", "edition": "2016", "players": ["Ana", "Ben", "Cy"],
        "colors": ["red", "blue", "yellow"], "first": "Ana",
        "settings": {"start_move": "circle", "slide_colors": {"T9": "blue"}, "deck": "1939"},
    }).to_json())]
    assert d.screen == "board"


def test_a_setup_the_game_refuses_stays_on_the_form_with_its_sentence(driver):
    door = ScriptDoor()
    door.refuse = "the 1939 deck is not allowed with the adult variation"
    d = driver(board_door=door)
    for i, name in enumerate(["Ana", "Ben"]):
        type_name(d, f"slot{i}", name)
    to_board_setup(d)
    d.tap_id("board_setup", "board_start")
    assert d.screen == "board_setup"
    assert d.label("board_setup", "setup_message") == (
        "The 1939 deck is not allowed with the adult variation.")


def test_the_rules_page_answers_the_players_two_questions(driver):
    d = driver(board_door=ScriptDoor(BoardSnapshot(position({"red": ["START"] * 4,
                                                             "blue": ["START"] * 4}))))
    d.app.show("board")
    d.app.models["board"].refresh()
    d.frames(2)
    d.tap_id("board", "board_menu_button")
    d.tap_id("board_menu", "board_menu_rules")
    texts = [w.text for w in d.widgets() if d.visible(w) and hasattr(w, "text")]
    assert any(t.startswith("I am in my safety zone") for t in texts)
    assert any(t.startswith("No. That move does not exist.") for t in texts)
    assert any(t.startswith("On a 10, if I cannot go 10 forward") for t in texts)
    assert any(t.startswith("Yes, if any pawn can go back 1") for t in texts)
    d.tap_id("board_rules", "board_rules_back")
    assert d.screen == "board_menu"


def test_why_is_spoken_when_the_voice_is_on(driver, tmp_path):
    log = tmp_path / "spoken.txt"
    command = tmp_path / "espeak-stand-in"
    command.write_text(f'#!/bin/sh\necho "$4" >> "{log}"\n')
    command.chmod(command.stat().st_mode | stat.S_IEXEC)
    options = [{"kind": "forward", "legs": [["T10", "T15"]], "bumped": [],
                "why": {"en": "Five forward, exactly."}}]
    door = ScriptDoor(BoardSnapshot(position({"red": ["T10"], "blue": ["T30"]}, card="5"),
                                    options))
    d = driver(board_door=door, voice=Voice(str(command)))
    d.app.show("board")
    d.app.models["board"].refresh()
    d.frames(3)
    d.tap_code("why0")
    deadline = time.monotonic() + 20
    while not (log.exists() and "Five forward, exactly." in log.read_text()):
        assert time.monotonic() < deadline, "the why was never spoken"
        time.sleep(0.01)  # a file another process writes: no event to await


def test_the_board_setup_is_remembered_for_the_next_game_after_a_restart(driver, tmp_path):
    """Players, colours, edition, who draws and the settings, as for the card game."""
    data = tmp_path / "kept"
    door = ScriptDoor()
    d = driver(data, board_door=door)
    d.tap_id("start", "count_3")
    for i, name in enumerate(["Ana", "Ben", "Cy"]):
        type_name(d, f"slot{i}", name)
    to_board_setup(d)
    d.tap_id("board_setup", "edition_2016")
    d.tap_id("board_setup", "draws_real")
    d.tap_id("board_setup", "start_circle")
    d.tap_id("board_setup", "board_start")
    assert door.calls and d.screen == "board"
    d.stop()
    d = driver(data, board_door=ScriptDoor())
    assert [d.app.screen("start").names[i] for i in range(3)] == ["Ana", "Ben", "Cy"]
    to_board_setup(d)
    setup = d.app.screen("board_setup")
    assert (setup.edition, setup.companion_draws, setup.start_move) == ("2016", False, "circle")
    assert setup.ids.edition_2016.selected and setup.ids.draws_real.selected


def test_back_to_the_board_game_from_the_new_game_form(driver):
    d = driver()
    assert d.app.start_game({"type": "setup", "game": "board", "players": ["Ana", "Ben"],
                             "draws": "companion"}) is None
    d.frames(2)
    assert d.screen == "board"
    d.tap_id("board", "board_menu_button")
    d.tap_id("board_menu", "board_menu_new")
    assert d.screen == "start"
    d.tap_id("start", "back_to_game")
    assert d.screen == "board"


def test_play_again_on_the_game_over_screen(driver):
    won = {"red": ["HOME"] * 4, "blue": ["START"] * 4}
    setup = RULES.parse_setup({"type": "setup", "game": "board", "players": ["Ana", "Ben"],
                               "draws": "companion"})
    door = ScriptDoor(BoardSnapshot(position(won, turn=None, winner="Ana"),
                                    last={"what": "won", "name": "Ana"}, setup=setup))
    d = driver(board_door=door)
    d.app.models["board"].refresh()
    d.app.show("board")
    d.frames(3)
    d.tap_code("play_again")
    assert door.calls == [("new_game", setup.to_json())]  # the same table, the same deck
