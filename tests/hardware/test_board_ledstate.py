"""The LED board during a board game: HOME pawns and whose turn, as PAWNLED/1 lines."""

from __future__ import annotations

from games.board.face.ledboard import board_game_state
from games.board.rules import RULES, Position


def state(turn, finished=()):
    """Ana (red) with 2 pawns HOME, Ben (blue) none, Cy (yellow) all 4, `turn` a seat."""
    setup = RULES.parse_setup({"type": "setup", "game": "board",
                               "players": ["Ana", "Ben", "Cy"]})
    position = Position.parse({"edition": "classic", "pawns": {
        "red": ["HOME", "HOME", "T4", "START"], "blue": ["START"] * 4,
        "yellow": ["HOME"] * 4}})
    return RULES.initial_state(setup).with_(position=position, turn=turn, finished=finished)


def test_home_pawns_and_the_turn_in_seating_order():
    line = board_game_state(state(1), brightness=80).line(seq=3)
    assert line.startswith("=STATE seq=3 players=3 turn=1 home=2,0,4 alert=none bri=80 col=r,b,y")


def test_the_winner_flashes_and_nobody_has_a_turn():
    leds = board_game_state(state(None, finished=(2,)))
    assert leds.turn is None and leds.alert == "win" and leds.home == (2, 0, 4)


def test_play_on_the_winner_flashes_while_the_others_go_on():
    leds = board_game_state(state(0, finished=(2,)))
    assert leds.turn is None and leds.alert == "win"
