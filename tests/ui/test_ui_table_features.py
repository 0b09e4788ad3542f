"""The table's other doors: laptop keys 1-4, GPIO buttons from their own thread, the
language switched mid-game, settings and last choices kept in data_dir, voice, the
history after a game and "play again"."""

from __future__ import annotations

import json
import stat
import threading

from kivy.core.window import Window
from ui_helpers import setup_by_touch

from companion.config import Config, LedBoardConfig
from ui.voice import Voice


def reach_21(d) -> None:
    for card in ("10", "10", "1"):
        d.tap_code(card)
    assert d.app.session.state.window is not None


def test_laptop_keys_are_the_players_sorry_buttons(driver):
    d = driver()
    setup_by_touch(d, ["Ana", "Ben", "Cy"], pawns=4, variant="standard")
    Window.dispatch("on_key_down", 50, 0, "2", [])  # no window: "no SORRY! now"
    d.frames(2)
    assert d.label("table", "message_label") == "No SORRY! now (Ben)."
    reach_21(d)  # Cy reached 21
    Window.dispatch("on_key_down", 50, 0, "2", [])
    d.wait_for(
        lambda: d.label("table", "window_title") == "Ben called SORRY! on Cy",
        "Ben's call on screen",
    )
    Window.dispatch("on_key_down", 51, 0, "3", [])  # Cy answers with Don't Be SORRY!
    d.wait_for(lambda: "Cy blocked the steal" in d.label("table", "message_label"), "the block")


def test_gpio_press_from_another_thread_reaches_the_screen(driver, monkeypatch):
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    from gpiozero import Device

    config = Config(ledboard=LedBoardConfig(enabled=False))
    d = driver(config=config, start_hardware=True)
    try:
        d.wait_for(lambda: "Buttons: ready" in d.app.status, "the buttons' status")
        setup_by_touch(d, ["Ana", "Ben", "Cy"], pawns=4, variant="standard")
        reach_21(d)
        ben = Device.pin_factory.pin(config.gpio.pins[1])

        def press() -> None:  # the edge arrives on a thread of its own, as on a Pi
            ben.drive_low()
            ben.drive_high()

        thread = threading.Thread(target=press)
        thread.start()
        thread.join()
        d.wait_for(
            lambda: d.label("table", "window_title") == "Ben called SORRY! on Cy",
            "the GPIO press on screen",
        )
        assert d.app.session.state.window.caller == 1
    finally:
        d.stop()
        Device.pin_factory.reset()
        Device.pin_factory = None


def test_language_switches_everything_at_once(driver):
    d = driver()
    setup_by_touch(d, ["Ana", "Ben"], pawns=2, variant="standard")
    d.tap_code("slide:10")
    d.tap_id("table", "menu_button")
    d.tap_id("menu", "menu_language")
    d.tap_id("menu", "menu_back")
    assert d.screen == "table"
    assert d.label("table", "turn_label") == "■ À Ben de jouer"
    assert d.label("table", "undo_button") == "Annuler : Ana a joué Glissade 10"
    assert d.label("table", "draw_label") == f"Pioche : {d.app.session.state.draw_pile}"
    assert d.button(code="switch").text == "Changement de direction"
    assert d.button(code="take2").text == "Pigez-en 2"
    assert d.button(code="play2").text == "Jouez-en 2"
    panel = d.app.screen("table").ids.players_grid.children[0]
    assert {c.text for c in panel.ids.pawns.children} == {"DÉPART"}
    english = {"Undo", "Redo", "START", "HOME", "Slide", "turn", "Draw pile", "Round", "then"}
    for w in d.widgets():
        text = getattr(w, "text", "")
        if isinstance(text, str) and d.visible(w):
            assert not any(word in text for word in english), text
    d.tap_id("table", "redo_button")  # refusals are French too
    assert d.label("table", "message_label") == "Il n'y a rien à rétablir."
    d.tap_code("play2")
    d.tap_code("switch")
    assert d.label("table", "message_label") == (  # the card refused named, as in English
        "Ben doit encore 2 cartes numéro pour Jouez-en 2 : impossible de jouer Changement "
        "de direction maintenant ; notez une carte numéro ou terminez le Jouez-en 2."
    )


def test_settings_and_last_choices_are_kept_in_data_dir(driver, tmp_path):
    data = tmp_path / "data"
    d = driver(data)
    d.tap_id("start", "settings_button")
    for _ in range(2):
        d.tap_id("settings", "steal_plus")
    d.tap_id("settings", "block_minus")
    d.tap_id("settings", "brightness_plus")
    d.tap_id("settings", "lang_fr")
    assert d.label("settings", "steal_value") == "60 s"  # the longest a window may be
    d.tap_id("settings", "settings_back")
    assert d.screen == "start"
    saved = json.loads((data / "settings.json").read_text())
    assert saved["language"] == "fr"
    assert saved["brightness"] == 96
    setup_by_touch(d, ["Zoé", "Ben", "Cy"], pawns=3, variant="long")
    d.stop()

    d = driver(data)
    assert d.app.lang == "fr"
    assert d.app.settings.brightness == 96
    assert d.app.session.window_seconds()["steal"] == saved["steal_seconds"]
    d.tap_id("resume", "discard_button")  # a new game instead: the form is pre-filled
    start = d.app.screen("start")
    assert start.names[:3] == ["Zoé", "Ben", "Cy"]
    options = start.form("revenge")
    assert (start.count, options.pawns, options.variant) == (3, 3, "long")
    d.tap(start.ids.slot2.ids.name_button)  # earlier players are one tap away
    assert {b.code for b in d.app.screen("name").ids.known_grid.children} == {"Cy"}
    d.tap_id("name", "clear_button")
    d.tap(d.button(code="Cy"))
    assert d.screen == "start" and start.names[2] == "Cy"


def test_voice_calls_the_total_and_21_in_the_ui_language(driver, tmp_path):
    log = tmp_path / "spoken.txt"
    speak = tmp_path / "fake-espeak"
    speak.write_text(f'#!/bin/sh\necho "$2 $4" >> "{log}"\n')
    speak.chmod(speak.stat().st_mode | stat.S_IEXEC)
    voice = Voice(str(speak))
    d = driver(voice=voice)
    setup_by_touch(d, ["Ana", "Ben"], pawns=2, variant="standard")
    d.tap_code("7")
    d.wait_for(lambda: log.exists() and "en 7" in log.read_text(), "the total spoken")
    d.app.set_language("fr")
    d.tap_code("slide:21")
    d.wait_for(lambda: "fr 21 !" in log.read_text(), "21 called in French")


def test_history_and_play_again_after_a_game(driver):
    d = driver()
    setup_by_touch(d, ["Ana", "Ben"], pawns=1, variant="standard")
    for card in ("10", "10", "5"):  # Ana busts: Ben turns his one pawn card HOME
        d.tap_code(card)
    d.wait_for(lambda: d.screen == "over", "the game-over screen")
    assert d.label("over", "winner_label") == "Ben wins!"
    d.tap_id("over", "go_history")
    cells = [c.text for c in reversed(d.app.screen("history").ids.leaders_grid.children)]
    # name, games, wins, rounds won, busts, steals; the winner first
    assert cells[6:18] == ["Ben", "1", "1", "0", "0", "0", "Ana", "1", "0", "0", "1", "0"]
    recent = [c.text for c in d.app.screen("history").ids.recent_list.children]
    assert any("Ana, Ben, Ben won" in line for line in recent)
    d.tap_id("history", "history_back")
    assert d.screen == "over"
    d.tap_id("over", "play_again")
    assert d.screen == "table"
    state = d.app.session.state
    assert state.setup.players == ("Ana", "Ben") and state.turn_name == "Ben"


def test_a_mistaken_new_game_is_one_tap_to_take_back(driver, tmp_path):
    data = tmp_path / "data"
    d = driver(data)
    setup_by_touch(d, ["Ana", "Ben"], pawns=2, variant="standard")
    d.tap_code("9")
    d.stop()

    d = driver(data)
    d.tap_id("resume", "discard_button")  # the wrong button
    assert d.screen == "start"
    d.tap_id("start", "back_to_game")
    assert d.screen == "table" and d.label("table", "total_label") == "9"
    d.tap_id("table", "menu_button")
    d.tap_id("menu", "menu_new_game")  # wrong again
    d.tap_id("start", "back_to_game")
    assert d.screen == "table" and d.app.session.state.total == 9
    old_id = d.app.session.game_id
    d.tap_id("table", "menu_button")
    d.tap_id("menu", "menu_new_game")  # this time for real
    d.tap_id("start", "start_button")
    d.tap_code("confirm_give_up")  # a running game is given up only when told so
    assert d.screen == "table" and d.app.session.state.total == 0
    games = {g.game_id: g for g in d.app.journal.games()}
    assert games[old_id].abandoned and not games[d.app.session.game_id].abandoned


def test_the_players_panels_shown_again_take_the_new_players_colours(driver):
    """The table keeps its players' panels (made ahead, or shown for an earlier game): a
    panel shown for another player paints its pawn cards in that player's colour."""
    from games.revenge.rules import Setup

    d = driver()
    d.app.start_game(Setup.create(["Ana", "Ben", "Cy"], colors=["red", "blue", "yellow"]))
    d.frames(2)
    d.app.start_game(Setup.create(["Dee", "Eve", "Fay", "Gus"],
                                  colors=["green", "yellow", "blue", "red"]))
    d.frames(2)
    panels = list(reversed(d.app.screen("table").ids.players_grid.children))
    assert [p.color_name for p in panels] == ["green", "yellow", "blue", "red"]
    for panel in panels:
        cards = panel.ids.pawns.children
        assert len(cards) == 4
        assert {card.color_name for card in cards} == {panel.color_name}, panel.name
