"""The LED board during a board game: HOME pawns and whose turn, as PAWNLED/1 lines."""

from __future__ import annotations

from games.board.face.ledboard import board_game_state


def position(turn, winner=None):
    return {"game": "board", "edition": "classic", "turn": turn, "winner": winner,
            "players": [{"name": "Ana", "color": "green", "pawns": [], "home": 2},
                        {"name": "Ben", "color": "red", "pawns": [], "home": 0},
                        {"name": "Cy", "color": "yellow", "pawns": [], "home": 4}]}


def test_home_pawns_and_the_turn_in_seating_order():
    line = board_game_state(position("Ben"), brightness=80).line(seq=3)
    assert line.startswith("=STATE seq=3 players=3 turn=1 home=2,0,4 alert=none bri=80 col=g,r,y")


def test_the_winner_flashes_and_nobody_has_a_turn():
    state = board_game_state(position(None, winner="Cy"))
    assert state.turn is None and state.alert == "win" and state.home == (2, 0, 4)
