"""RULES.md, rule by rule: each test plays the situation and asserts the resulting state."""

from __future__ import annotations

import pytest
from engine_helpers import (
    close,
    end_play2,
    new_game,
    play,
    press,
    progress,
    redo,
    tiebreak,
    undo,
)

from companion.errors import (
    BadEvent,
    BadSetup,
    BadTarget,
    CardRefused,
    GameOver,
    IllegalEvent,
    NotYourTurn,
)
from companion.game import ResultKind
from games.revenge.rules import Card, Play
from games.revenge.rules.engine import MOVEMENTS, Happening
from games.revenge.rules.state import DECK_SIZE, Awaiting


def whats(result) -> list[Happening]:
    """What happened, without the card movements (test_simulate follows those)."""
    return [o.what for o in result.outcomes if o.what not in MOVEMENTS]


# --- Setup ---

def test_setup_deals_five_each_and_first_player_starts():
    g = new_game("Ana", "Ben", "Cy", first="Ben")
    s = g.state
    assert s.hands == (5, 5, 5)
    assert s.draw_pile == DECK_SIZE - 15
    assert s.turn_name == "Ben"
    assert [c.value for c in s.setup.colors] == ["red", "blue", "yellow"]
    assert s.round == 1 and s.total == 0 and s.goal == 4


@pytest.mark.parametrize("players, message", [
    (["Ana"], "2 to 4 players, not 1"),
    (["A", "B", "C", "D", "E"], "2 to 4 players, not 5"),
    (["Ana", "ana"], "both called"),
    (["Ana", " "], "needs a name"),
])
def test_setup_refuses_impossible_tables(players, message):
    with pytest.raises(BadSetup, match=message):
        new_game(*players)


@pytest.mark.parametrize("options, message", [
    ({"first": "Zed"}, "not one of the players"),
    ({"pawns": 0}, "pawns must be"),
    ({"pawns": 5}, "pawns must be"),
    ({"variant": "short"}, "variant must be"),
    ({"colors": ["red", "red"]}, "colors must be"),
    ({"colors": ["red", "pink"]}, "colors must be"),
])
def test_setup_refuses_bad_options(options, message):
    with pytest.raises(BadSetup, match=message):
        new_game("Ana", "Ben", **options)


# --- R1, R2 ---

def test_r1_one_card_then_the_turn_passes():
    g = new_game()
    play(g, "3")
    assert g.state.turn_name == "Ben"
    play(g, "4")
    assert g.state.turn_name == "Cy"
    play(g, "0")
    assert g.state.turn_name == "Ana"


def test_r1_a_card_for_the_wrong_player_is_refused_and_changes_nothing():
    g = new_game()
    before = g.state
    with pytest.raises(NotYourTurn, match="it is Ana's turn, not Ben's"):
        g.push(Play(Card.parse("3"), player="Ben"))
    assert g.state is before


def test_r2_numbers_add_to_the_total():
    g = new_game()
    play(g, "3", "10", "0", "7")
    assert g.state.total == 20


def test_unknown_card_is_refused():
    g = new_game()
    with pytest.raises(BadEvent, match="there is no card '11'"):
        g.push(Play(Card.parse("11")))
    with pytest.raises(BadEvent, match="there is no card 'slide:22'"):
        g.push(Play(Card.parse("slide:22")))


# --- R3 ---

def test_r3_slide_sets_the_total_up_or_down():
    g = new_game()
    play(g, "10", "10")
    play(g, "slide:15")
    assert g.state.total == 15
    play(g, "slide:0")
    assert g.state.total == 0
    play(g, "slide:10")
    assert g.state.total == 10


# --- R4 ---

def test_r4_exactly_21_opens_the_steal_window_for_the_player_who_made_it():
    g = new_game()
    r = play(g, "10", "10", "1")
    s = g.state
    assert Happening.REACHED_21 in whats(r)
    assert s.awaiting is Awaiting.STEAL and s.window.scorer == 2
    assert s.total == 21 and s.turn_name == "Ana"  # the next round's starter
    close(g)
    assert progress(g) == {"Ana": 0, "Ben": 0, "Cy": 1}
    assert g.state.total == 0 and g.state.round == 2


def test_r4_slide_21_also_reaches_21():
    g = new_game()
    play(g, "slide:21")
    assert g.state.awaiting is Awaiting.STEAL and g.state.window.scorer == 0


def test_r4_over_21_busts_and_every_other_player_advances():
    g = new_game()
    r = play(g, "10", "10", "5")
    assert Happening.BUST in whats(r)
    assert progress(g) == {"Ana": 1, "Ben": 1, "Cy": 0}
    s = g.state
    assert s.total == 0 and s.round == 2 and s.window is None
    assert s.turn_name == "Ana"


# --- R5 ---

def test_r5_switch_reverses_the_order_of_play():
    g = new_game("Ana", "Ben", "Cy", "Dee")
    play(g, "2")  # Ana
    play(g, "switch")  # Ben reverses
    assert g.state.direction == -1 and g.state.turn_name == "Ana"
    play(g, "1")  # Ana
    assert g.state.turn_name == "Dee"
    play(g, "switch")  # Dee
    assert g.state.direction == 1 and g.state.turn_name == "Ana"


def test_r5_switch_with_two_players_changes_nothing_visible():
    g = new_game("Ana", "Ben")
    play(g, "switch")
    assert g.state.turn_name == "Ben"
    play(g, "3")
    assert g.state.turn_name == "Ana"


# --- R6 ---

def test_r6_take2_keeps_the_total_and_draws_two():
    g = new_game("Ana", "Ben")
    play(g, "5", "take2")
    s = g.state
    assert s.total == 5
    assert s.hands == (5, 6)  # Ben: 5 - 1 + 2
    assert s.draw_pile == DECK_SIZE - 10 - 1 - 2
    assert s.turn_name == "Ana"


def test_r6_take2_takes_none_when_the_hand_would_exceed_seven():
    g = new_game("Ana", "Ben")
    play(g, "take2", "0", "take2", "0")  # Ana: 5 -> 6 -> 7 after two Take 2
    assert g.state.hands[0] == 7
    r = play(g, "take2")  # 7 - 1 + 2 = 8 > 7: none
    assert Happening.TAKE2_SKIPPED in whats(r)
    assert g.state.hands[0] == 6


# --- R7 ---

def test_r7_play2_the_same_player_plays_two_number_cards():
    g = new_game()
    play(g, "play2")
    s = g.state
    assert s.awaiting is Awaiting.PLAY2 and s.owed == 2 and s.turn_name == "Ana"
    play(g, "3")
    assert g.state.owed == 1 and g.state.turn_name == "Ana"
    play(g, "4")
    s = g.state
    assert s.owed == 0 and s.awaiting is None and s.turn_name == "Ben" and s.total == 7
    assert s.hands[0] == 5  # drew back up after the whole turn


@pytest.mark.parametrize("code", ["slide:10", "switch", "take2", "play2", "sorry"])
def test_r7_non_number_cards_are_refused_while_play2_is_owed(code):
    g = new_game()
    play(g, "play2")
    before = g.state
    with pytest.raises(CardRefused, match="owes 2 number cards for Play 2"):
        g.push(Play(Card.parse(code)))
    assert g.state is before


def test_r7_when_the_first_card_ends_the_round_the_rest_is_dropped():
    g = new_game()
    play(g, "10", "10", "play2")  # Cy owes two at total 20
    play(g, "1")
    s = g.state
    assert s.owed == 0 and s.awaiting is Awaiting.STEAL and s.turn_name == "Ana"


def test_r7_the_scorekeeper_may_end_an_owed_play2_early():
    g = new_game()
    play(g, "play2", "5")
    end_play2(g)
    assert g.state.owed == 0 and g.state.turn_name == "Ben"
    with pytest.raises(IllegalEvent, match="no Play 2 is owed"):
        end_play2(g)


# --- R8 ---

def test_r8_next_round_starts_after_the_last_player_in_the_current_direction():
    g = new_game("Ana", "Ben", "Cy", "Dee")
    play(g, "switch")  # Ana reverses: Dee next
    play(g, "10", "10", "5")  # Dee, Cy, Ben busts
    s = g.state
    assert s.round == 2 and s.total == 0
    assert s.turn_name == "Ana"  # after Ben, going backwards
    assert s.hands == (5, 5, 5, 5)


# --- R9 ---

def reach_21_by_cy(g):
    play(g, "10", "10", "1")
    assert g.state.window.scorer == 2


def test_r9_the_first_call_opens_a_block_window_for_the_scorer():
    g = new_game()
    reach_21_by_cy(g)
    r = press(g, "Ben", 10.0)
    s = g.state
    assert Happening.STEAL_CALLED in whats(r)
    assert s.awaiting is Awaiting.BLOCK and s.window.caller == 1 and s.window.victim == 2
    close(g)
    assert progress(g) == {"Ana": 0, "Ben": 1, "Cy": 0}


def test_r9_calls_from_the_scorer_are_ignored():
    g = new_game()
    reach_21_by_cy(g)
    before = g.state
    r = press(g, "Cy", 1.0)
    assert r.kind is ResultKind.IGNORED and g.state is before


def test_r9_the_scorer_blocks_with_dont_be_sorry_and_keeps_the_round():
    g = new_game()
    reach_21_by_cy(g)
    press(g, "Ana", 3.0)
    r = press(g, "Cy", 4.0)
    assert Happening.STEAL_BLOCKED in whats(r)
    assert progress(g) == {"Ana": 0, "Ben": 0, "Cy": 1}
    assert g.state.window is None and g.state.round == 2
    # after a block the matter is closed: nothing can answer it
    assert press(g, "Ben", 5.0).kind is ResultKind.IGNORED


def test_r9_an_earlier_edge_replaces_the_caller_until_the_victim_blocks():
    g = new_game("Ana", "Ben", "Cy", "Dee")
    play(g, "10", "10", "1")  # Cy reaches 21
    press(g, "Dee", 5.020)
    r = press(g, "Ana", 5.005)  # delivered later, pressed earlier
    assert whats(r)[0] is Happening.CALLER_REPLACED
    assert r.outcomes[0].value == pytest.approx(0.015)
    assert g.state.window.caller == 0
    assert press(g, "Ben", 5.010).kind is ResultKind.IGNORED  # later than Ana
    # Dee's steal card went back: only Ana's counts
    assert g.state.hands[3] == 5 and g.state.pile == 4
    close(g)
    assert progress(g)["Ana"] == 1 and progress(g)["Dee"] == 0


def test_r9_no_call_means_the_scorer_advances():
    g = new_game()
    reach_21_by_cy(g)
    close(g)
    assert progress(g)["Cy"] == 1


def test_r9_the_next_card_closes_the_window():
    g = new_game()
    reach_21_by_cy(g)
    play(g, "4")  # Ana starts the next round
    s = g.state
    assert progress(g)["Cy"] == 1 and s.total == 4 and s.round == 2 and s.window is None


def test_a_press_outside_a_window_changes_nothing():
    g = new_game()
    before = g.state
    r = press(g, "Ben", 1.0)
    assert r.kind is ResultKind.IGNORED and whats(r) == [Happening.IGNORED]
    assert g.state is before
    with pytest.raises(IllegalEvent, match="no SORRY! window is open"):
        close(g)


def test_sorry_family_out_of_turn_draws_back_to_five_at_once():
    g = new_game()
    reach_21_by_cy(g)
    draw = g.state.draw_pile
    press(g, "Ana", 1.0)
    assert g.state.hands[0] == 5 and g.state.draw_pile == draw - 1
    press(g, "Cy", 2.0)
    assert g.state.hands[2] == 5 and g.state.draw_pile == draw - 2


# --- R10 ---

def give_ben_a_pawn(g):
    play(g, "10", "10", "1")  # Cy 21: turn Ana
    press(g, "Ben", 1.0)
    close(g)  # Ben stole: Ben 1
    assert progress(g)["Ben"] == 1 and g.state.turn_name == "Ana"


def test_r10_flip_back_opens_a_block_window_then_the_target_moves_back():
    g = new_game()
    give_ben_a_pawn(g)
    play(g, "7", "3")  # Ana, Ben
    r = play(g, "sorry>Ben")  # Cy
    s = g.state
    assert Happening.FLIP_PLAYED in whats(r)
    assert s.awaiting is Awaiting.BLOCK and s.window.victim == 1
    assert s.turn_name == "Ana"  # after Cy, who played SORRY!
    close(g)
    assert progress(g)["Ben"] == 0
    assert g.state.total == 0 and g.state.round == 3


def test_r10_the_target_blocks_and_nothing_happens_to_them():
    g = new_game()
    give_ben_a_pawn(g)
    play(g, "sorry>Ben")  # Ana
    r = press(g, "Ben", 2.0)
    assert Happening.FLIP_BLOCKED in whats(r)
    assert progress(g)["Ben"] == 1 and g.state.window is None
    assert g.state.turn_name == "Ben" and g.state.round == 3


def test_r10_refusals_name_what_to_do():
    g = new_game()
    give_ben_a_pawn(g)
    with pytest.raises(BadTarget, match="name the player to flip back: Ben"):
        g.push(Play(Card.parse("sorry")))
    with pytest.raises(BadTarget, match="Cy has no pawn card to flip back; name Ben"):
        g.push(Play(Card.parse("sorry"), target="Cy"))
    with pytest.raises(BadTarget, match="own pawn"):
        g.push(Play(Card.parse("sorry"), target="Ana"))
    with pytest.raises(BadEvent, match="no player is called 'Zed'"):
        g.push(Play(Card.parse("sorry"), target="Zed"))


def test_r10_with_no_advanced_opponent_sorry_is_played_with_no_target():
    g = new_game()
    play(g, "7")
    with pytest.raises(BadTarget, match="play it with no target"):
        g.push(Play(Card.parse("sorry"), target="Cy"))
    r = play(g, "sorry")
    s = g.state
    assert Happening.FLIP_PLAYED in whats(r) and s.window is None
    assert s.total == 0 and s.round == 2 and s.turn_name == "Cy"


# --- R11 ---

def bust_by(g, name):
    """Play until `name` busts: everyone plays 10 in turn from a fresh round."""
    while g.state.turn_name != name:
        play(g, "0")
    play(g, "slide:20")
    while g.state.turn_name != name:
        play(g, "0")
    play(g, "5")


def test_r11_standard_game_reaching_all_pawns_home_wins():
    g = new_game("Ana", "Ben", pawns=2)
    bust_by(g, "Ben")
    assert progress(g) == {"Ana": 1, "Ben": 0}
    bust_by(g, "Ben")
    s = g.state
    assert s.winner == 0 and s.turn_name is None
    with pytest.raises(GameOver, match="Ana has won"):
        g.push(Play(Card.parse("3")))


def test_r11_longer_game_flips_pawns_back_to_start_and_wins_at_2p():
    g = new_game("Ana", "Ben", pawns=2, variant="long")
    homes = []
    for _ in range(4):
        bust_by(g, "Ben")
        homes.append(g.state.players[0].home)
    assert homes == [1, 2, 1, 0]
    assert g.state.progress[0] == 4 and g.state.winner == 0


def test_r11_moving_back_never_goes_below_zero():
    g = new_game()
    give_ben_a_pawn(g)
    play(g, "sorry>Ben")
    close(g)
    assert progress(g)["Ben"] == 0


# --- R12, R13 ---

def tie_ana_and_ben(g):
    bust_by(g, "Cy")  # pawns=1: Ana and Ben reach the goal together
    assert g.state.awaiting is Awaiting.TIEBREAK
    assert [p for p in g.state.to_json()["tied"]] == ["Ana", "Ben"]


def test_r12_a_bust_can_bring_several_to_the_goal_and_they_play_a_tiebreaker():
    g = new_game(pawns=1)
    tie_ana_and_ben(g)
    assert g.state.winner is None and g.state.turn_name is None
    with pytest.raises(IllegalEvent, match="tiebreaker"):
        g.push(Play(Card.parse("3")))


def test_r13_highest_total_not_over_21_wins():
    g = new_game(pawns=1)
    tie_ana_and_ben(g)
    tiebreak(g, "Ana", 22)
    r = tiebreak(g, "Ben", 17)
    assert Happening.WON in whats(r) and g.state.winner == 1


def test_r13_equal_best_totals_play_again_among_those_still_tied():
    g = new_game("Ana", "Ben", "Cy", "Dee", pawns=1)
    bust_by(g, "Dee")
    tiebreak(g, "Ana", 20)
    tiebreak(g, "Ben", 20)
    tiebreak(g, "Cy", 18)
    s = g.state
    assert s.tiebreak.tied == (0, 1) and s.tiebreak.totals == (None, None)
    with pytest.raises(IllegalEvent, match="Cy is not in the tiebreaker"):
        tiebreak(g, "Cy", 21)
    tiebreak(g, "Ana", 19)
    with pytest.raises(IllegalEvent, match="already in"):
        tiebreak(g, "Ana", 20)
    tiebreak(g, "Ben", 21)
    assert g.state.winner == 1


def test_r13_everyone_over_plays_again():
    g = new_game(pawns=1)
    tie_ana_and_ben(g)
    tiebreak(g, "Ana", 25)
    tiebreak(g, "Ben", 23)
    assert g.state.tiebreak.tied == (0, 1) and g.state.winner is None


# --- hands and the draw pile ---

def test_drawing_reshuffles_the_old_piles_only_when_a_draw_needs_more():
    g = new_game("Ana", "Ben")
    for _ in range(DECK_SIZE - 10):
        play(g, "0")  # each player draws back to 5 after each card
    s = g.state
    assert s.draw_pile == 0 and s.discards == 0 and s.pile == DECK_SIZE - 10
    play(g, "slide:20", "5")  # a bust: the pile is set aside, nothing to draw yet
    assert g.state.discards == DECK_SIZE - 8 and g.state.reshuffles == 0
    r = play(g, "3")  # the next draw needs a card: the old piles are shuffled in
    assert Happening.RESHUFFLED in whats(r)
    s = g.state
    assert s.reshuffles == 1 and s.discards == 0 and 0 < s.draw_pile < DECK_SIZE - 8
    assert s.pile == 1 and s.card_count() == DECK_SIZE


def test_a_card_that_cannot_exist_by_count_is_refused_and_cards_are_conserved():
    g = new_game("Ana", "Ben", "Cy", "Dee")
    with pytest.raises(IllegalEvent, match="has no card left by the count"):
        for _ in range(DECK_SIZE):
            play(g, "switch")  # Ana and Dee alternate until Ana's count is empty
            assert g.state.card_count() == DECK_SIZE and min(g.state.hands) >= 0
    s = g.state
    assert s.hands == (0, 5, 5, 0) and s.draw_pile == 0 and s.pile == DECK_SIZE - 10


# --- undo and redo ---

def test_undo_and_redo_are_exact_and_undo_reopens_a_window():
    g = new_game()
    reach_21_by_cy(g)
    window_state = g.state
    press(g, "Ana", 1.0)
    close(g)
    undo(g)
    undo(g)
    assert g.state is window_state and g.state.awaiting is Awaiting.STEAL
    redo(g)
    redo(g)
    assert progress(g)["Ana"] == 1
    undo(g)
    play(g, "3")  # a new event drops the redo stack
    with pytest.raises(IllegalEvent, match="nothing to redo"):
        redo(g)


def test_undo_with_nothing_done_is_refused():
    g = new_game()
    with pytest.raises(IllegalEvent, match="nothing to undo"):
        undo(g)


def test_ignored_presses_are_not_steps_of_undo():
    g = new_game()
    play(g, "4")
    press(g, "Cy", 1.0)  # no window: ignored
    undo(g)
    assert g.state.total == 0


# --- decisions where the spec is silent (README) ---

def test_a_callers_own_earlier_edge_refines_their_call_and_undoes_with_it():
    g = new_game()
    reach_21_by_cy(g)
    steal_window = g.state
    press(g, "Ben", 2.0)
    r = press(g, "Ben", 1.0)  # Ben's own earlier edge, delivered late
    assert r.kind is ResultKind.AMENDED and g.state.window.caller_t == 1.0
    assert press(g, "Ana", 1.5).kind is ResultKind.IGNORED  # later than Ben's first edge
    undo(g)  # one undo takes back the whole call
    assert g.state is steal_window


def test_a_touch_without_t_never_displaces_a_timed_call():
    g = new_game()
    reach_21_by_cy(g)
    press(g, "Ben", 5.0)
    assert press(g, "Ana").kind is ResultKind.IGNORED
    assert g.state.window.caller == 1


def test_a_card_is_refused_when_closing_the_window_would_end_the_game():
    g = new_game(pawns=1)
    reach_21_by_cy(g)  # closing gives Cy the last pawn: the game is decided
    before = g.state
    with pytest.raises(IllegalEvent, match="decides the game; close it before"):
        g.push(Play(Card.parse("4")))
    assert g.state is before
    close(g)
    assert g.state.winner == 2


def test_in_a_tiebreak_nobody_has_a_turn_and_presses_change_nothing():
    g = new_game(pawns=1)
    tie_ana_and_ben(g)
    assert g.state.turn_name is None
    assert press(g, "Cy", 1.0).kind is ResultKind.IGNORED
    with pytest.raises(IllegalEvent, match="no SORRY! window is open"):
        close(g)
