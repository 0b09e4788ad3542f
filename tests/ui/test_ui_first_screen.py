"""The first screen on the real app, by touch: every game of ui.games offered as an equal
choice, the seats typed once for all of them, each game's own options below, the choice
and the options remembered, and the history, rules and settings one tap away."""

from __future__ import annotations

import pytest
from board_screen_helpers import ScriptDoor
from kivy.core.window import Window
from layout_helpers import SIZES, picture, problems, resize, set_text_size, shot_path, size_id
from ui_helpers import setup_by_touch, to_board_setup, type_name

from companion.config import Config, LedBoardConfig

# no GPIO on this machine and no LED board plugged in
STATUS = {"en": "Buttons: none, touch only  ·  LED board: not found",
          "fr": "Boutons : aucun, tactile seulement  ·  Panneau LED : introuvable"}


@pytest.fixture
def window_back():
    yield
    Window.size = (800, 480)


def tabs(d):
    return [b for b in reversed(d.app.screen("start").ids.game_tabs.children)]


def test_the_two_games_are_equal_choices_each_with_its_own_options(driver):
    d = driver()
    start = d.app.screen("start")
    card, board = tabs(d)
    assert (card.code, board.code) == ("game:revenge", "game:board")
    assert card.size == board.size and card.bg == board.bg  # neither one is the lesser
    assert card.selected and not board.selected
    assert start.ids.game_options.children == [start.form("revenge")]
    d.tap(board)
    assert board.selected and not card.selected
    assert start.ids.game_options.children == [start.form("board")]
    assert start.form("board").ids.edition_classic.selected
    d.tap_id("start", "rules_button")  # the rules of the game chosen
    assert d.screen == "board_rules"
    d.tap_id("board_rules", "board_rules_back")
    assert d.screen == "start"
    d.tap(card)
    d.tap_id("start", "rules_button")
    assert d.screen == "rules"


def test_the_board_game_starts_from_the_first_screen_with_its_options(driver, tmp_path):
    data = tmp_path / "data"
    door = ScriptDoor()
    d = driver(data, board_door=door)
    for i, name in enumerate(["Ana", "Ben"]):
        type_name(d, f"slot{i}", name)
    d.tap(d.button(code="game:board"))
    options = d.app.screen("start").form("board")
    d.tap(options.ids.edition_2016)
    d.tap(options.ids.draws_real)
    d.tap_id("start", "start_button")
    assert d.screen == "board"
    (what, setup), = door.calls
    assert (what, setup["edition"], setup["players"], setup.get("draws")) == (
        "new_game", "2016", ["Ana", "Ben"], None)
    d.stop()

    d = driver(data, board_door=ScriptDoor())  # the next time: the board game, as chosen
    start = d.app.screen("start")
    assert start.game == "board" and tabs(d)[1].selected
    assert start.form("board").ids.edition_2016.selected
    assert start.form("board").ids.draws_real.selected


def test_more_choices_and_back_keep_what_was_chosen_on_either_screen(driver):
    d = driver(board_door=ScriptDoor())
    for i, name in enumerate(["Ana", "Ben"]):
        type_name(d, f"slot{i}", name)
    d.tap(d.button(code="game:board"))
    d.tap(d.app.screen("start").form("board").ids.edition_2016)
    to_board_setup(d)
    setup = d.app.screen("board_setup")
    assert setup.edition == "2016" and setup.players == ["Ana", "Ben"]
    d.tap_id("board_setup", "edition_classic")
    d.tap_id("board_setup", "draws_real")
    d.tap_id("board_setup", "setup_back")
    assert d.screen == "start"
    options = d.app.screen("start").form("board")
    assert (options.edition, options.companion_draws) == ("classic", False)


def test_the_seats_are_checked_whatever_the_game(driver):
    door = ScriptDoor()
    d = driver(board_door=door)
    d.tap(d.button(code="game:board"))
    d.tap_id("start", "start_button")  # nobody named yet
    assert d.screen == "start" and d.label("start", "start_message")
    assert door.calls == []


def test_a_board_setup_the_game_refuses_is_said_on_the_first_screen(driver):
    door = ScriptDoor()
    door.refuse = "the 1939 deck is not allowed with the adult variation"
    d = driver(board_door=door)
    setup_by_touch(d, ["Ana", "Ben"], pawns=4, variant="standard")  # a card game running
    d.tap_id("table", "menu_button")
    d.tap_id("menu", "menu_new_game")
    d.tap(d.button(code="game:board"))
    d.tap_id("start", "start_button")
    d.tap_code("confirm_give_up")  # asked first, then refused by the game
    assert d.screen == "start"
    assert d.label("start", "start_message") == (
        "The 1939 deck is not allowed with the adult variation.")


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_status_line_the_readme_promises_is_on_the_first_screen(driver, window_back, lang):
    """The README says that without GPIO "the status line says 'Buttons: none, touch
    only'": it was on the table only, not on the first screen a family sees (issue 35.9).
    A machine with no GPIO and no LED board plugged in, at every display, both text sizes."""
    d = driver(language=lang, config=Config(ledboard=LedBoardConfig(enabled=True)),
               start_hardware=True)
    words = STATUS[lang]
    d.wait_for(lambda: d.app.status == words, f"{words!r}, not {d.app.status!r}")
    assert d.screen == "start"
    status = d.app.screen("start").ids.start_status
    found = []
    for text_size in ("normal", "large"):
        set_text_size(d, text_size)
        for size in SIZES:
            resize(d, size)
            if not (d.visible(status) and status.text == words) or status.clipped:
                found.append(f"{size_id(size)} {text_size}: {status.text!r} "
                             f"in {[round(v) for v in status.size]}")
            found += [f"{size_id(size)} {text_size}: {p}" for p in problems(d)]
            if size in ((800, 480), (480, 800)):
                picture(d, shot_path(size, "start-status", lang, text_size), settled=True)
    assert not found, "\n".join(found)
    d.tap_id("start", "start_button")  # no names: the message takes the line's place
    assert d.label("start", "start_message") and not d.visible(status)
