"""Giving up a running game, by touch on the real app: Start over a game without a winner
asks first (two big buttons); keeping it changes nothing, giving it up starts the new
game and the old one is listed as abandoned in the history, out of the leaderboard."""

from __future__ import annotations

from ui_helpers import setup_by_touch, to_board_setup


def new_game_from_the_menu(d) -> None:
    d.tap_id("table", "menu_button")
    d.tap_id("menu", "menu_new_game")
    d.tap_id("start", "start_button")


def test_start_over_a_running_game_asks_and_keeping_it_changes_nothing(driver):
    d = driver()
    setup_by_touch(d, ["Ana", "Ben"], pawns=2, variant="standard")
    for card in ("10", "10", "5"):  # Ana busts in the game that will be given up
        d.tap_code(card)
    d.tap_code("9")
    old_id = d.app.session.game_id
    new_game_from_the_menu(d)
    keep, give_up = d.button(code="confirm_keep"), d.button(code="confirm_give_up")
    assert keep.text == "Keep playing" and give_up.text == "Give it up and start"
    assert min(keep.height, give_up.height) >= 48  # big targets
    question = keep.parent.parent.children[-1].text
    assert question.startswith("A game of Ana, Ben is still being played.")
    assert d.app.session.game_id == old_id and len(d.app.journal.games()) == 1
    d.tap(keep)
    assert d.screen == "table" and d.label("table", "total_label") == "9"
    assert d.buttons(code="confirm_keep") == []  # the question is gone
    assert not d.app.journal.games()[0].abandoned

    new_game_from_the_menu(d)
    d.tap_code("confirm_give_up")
    assert d.screen == "table" and d.label("table", "total_label") == "0"
    games = d.app.journal.games()
    assert [(g.game_id == old_id, g.abandoned) for g in games] == [(True, True), (False, False)]
    for card in ("0", "10", "10", "5"):  # Ben busts in the new game, still being played
        d.tap_code(card)
    d.tap_id("table", "menu_button")
    d.tap_id("menu", "menu_history")
    history = d.app.screen("history")
    recent = [c.text for c in reversed(history.ids.recent_list.children)]  # newest first
    assert recent[0].endswith("Ana, Ben, not finished")
    assert recent[1].endswith("Ana, Ben, abandoned")
    # finished games only (issue 20): neither the abandoned nor the running game counts,
    # and the recent games' title says how many are left out
    cells = [c.text for c in reversed(history.ids.leaders_grid.children)]
    assert cells == ["No finished games yet"]
    assert history.ids.recent_title.text == "Recent games · not finished, not counted: 2"


def test_the_question_in_french_and_no_question_after_a_finished_game(driver):
    d = driver(language="fr")
    setup_by_touch(d, ["Ana", "Ben"], pawns=1, variant="standard")
    d.tap_code("7")
    new_game_from_the_menu(d)
    assert d.button(code="confirm_keep").text == "Continuer la partie"
    d.tap_code("confirm_give_up")
    for card in ("10", "10", "5"):  # Ana busts: Ben wins, the game is over
        d.tap_code(card)
    d.wait_for(lambda: d.screen == "over", "the game-over screen")
    d.tap_id("over", "go_new")
    d.tap_id("start", "start_button")  # nothing running: no question
    assert d.buttons(code="confirm_give_up") == []
    assert d.screen == "table"
    assert [g.abandoned for g in d.app.journal.games()] == [True, False, False]


def test_the_board_games_start_asks_too(driver):
    d = driver()
    setup_by_touch(d, ["Ana", "Ben"], pawns=2, variant="standard")
    d.tap_code("6")
    d.tap_id("table", "menu_button")
    d.tap_id("menu", "menu_new_game")
    to_board_setup(d)
    d.tap_id("board_setup", "board_start")
    d.tap_code("confirm_keep")
    assert d.screen == "table" and d.app.session.state.total == 6
    d.tap_id("table", "menu_button")
    d.tap_id("menu", "menu_new_game")
    to_board_setup(d)
    d.tap_id("board_setup", "board_start")
    d.tap_code("confirm_give_up")
    assert d.screen == "board" and d.app.session.update.game == "board"
    assert [g.abandoned for g in d.app.journal.games()] == [True, False]
