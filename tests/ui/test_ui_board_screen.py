"""The board screen on a real offscreen Kivy window, fed hand-written positions and
options (BOARD.md's JSON contracts) through a scripted door: taps become the door calls
a scorekeeper means, and nothing else."""

from __future__ import annotations

import pytest
from board_play import scroll_to
from board_screen_helpers import ScriptDoor, position
from kivy.tests.common import UnitTestTouch

from games.board.rules import CARDS
from games.board.screens.door import BoardSnapshot

PAWNS = {"red": ["START", "START", "T10", "S2"], "blue": ["START", "T14", "T30", "HOME"]}
ONE = [
    {"kind": "start", "legs": [["START", "T4"]], "bumped": []},
    {"kind": "forward", "legs": [["T10", "T11"]], "bumped": []},
    {"kind": "forward", "legs": [["S2", "S3"]], "bumped": []},
]
SEVEN = [
    {"kind": "forward", "legs": [["T10", "T17"]], "bumped": []},
    {"kind": "split", "legs": [["T10", "T16"], ["S2", "S3"]], "bumped": []},
    {"kind": "split", "legs": [["T10", "T15"], ["S2", "S4"]], "bumped": []},
    {"kind": "split", "legs": [["T10", "T14"], ["S2", "S5"]], "bumped": ["blue"]},
    {"kind": "split", "legs": [["T10", "T13"], ["S2", "HOME"]], "bumped": []},
]


def tap_at(d, x, y):
    d.tap_at(x, y)  # at a human pace: the touch guard lets it through


def key_window(d, key):
    board = d.app.screen("board").ids.board
    return board.to_window(*board.key_px(key))


def tap_key(d, key):
    tap_at(d, *key_window(d, key))


def show(d, door, pawns=PAWNS, options=(), **kw):
    last = kw.pop("last", None)
    companion = kw.pop("companion_draws", False)
    undo, redo = kw.pop("undo", None), kw.pop("redo", None)
    door.show(BoardSnapshot(position(pawns, **kw), list(options), last=last, undo=undo,
                            redo=redo, companion_draws=companion))
    d.frames(3)


@pytest.fixture
def board(driver):
    door = ScriptDoor(BoardSnapshot(position(PAWNS)))
    d = driver(board_door=door)
    d.app.show("board")
    d.app.models["board"].refresh()
    d.frames(3)
    return d, door


def test_a_card_on_the_pad_is_the_card_drawn(board):
    d, door = board
    assert d.label("board", "message_label") == "Tap the card Ana drew"
    assert len(d.buttons(code="card:sorry")) == 1
    d.tap_code("card:5")
    assert door.calls == [("draw", "5")]


def test_the_companion_draws_with_one_button_and_shows_what_is_left(board):
    d, door = board
    show(d, door, companion_draws=True, draw_pile=45)
    assert d.buttons(code="card:5") == []
    assert d.label("board", "left_label").startswith("Left in the deck (45)\n1×5  2×4  3×4")
    d.tap_code("draw")
    (what, card), = door.calls  # the electronic deck's card, dealt from the game's deck
    assert what == "draw" and card in CARDS


def test_tap_a_pawn_then_its_destination(board):
    d, door = board
    show(d, door, card="7", options=SEVEN)
    view = d.app.screen("board").ids.board
    assert sorted(view.sources) == ["T10", "red:S2"]
    assert view.targets == []
    tap_key(d, "T10")
    assert view.selected == "T10" and view.targets == ["T13", "T14", "T15", "T16", "T17"]
    assert d.label("board", "message_label") == "Now tap where it goes"
    tap_key(d, "red:S2")  # another pawn: the choice moves to it
    assert view.selected == "red:S2"
    tap_key(d, "T10")
    assert door.calls == []
    tap_key(d, "T17")
    assert door.calls == [("move", [["T10", "T17"]])]


def test_a_pawn_with_one_destination_moves_at_its_tap(board):
    d, door = board
    show(d, door, card="1", options=ONE)
    view = d.app.screen("board").ids.board
    assert sorted(view.sources) == ["T10", "red:S2", "red:START"]
    tap_key(d, "red:START")  # its one move: made at this tap (issue 35)
    assert door.calls == [("move", [["START", "T4"]])]


def test_a_tap_no_option_allows_is_refused_in_one_sentence_with_its_why(board):
    d, door = board
    show(d, door, card="1", options=ONE)
    tap_key(d, "T30")  # Ben's pawn: nothing of Ana's card starts there
    assert d.label("board", "message_label") == (
        "No move of the 1 starts there: tap a highlighted pawn, or pick a move below.")
    show(d, door, card="7", options=SEVEN)
    tap_key(d, "T10")
    tap_key(d, "T40")  # not where T10 can go
    assert "cannot end there with the 7" in d.label("board", "message_label")
    assert door.calls == []
    d.tap_id("board", "why_button")
    assert d.label("board", "why_label").startswith("If any move exists")


def test_a_seven_split_by_two_taps_per_leg_in_either_order(board):
    d, door = board
    show(d, door, card="7", options=SEVEN)
    view = d.app.screen("board").ids.board
    tap_key(d, "red:S2")
    assert view.targets == ["red:HOME", "red:S3", "red:S4", "red:S5"]
    tap_key(d, "red:HOME")
    assert view.legs == [["red:S2", "red:HOME"]] and view.sources == ["T10"]
    assert d.label("board", "message_label") == "Now the other pawn of the split"
    tap_key(d, "T10")  # its one place left (T13): the split is made at this tap
    assert door.calls == [("move", [["T10", "T13"], ["S2", "HOME"]])]


def test_a_split_picked_from_the_list(board):
    d, door = board
    show(d, door, card="7", options=SEVEN)
    rows = [b.text for b in d.buttons() if b.code.startswith("opt")]
    assert rows[0] == "from square 2 of your long slide to square 2 of blue's short slide"
    assert ("from square 2 of your long slide to the square past your long slide, then from "
            "square 2 of 5 in your safety zone to square 5 of 5 in your safety zone, bumps "
            "blue") in rows
    scroll_to(d, "opt3")  # the rows hold their words in full: the list scrolls to it
    d.tap_code("opt3")
    assert door.calls == [("move", [["T10", "T14"], ["S2", "S5"]])]


def test_an_eleven_switch_by_tapping_the_opponent_and_a_decline(board):
    d, door = board
    switch = [{"kind": "switch", "legs": [["T10", "T14"]], "bumped": [],
               "pawns": {"red": ["START", "START", "T14", "S2"],
                         "blue": ["START", "T10", "T30", "HOME"]}},
              {"kind": "switch", "legs": [["T10", "T30"]], "bumped": [],
               "pawns": {"red": ["START", "START", "T30", "S2"],
                         "blue": ["START", "T10", "T14", "HOME"]}},
              {"kind": "decline", "legs": [], "bumped": []}]
    show(d, door, card="11", options=switch)
    tap_key(d, "T10")
    assert d.app.screen("board").ids.board.targets == ["T14", "T30"]
    tap_key(d, "T30")
    assert door.calls == [("move", [["T10", "T30"]])]
    d.tap_code("opt2")
    assert door.calls[-1] == ("move", [])


def test_a_sorry_lands_on_the_pawn_it_sends_home(board):
    d, door = board
    sorry = [{"kind": "sorry", "legs": [["START", "T14"]], "bumped": ["blue"],
              "pawns": {"red": ["START", "T10", "T14", "S2"],
                        "blue": ["START", "START", "T30", "HOME"]}},
             {"kind": "sorry", "legs": [["START", "T30"]], "bumped": ["blue"],
              "pawns": {"red": ["START", "T10", "T30", "S2"],
                        "blue": ["START", "START", "T14", "HOME"]}}]
    show(d, door, card="sorry", options=sorry)
    tap_key(d, "red:START")
    tap_key(d, "T30")
    assert door.calls == [("move", [["START", "T30"]])]


def test_one_option_is_one_tap_and_every_option_says_why(board):
    d, door = board
    show(d, door, card="5", options=[{"kind": "forward", "legs": [["T10", "T15"]],
                                      "bumped": [], "why": {"en": "Five forward.",
                                                            "fr": "Cinq en avant."}}])
    d.tap_code("why0")
    assert d.label("board", "why_label") == "Five forward."
    d.tap_code("move")
    assert door.calls == [("move", [["T10", "T15"]])]


def test_a_forfeit_and_a_draw_again_are_one_big_sentence(board):
    d, door = board
    show(d, door, turn="Ben", last={"what": "forfeit", "name": "Ana", "card": "5"})
    assert d.label("board", "message_label") == "Ana cannot use the 5: the turn passes."
    assert d.label("board", "turn_label") == "■ Ben's turn"
    d.tap_id("board", "why_button")
    assert d.label("board", "why_label").startswith("With no legal move")
    show(d, door, last={"what": "draw_again", "name": "Ana", "card": "2"})
    assert d.label("board", "message_label") == "Ana played a 2: draw again!"


def test_a_refusal_of_the_game_is_shown_and_nothing_else(board):
    d, door = board
    door.refuse = "that move is not listed for this card"
    show(d, door, card="1", options=ONE)
    tap_key(d, "T10")  # its one move, refused by the game
    assert d.label("board", "message_label") == "That move is not listed for this card."
    assert door.calls == []
    assert d.app.screen("board").ids.board.selected == ""  # the taps start again


def test_undo_and_redo_say_what_they_take_back(board):
    d, door = board
    show(d, door, undo={"type": "draw", "card": "5", "name": "Ana"},
         redo={"type": "move", "legs": [["T10", "T15"]], "name": "Ana"})
    assert d.label("board", "board_undo") == "Undo: Ana drew 5"
    assert d.label("board", "board_redo") == ("Redo: Ana: from square 2 of your long slide "
                                              "to the square before blue's short slide")
    d.tap_id("board", "board_undo")
    d.tap_id("board", "board_redo")
    assert door.calls == [("undo",), ("redo",)]


def test_correct_the_board_by_dragging_a_pawn(board):
    d, door = board
    d.tap_id("board", "correct_button")
    assert d.app.models["board"].correcting
    x0, y0 = key_window(d, "T10")
    x1, y1 = key_window(d, "T12")
    touch = UnitTestTouch(x0, y0)
    touch.touch_down()
    d.frames(1)
    touch.touch_move((x0 + x1) / 2, y0)
    d.frames(1)
    assert d.app.screen("board").ids.board.drag_ghost is not None
    touch.touch_move(x1, y1)
    touch.touch_up()
    d.frames(2)
    assert door.calls == [("place", "red", "T10", "T12")]
    d.tap_id("board", "correct_button")
    assert not d.app.models["board"].correcting


def drag(d, frm, to):
    (x0, y0), (x1, y1) = key_window(d, frm), key_window(d, to)
    touch = UnitTestTouch(x0, y0)
    touch.touch_down()
    d.frames(1)
    touch.touch_move(x1, y1)
    touch.touch_up()
    d.frames(2)


def test_correcting_a_tap_only_picks_a_pawn_and_a_drag_moves_any_pawn(board):
    """A plain tap (even a jittery one) never moves a pawn: it marks it and says how; only a
    drag past about one square moves it, START pawns included."""
    d, door = board
    d.tap_id("board", "correct_button")
    view = d.app.screen("board").ids.board
    for key in ("T10", "red:START"):
        x, y = key_window(d, key)
        touch = UnitTestTouch(x, y)
        touch.touch_down()
        touch.touch_move(x + view.cell * 0.4, y)  # a finger rolls a little
        touch.touch_up()
        d.frames(2)
        assert door.calls == []
        assert view.selected == key
        said = d.label("board", "message_label")
        assert said.startswith("Red pawn ") and "drag it" in said
    assert "in red's START" in said
    drag(d, "red:START", "T20")
    drag(d, "T10", "T12")
    assert door.calls == [("place", "red", "START", "T20"), ("place", "red", "T10", "T12")]
    assert view.selected == ""


def test_a_tap_between_two_close_destinations_is_never_a_guess(board):
    """Destinations closer than a fingertip (48 px): a tap covering both lists the options
    they may mean; a tap on one alone picks it, and never the neighbour a cell away."""
    d, door = board
    two = [{"kind": "forward", "legs": [["T10", "T16"]], "bumped": []},
           {"kind": "forward", "legs": [["T10", "T17"]], "bumped": []}]
    show(d, door, card="7", options=two)
    view = d.app.screen("board").ids.board
    assert view.cell < 48, "the squares are smaller than a finger at 800x480"
    tap_key(d, "T10")
    assert view.targets == ["T16", "T17"]
    (x0, y0), (x1, y1) = key_window(d, "T16"), key_window(d, "T17")
    tap_at(d, (x0 + x1) / 2, (y0 + y1) / 2)
    assert door.calls == []
    assert d.label("board", "message_label") == "These moves fit your taps: pick one"
    assert [b.code for b in d.buttons() if b.code.startswith("opt")] == ["opt0", "opt1"]
    tap_at(d, x1 + (x1 - x0) * 0.3, y1 + (y1 - y0) * 0.3)  # on T17, off its centre
    assert door.calls == [("move", [["T10", "T17"]])]


def test_a_touch_that_began_before_the_options_appeared_does_nothing(board):
    d, door = board
    show(d, door, card="5", options=[{"kind": "forward", "legs": [["T10", "T15"]],
                                      "bumped": []}])
    move = d.button(code="move")
    x, y = move.to_window(*move.center)
    d.clock.advance(1.0)
    early = UnitTestTouch(x, y)
    early.touch_down()  # the finger came down on what was there before...
    show(d, door, card="5", options=[{"kind": "forward", "legs": [["T10", "T15"]],
                                      "bumped": []}, {"kind": "forward",
                                      "legs": [["S2", "HOME"]], "bumped": []}])
    early.touch_up()  # ...and is lifted on what replaced it
    d.frames(2)
    assert door.calls == []
    d.tap_at(x, y, after=0.15)  # a second tap just after the change: ignored too
    assert door.calls == []
    tap_at(d, x, y)  # a finger that came down well after the change: the option under it
    assert door.calls == [("move", [["T10", "T15"]])]


def test_french(driver):
    door = ScriptDoor(BoardSnapshot(position(PAWNS, card="7"), SEVEN,
                                    last={"what": "forfeit", "name": "Ana", "card": "5"}))
    d = driver(board_door=door, language="fr")
    d.app.show("board")
    d.app.models["board"].refresh()
    d.frames(3)
    assert d.label("board", "turn_label") == "▲ À Ana de jouer"
    assert d.label("board", "message_label") == "Ana ne peut pas jouer le 5 : le tour passe."
    rows = [b.text for b in d.buttons() if b.code.startswith("opt")]
    assert rows[0] == ("de la case 2 de votre grande glissade à la case 2 de la petite "
                       "glissade côté bleu")


def test_the_win_shows_the_winner_and_a_new_game(board):
    d, door = board
    won = {"red": ["HOME"] * 4, "blue": ["START", "T14", "T30", "HOME"]}
    show(d, door, won, turn=None, winner="Ana", last={"what": "won", "name": "Ana"})
    assert d.label("board", "turn_label") == "Ana wins!"
    assert d.label("board", "message_label") == "Ana wins!"
    d.tap_code("new_game")
    assert d.screen == "start"


def test_the_language_changes_live(board):
    d, door = board
    show(d, door, card="7", options=SEVEN)
    d.app.set_language("fr")
    d.frames(3)
    assert d.label("board", "turn_label") == "▲ À Ana de jouer"
    assert [b.text for b in d.buttons() if b.code == "opt0"] == [
        "de la case 2 de votre grande glissade à la case 2 de la petite glissade côté bleu"]


def test_a_move_says_what_it_did(board):
    d, door = board
    show(d, door, turn="Ben", last={"what": "moved", "name": "Ana", "kind": "forward",
                                    "legs": [["T10", "T14"]], "bumped": ["blue"]})
    assert d.label("board", "message_label") == ("Ana: from square 2 of your long slide to "
                                                 "the square past your long slide, bumps blue")


def test_adult_variation_no_playable_card_then_the_card_discarded(board):
    d, door = board
    show(d, door, settings={"adult": True})
    d.tap_code("no_play")
    assert d.label("board", "message_label") == "Tap the card Ana discards"
    assert d.buttons(code="no_play") == []
    d.tap_code("card:12")
    assert door.calls == [("no_play", "12")]
    d.tap_code("card:5")  # after it, the pad is the card played again
    assert door.calls[-1] == ("draw", "5")


def test_play_on_the_first_home_wins_and_the_others_go_on(board):
    d, door = board
    pawns = {"red": ["HOME"] * 4, "blue": ["START", "T14", "T30", "HOME"]}
    show(d, door, pawns, turn="Ben", winner="Ana", last={"what": "won", "name": "Ana"})
    assert d.label("board", "message_label") == "Ana wins!"
    assert d.label("board", "turn_label") == "■ Ben's turn"
    d.tap_code("card:5")
    assert door.calls == [("draw", "5")]


def test_the_option_under_the_finger_shows_its_squares_on_the_board(board):
    d, door = board
    show(d, door, card="7", options=SEVEN)
    view = d.app.screen("board").ids.board
    row = d.button(code="opt1")
    d.clock.advance(1.0)
    finger = UnitTestTouch(*row.to_window(*row.center))
    finger.touch_down()  # pressed, not yet lifted: both legs' squares are shown (once the
    # list has seen the finger is not scrolling it)
    d.wait_for(lambda: view.preview, "the pressed option shown on the board")
    assert view.preview == [["T10", "T16"], ["red:S2", "red:S3"]]
    assert len(view._preview.children) > 0  # drawn on top of the pawns
    finger.touch_up()
    d.frames(2)
    assert door.calls == [("move", [["T10", "T16"], ["S2", "S3"]])]
    # the button lets go of its "down" state min_state_time (35 ms) after it came down
    d.wait_for(lambda: view.preview == [], "the squares cleared once the finger is up")


def test_the_move_button_and_a_mouse_pointer_show_the_option_too(board):
    from kivy.core.window import Window

    d, door = board
    show(d, door, card="5", options=[{"kind": "forward", "legs": [["T10", "T15"]],
                                      "bumped": []}])
    view = d.app.screen("board").ids.board
    move = d.button(code="move")
    Window.mouse_pos = move.to_window(*move.center)  # a desktop's pointer over "Move"
    assert view.preview == [["T10", "T15"]]
    Window.mouse_pos = (1, 1)
    assert view.preview == []
    d.clock.advance(1.0)
    finger = UnitTestTouch(*move.to_window(*move.center))
    finger.touch_down()
    assert view.preview == [["T10", "T15"]]
    finger.touch_up()
    assert door.calls == [("move", [["T10", "T15"]])]


def test_a_second_tap_on_draw_never_makes_the_move_that_appeared_under_it(board):
    d, door = board
    show(d, door, companion_draws=True, draw_pile=45)
    draw = d.button(code="draw")
    x, y = draw.to_window(*draw.center)
    d.tap_at(x, y)
    assert [what for what, _card in door.calls] == ["draw"]
    dealt = list(door.calls)
    five = [{"kind": "forward", "legs": [["T10", "T15"]], "bumped": []}]
    show(d, door, card="5", companion_draws=True, options=five)  # drawn: one move, shown
    under = [b for b in d.buttons() if b.collide_point(*b.to_widget(x, y))]
    assert [b.code for b in under] in (["move"], ["opt0"])  # a button now under the finger
    d.tap_at(x, y, after=0.15)  # the double tap's second touch: it aimed at Draw
    assert door.calls == dealt
    d.tap_at(x, y)  # a tap well after the change is meant for what is there
    assert door.calls[-1] == ("move", [["T10", "T15"]])
