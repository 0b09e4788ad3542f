"""The board screen on the real engine, in short: the companion's Draw button and what is
left in the deck, the adult variation's "no playable card", a forfeit said in French."""

from __future__ import annotations

from test_ui_board_whole_game import journal_events, start_by_touch

from games.board.rules import RULES


def test_the_companion_draws_and_shows_what_is_left(driver):
    d = driver()
    start_by_touch(d, ["Ana", "Ben"], "classic", companion_draws=True)
    assert d.label("board", "left_label").startswith("Left in the deck (45)\n1×5  2×4")
    d.tap_code("draw")
    _record, events = journal_events(d)
    assert events[-1]["type"] == "draw"
    card = events[-1]["card"]
    st = RULES.state_json(d.app.session.state)
    assert st["draw_pile"] == 44
    if st["card"] is None:  # no pawn can leave START with it: forfeited at once
        assert "cannot use the" in d.label("board", "message_label")
    else:
        assert d.app.models["board"].card_text in (card, "Sorry!")


def test_adult_variation_no_playable_card(driver):
    d = driver()
    d.tap_id("start", "count_2")
    from ui_helpers import to_board_setup, type_name

    for i, name in enumerate(["Ana", "Ben"]):
        type_name(d, f"slot{i}", name)
    to_board_setup(d)
    d.tap_id("board_setup", "draws_real")
    adult = d.app.screen("board_setup").ids.adult
    view = adult.parent
    while not hasattr(view, "scroll_to"):
        view = view.parent
    view.scroll_to(adult, animate=False)  # the finger scrolls the settings to it
    d.frames(2)
    d.tap_id("board_setup", "adult")
    assert adult.selected
    d.tap_id("board_setup", "board_start")
    assert d.screen == "board"
    d.tap_code("no_play")
    d.tap_code("card:5")
    _record, events = journal_events(d)
    assert events[0]["settings"]["adult"] is True
    assert events[-1] == {"type": "no_play", "discard": "5"}
    assert RULES.state_json(d.app.session.state)["turn"] == "Ben"


def test_a_forfeit_is_said_in_french_with_its_why(driver):
    d = driver(language="fr")
    start_by_touch(d, ["Ana", "Ben"], "classic")
    d.tap_code("card:5")  # every pawn in START: a 5 cannot be used
    assert d.label("board", "message_label") == "Ana ne peut pas jouer le 5 : le tour passe."
    # the why of a forfeit is shown at once, without asking
    assert d.label("board", "why_label").startswith("Aucun coup pour rouge avec un 5")
    assert d.label("board", "turn_label") == "■ À Ben de jouer"


def test_a_tapped_pawn_that_cannot_move_says_the_engines_reason(driver):
    d = driver()
    start_by_touch(d, ["Ana", "Ben"], "classic")
    d.tap_code("card:1")
    d.tap_code("move")  # Ana starts a pawn
    d.tap_code("card:3")  # Ben: all in START, forfeited
    d.tap_code("card:4")  # Ana: the pawn on T4 goes back 4
    from board_play import tap_key

    tap_key(d, "red:START")
    assert d.label("board", "message_label").startswith("No move of the 4 starts there")
    d.tap_id("board", "why_button")
    assert d.label("board", "why_label") == "A pawn in START cannot move backward"
