"""A turn, the deck, the win, the settings and corrections (BOARD.md "A turn", "Deck",
"Variation for adults") through `RULES.apply`, as the screen and transcripts drive them."""

from __future__ import annotations

import random

import pytest
from board_helpers import at, draw, game, move, push

from companion.errors import BadSetup, CompanionError, GameOver
from companion.games import get
from companion.rules import Rules
from games.board.rules import RULES, draw_card, explain, options
from games.board.rules.cards import CARDS
from games.board.rules.errors import IllegalMove, IllegalPlace
from games.board.rules.events import Draw, Move, NoPlay, Place
from games.board.rules.outcomes import DrawAgain, Finished, Forfeited, Reshuffled


def test_the_registry_finds_the_board_rules():
    assert get("board") is RULES and isinstance(RULES, Rules)


def test_setup_seats_clockwise_by_colour_and_first_plays_first():
    s = game(players=3, colors=["green", "red", "blue"], first="Ana")
    assert s.position.colors == ("red", "blue", "green")
    assert s.names == ("Ben", "Cy", "Ana") and s.names[s.turn] == "Ana"
    s = push(s, draw("3"))  # forfeited: every pawn in START
    assert s.names[s.turn] == "Ben"  # clockwise after green comes red


@pytest.mark.parametrize("obj, code", [
    ({"players": ["A"]}, "player_count"),
    ({"players": ["A", "a"]}, "same_name"),
    ({"players": ["A", "B"], "colors": ["red", "red"]}, "bad_colors"),
    ({"players": ["A", "B"], "edition": "1999"}, "bad_edition"),
    ({"players": ["A", "B"], "settings": {"start_mvoe": "circle"}}, "unknown_setting"),
    ({"players": ["A", "B"], "edition": "2016", "settings": {"adult": True}},
     "adult_not_classic"),
    ({"players": ["A", "B"], "settings": {"deck": "1940"}}, "bad_deck"),
])
def test_bad_setups_say_what_is_wrong(obj, code):
    with pytest.raises(BadSetup) as err:
        RULES.parse_setup({"type": "setup", "game": "board", **obj})
    assert err.value.code == code and str(err.value)


def test_deck_counts_both_decks_and_the_draw_pile():
    s = game()
    assert s.remaining()["1"] == 5 and s.draw_pile == 45
    assert sum(game(settings={"deck": "1939"}).remaining().values()) == 44
    s = push(s, draw("1"))
    assert s.remaining()["1"] == 4 and s.draw_pile == 44 and s.card == "1"
    assert RULES.state_json(s)["remaining"]["1"] == 4


def test_a_card_that_is_all_out_is_refused():
    s = game().with_(unseen=(0,) * len(CARDS[:-1]) + (4,))
    s = s.with_(discards=(5, 4, 4, 4, 4, 4, 4, 4, 4, 4, 0))
    with pytest.raises(IllegalMove) as err:
        RULES.apply(s, Draw("3"))
    assert err.value.code == "card_gone" and "toutes les cartes 3" in explain(err.value, "fr")


def test_empty_pile_shuffles_the_discards_in():
    s = game().with_(unseen=(0,) * len(CARDS), discards=(5, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4))
    tr = RULES.apply(s, Draw("3"))
    assert Reshuffled(45) in tr.outcomes
    assert tr.state.draw_pile == 44 and sum(tr.state.discards) == 1  # the 3, forfeited


def test_no_option_forfeits_and_the_turn_passes():
    tr = RULES.apply(game(), Draw("3"))
    assert any(isinstance(o, Forfeited) for o in tr.outcomes)
    assert tr.state.turn == 1 and tr.state.card is None and tr.state.discards[2] == 1
    forfeit = next(o for o in tr.outcomes if isinstance(o, Forfeited))
    assert "forfeited" in explain(forfeit) and "perdu" in explain(forfeit, "fr")


def test_classic_two_draws_again_after_a_move_and_after_a_forfeit():
    s = push(game(), draw("2"), move(("START", "T4")))
    assert s.turn == 0
    s = at(game(), red=["S5", "HOME", "HOME", "HOME"])
    tr = RULES.apply(s, Draw("2"))
    assert DrawAgain("red") in tr.outcomes and tr.state.turn == 0
    assert "draw again" in explain(next(o for o in tr.outcomes if isinstance(o, Forfeited)))


def test_2016_has_no_draw_again():
    assert push(game("2016"), draw("2"), move(("START", "T5"))).turn == 1


def test_never_draw_again_after_the_winning_move_and_the_game_ends():
    s = at(game(), red=["S4", "HOME", "HOME", "HOME"])
    tr = RULES.apply(push(s, draw("2")), Move((("S4", "HOME"),)))
    assert Finished("red", 1) in tr.outcomes and not any(
        isinstance(o, DrawAgain) for o in tr.outcomes)
    assert tr.state.over and tr.state.winner == "Ana"
    assert RULES.state_json(tr.state)["winner"] == "Ana" and RULES.summary(tr.state).over
    with pytest.raises(GameOver) as err:
        RULES.apply(tr.state, Draw("1"))
    assert "Ana" in explain(err.value, "fr")


def test_play_on_ranks_the_others():
    s = at(game(players=3, settings={"play_on": True}), red=["S4", "HOME", "HOME", "HOME"])
    s = push(s, draw("2"), move(("S4", "HOME")))
    assert not s.over and s.winner == "Ana" and s.turn == 1
    s = at(s, blue=["S5", "HOME", "HOME", "HOME"])
    s = push(s, draw("1"), move(("S5", "HOME")))
    assert s.over and RULES.state_json(s)["ranking"] == ["Ana", "Ben", "Cy"]


def test_a_move_must_name_an_option_and_a_refusal_says_why():
    s = push(at(game(), red=["S3", "T10"]), draw("5"))
    with pytest.raises(IllegalMove) as err:
        RULES.apply(s, Move((("S3", "HOME"),)))
    assert err.value.code == "pawn_blocked" and "exact count" in str(err.value)
    assert "compte exact" in explain(err.value, "fr")
    with pytest.raises(IllegalMove) as err:
        RULES.apply(s, Move((("T11", "T16"),)))
    assert err.value.code == "no_pawn_there"
    with pytest.raises(IllegalMove) as err:
        RULES.apply(s, Move((("T10", "T16"),)))
    assert err.value.code == "no_such_move" and "T10 to T15" in str(err.value)
    with pytest.raises(IllegalMove) as err:
        RULES.apply(s, Move(()))
    assert err.value.code == "decline_forward"


def test_declining_an_eleven_keeps_the_board_and_passes_the_turn():
    s = push(at(game(), red=["T58"], blue=["T30"]), draw("11"))
    assert [o.kind for o in options(s)] == ["switch", "decline"]
    after = push(s, move())
    assert after.position == s.position and after.turn == 1


def test_options_of_the_state_and_legal_events_agree():
    s = push(game(), draw("1"))
    assert [o.legs for o in options(s)] == [e.legs for e in RULES.options(s)]
    assert {e.card for e in RULES.options(game())} == set(CARDS)


def test_faster_start_puts_one_pawn_on_each_x():
    s = game(players=3, settings={"faster_start": True})
    assert RULES.state_json(s)["players"][1]["pawns"] == ["START", "START", "START", "T19"]


def test_adult_variation_plays_from_hands_and_no_play_discards():
    s = game(settings={"adult": True})
    assert s.draw_pile == 45 - 10
    with pytest.raises(IllegalMove) as err:
        RULES.apply(s, Draw("3"))  # no move: it stays in the hand
    assert err.value.code == "unplayable"
    with pytest.raises(IllegalMove) as err:
        RULES.apply(s, NoPlay("1"))
    assert err.value.code == "playable"
    s2 = push(s, {"type": "no_play", "discard": "3"})
    assert s2.turn == 1 and s2.draw_pile == 34 and sum(s2.discards) == 1
    s3 = push(s, draw("2"), move(("START", "T4")))  # a 2: draw first, then play again
    assert s3.turn == 0 and s3.draw_pile == 34
    assert NoPlay("3") in RULES.options(s) and Draw("1") in RULES.options(s)
    with pytest.raises(IllegalMove):
        RULES.apply(game(), NoPlay("3"))


def test_adult_refill_reshuffles_when_the_pile_is_empty():
    s = game(settings={"adult": True})
    s = s.with_(unseen=(2, 2, 2, 0, 0, 0, 0, 2, 0, 2, 0), discards=(3, 2, 2, 4, 4, 4, 4, 2, 4,
                                                                    2, 4))
    assert s.draw_pile == 0
    tr = RULES.apply(s, NoPlay("3"))
    assert any(isinstance(o, Reshuffled) for o in tr.outcomes)
    assert tr.state.draw_pile == 35  # 36 discards shuffled in, one drawn to refill the hand


def test_place_corrects_the_board_and_is_checked():
    s = push(game(), draw("1"))
    s2 = push(s, {"type": "place", "color": "red", "from": "START", "to": "T10"})
    assert RULES.state_json(s2)["players"][0]["pawns"] == ["START", "START", "START", "T10"]
    assert s2.card == "1" and s2.turn == 0  # the card still waits, with new options
    assert ("T10", "T11") in [o.legs[0] for o in options(s2)]
    for event, code in [(Place("red", "T5", "T6"), "no_pawn_there"),
                        (Place("green", "START", "T6"), "color_not_seated"),
                        (Place("blue", "START", "T10"), "square_taken"),
                        (Place("red", "T10", "T10"), "same_square")]:
        with pytest.raises(IllegalPlace) as err:
            RULES.apply(s2, event)
        assert err.value.code == code and explain(err.value, "fr") != str(err.value)


def test_place_that_leaves_the_waiting_card_without_option_forfeits_it():
    s = push(at(game(), red=["S1", "HOME", "HOME", "HOME"]), draw("5"))
    assert [o.legs for o in options(s)] == [(("S1", "HOME"),)]
    tr = RULES.apply(s, Place("red", "S1", "S2"))
    assert tr.state.card is None and tr.state.turn == 1
    assert any(isinstance(o, Forfeited) for o in tr.outcomes)


def test_place_into_home_can_finish_the_game():
    s = at(game(), red=["S1", "HOME", "HOME", "HOME"])
    tr = RULES.apply(s, Place("red", "S1", "HOME"))
    assert tr.state.over and tr.state.winner == "Ana" and Finished("red", 1) in tr.outcomes


def test_every_refusal_is_a_companion_error_with_a_code():
    s = push(game(), draw("1"))
    for event in (Draw("2"), Move((("T1", "T2"),)), NoPlay("3"), Place("red", "HOME", "T1")):
        with pytest.raises(CompanionError) as err:
            RULES.apply(s, event)
        assert err.value.code and explain(err.value, "en")
    # the transcript's sentence names squares by their codes, the screen's by the table
    with pytest.raises(CompanionError) as err:
        RULES.apply(s, Move((("T1", "T2"),)))
    assert str(err.value) == "no red pawn stands on T1"
    assert explain(err.value, "en") == "no red pawn stands on the triangle of your short slide"
    assert explain(err.value, "fr") == ("aucun pion rouge n'est sur le triangle de votre petite "
                                        "glissade")


def test_draw_card_is_fair_and_follows_the_counts():
    s = game()
    rng = random.Random(7)
    seen = {draw_card(s, rng) for _ in range(400)}
    assert seen == set(CARDS)
    only_threes = s.with_(unseen=tuple(4 if c == "3" else 0 for c in CARDS))
    assert {draw_card(only_threes, rng) for _ in range(20)} == {"3"}
    assert draw_card(s) in CARDS  # SystemRandom by default
    with pytest.raises(IllegalMove):
        draw_card(push(s, draw("1")))
