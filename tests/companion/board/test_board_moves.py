"""The option generator against every rule of BOARD.md "Moving" and "The cards".

Geometry used below: red E=T2, X=T4; blue E=T17, X=T19. Slides (triangle -> end):
T1->T4, T9->T13 (red), T16->T19, T24->T28 (blue), T31->T34 (yellow).
"""

from __future__ import annotations

import pytest
from board_helpers import legs, only, opts, pos

from games.board.rules.explain import explain, forfeit_text
from games.board.rules.moves import blocked, candidates, generate, match

# --- Moving: steps, HOME by exact count, jumping, landing --------------------------------

def test_forward_from_entry_goes_into_the_safety_zone_and_home():
    assert (("T2", "S1"),) in legs(pos(red=["T2"]), "1")
    assert (("T0", "S3"),) in legs(pos(red=["T0"]), "5")
    assert (("S3", "HOME"),) in legs(pos(red=["S3"]), "3")
    assert (("T59", "T2"),) in legs(pos(red=["T59"]), "3")  # T1 passed over: no slide


@pytest.mark.parametrize("edition", ["classic", "2016"])
def test_question_one_overshooting_home_is_no_move(edition):
    """'I am in my safety zone and the card is more than I need: up and back?' No."""
    home = ["HOME"] * (3 if edition == "classic" else 2)
    p = pos(edition, red=["S3", *home])
    assert generate(p, "5", "red") == ()
    text = forfeit_text("red", "5", blocked(p, "5", "red"))
    assert "would pass HOME" in text and "exact count" in text
    assert "compte exact" in forfeit_text("red", "5", blocked(p, "5", "red"), "fr")


def test_question_one_with_a_seven_the_exact_count_plus_another_pawn_is_a_split():
    p = pos(red=["S3", "T10", "HOME", "HOME"])
    found = legs(p, "7")
    assert (("S3", "HOME"), ("T10", "T14")) in found or (("T10", "T14"), ("S3", "HOME")) in found
    assert not any(leg[0] == "S3" and len(leg_list) == 1 for leg_list in found for leg in leg_list)


def test_backward_passes_the_entry_and_never_enters_the_zone():
    assert legs(pos(red=["T3"]), "4") == [(("T3", "T59"),)]
    assert legs(pos(red=["S2"]), "4") == [(("S2", "T0"),)]


def test_pawns_in_the_way_are_jumped_and_counted():
    assert (("T10", "T13"),) in legs(pos(red=["T10"], blue=["T11", "T12"]), "3")


def test_landing_on_your_own_pawn_is_no_move():
    assert ("forward", (("T10", "T13"),)) not in opts(pos(red=["T10", "T13"]), "3")


def test_a_safety_square_is_each_colours_own():
    """Blue's S3 is not red's: red moves onto its own S3 and bumps nothing; red's own
    pawn on S3 blocks it."""
    o = only(pos(red=["S1", "HOME", "HOME", "HOME"], blue=["S3"]), "2")
    assert (o.legs, o.bumped) == ((("S1", "S3"),), ())
    assert "S3" in o.pawns["blue"]
    assert ("forward", (("S1", "S3"),)) not in opts(pos(red=["S1", "S3"]), "2")


def test_landing_on_an_opponent_bumps_it_to_its_start():
    o = only(pos(red=["T10", "HOME", "HOME", "HOME"], blue=["T13"]), "3")
    assert o.bumped == ("blue",)
    assert o.pawns["blue"] == ("START",) * 4


# --- Slides -----------------------------------------------------------------------------

def test_classic_slides_on_other_colours_and_sends_every_pawn_on_it_to_start():
    p = pos(red=["T19", "T27", "HOME", "HOME"], blue=["T26"])
    o = next(o for o in generate(p, "5", "red") if o.legs[0][0] == "T19")
    assert o.legs == (("T19", "T28"),) and o.text.startswith("T19 to T24, slides to T28")
    assert sorted(o.bumped) == ["blue", "red"]  # the mover's own pawn on the slide too
    assert o.pawns["red"] == ("START", "T28", "HOME", "HOME")


def test_classic_does_not_slide_on_your_own_colour():
    assert (("T6", "T9"),) in legs(pos(red=["T6"]), "3")


def test_2016_slides_only_on_your_own_colour():
    assert (("T6", "T13"),) in legs(pos("2016", red=["T6"]), "3")
    assert (("T19", "T24"),) in legs(pos("2016", red=["T19"]), "5")


def test_backward_landing_on_a_triangle_slides():
    assert legs(pos(red=["T20", "HOME", "HOME", "HOME"]), "4") == [(("T20", "T19"),)]


def test_g1_a_slide_never_carries_a_pawn_past_its_own_entry():
    o = only(pos("2016", red=["T58", "HOME", "HOME"], blue=["T3"]), "3")
    assert o.legs == (("T58", "T1"),) and o.bumped == () and o.moves[0].held
    assert "stays on the triangle" in o.why("en") and "reste sur le triangle" in o.why("fr")
    assert "G1" not in o.why("en") + o.label("en") + o.why("fr") + o.label("fr")
    # classic with the T1 slide printed blue: red slides on it, but G1 holds it too
    p = pos(red=["T58", "HOME", "HOME", "HOME"], settings={"slide_colors": {"T1": "blue"}})
    assert only(p, "3").legs == (("T58", "T1"),)
    # another colour's pawn on that slide does slide (its E is elsewhere)
    assert (("T58", "T4"),) in legs(pos(blue=["T58"]), "3", "blue")


def test_slide_colors_setting_changes_who_slides():
    p = pos(red=["T6"], settings={"slide_colors": {"T9": "green"}})
    assert (("T6", "T13"),) in legs(p, "3")


def test_a_move_that_leaves_the_board_unchanged_is_still_an_option():
    p = pos(red=["HOME"] * 4, blue=["T13", "HOME", "HOME", "HOME"])
    o = only(p, "4", "blue")
    assert o.legs == (("T13", "T13"),) and o.board == p.pawns


# --- Leaving START -----------------------------------------------------------------------

def test_classic_start_with_1_or_2_onto_x_and_a_2_goes_no_further():
    p = pos(red=[], blue=[])
    assert opts(p, "1") == [("start", (("START", "T4"),))]
    assert opts(p, "2") == [("start", (("START", "T4"),))]
    assert generate(p, "3", "red") == ()
    assert "1, a 2 or a Sorry!" in forfeit_text("red", "3", blocked(p, "3", "red"))


def test_classic_start_refused_onto_your_own_pawn_and_bumps_an_opponent_on_x():
    assert ("start", (("START", "T4"),)) not in opts(pos(red=["T4"]), "1")
    o = only(pos(red=[], blue=["T4"]), "1")
    assert o.kind == "start" and o.bumped == ("blue",)


def test_start_pawns_are_interchangeable():
    assert [k for k, _ in opts(pos(red=["T30"]), "1")].count("start") == 1


def test_2016_any_forward_card_starts_a_pawn_counting_x_as_the_first_step():
    p = pos("2016", red=[], blue=[])
    assert legs(p, "3") == [(("START", "T6"),)]
    assert legs(p, "12") == [(("START", "T15"),)]
    assert legs(p, "10") == [(("START", "T13"),)]
    assert legs(p, "4") == []
    circle = pos("2016", red=[], blue=[], settings={"start_move": "circle"})
    assert legs(circle, "12") == [(("START", "T4"),)]
    why = generate(circle, "5", "red")[0].why()
    assert "whatever the card" in why and "start_move" not in why


def test_start_move_applies_to_the_2016_edition_only():
    assert legs(pos(red=[], settings={"start_move": "circle"}), "12") == []


# --- 4, 10 --------------------------------------------------------------------------------

def test_four_goes_backward_only():
    assert opts(pos(red=["T20", "HOME", "HOME", "HOME"]), "4")[0][0] == "backward"


def test_question_two_ten_back_one_is_compulsory_when_no_ten_forward():
    """'On a 10, if I cannot go 10 forward, must I go back 1?' Yes, if any pawn can."""
    p = pos(red=["S2", "HOME", "HOME", "HOME"])
    o = only(p, "10")
    assert o.legs == (("S2", "S1"),) and o.compulsory
    assert "compulsory" in o.why("en") and "obligatoire" in o.why("fr")


def test_ten_back_one_is_free_beside_ten_forward():
    found = generate(pos(red=["T20", "HOME", "HOME", "HOME"]), "10", "red")
    assert [o.legs for o in found] == [(("T20", "T30"),), (("T20", "T19"),)]
    assert not found[1].compulsory and "compulsory" not in found[1].why()


def test_ten_back_one_out_of_the_safety_zone():
    assert (("S1", "T2"),) in legs(pos(red=["S1"]), "10")


# --- 7 split ------------------------------------------------------------------------------

def test_seven_split_lists_each_distinct_board_once():
    found = opts(pos(red=["T40", "T50", "HOME", "HOME"]), "7")
    assert [k for k, _ in found].count("forward") == 2
    assert [k for k, _ in found].count("split") == 6


def test_seven_split_legs_run_in_order_on_the_board_the_first_leaves():
    p = pos(red=["T19", "T26", "HOME", "HOME"])
    found = legs(p, "7")
    # T19 +5 lands on the blue slide and sends red's own T26 to START: no second leg for it
    assert (("T19", "T28"), ("T26", "T28")) not in found
    # the other order: T26 +2 to T28, then T19 +5 slides over it
    assert (("T26", "T28"), ("T19", "T28")) in found


def test_classic_split_leg_never_starts_a_pawn_but_2016_may():
    assert all(leg[0] != "START" for ls in legs(pos(red=["T10"]), "7") for leg in ls)
    assert (("START", "T4"), ("T10", "T16")) in legs(pos("2016", red=["T10"]), "7")


def test_a_second_leg_never_moves_the_pawn_the_first_legs_slide_swept_to_start():
    """BOARD.md: two legs are two different pawns of the position as it was before the card;
    a leg is impossible if its pawn is no longer where it stood."""
    # 2016: T5 +4 lands on red's own slide T9->T13, which sweeps red's T11 back to START
    swept = pos("2016", red=["T5", "T11", "HOME"])
    ways = [o.legs for o in candidates(swept, "7", "red")]
    assert (("T5", "T13"), ("START", "T6")) not in ways
    assert match(swept, "7", "red", (("T5", "T13"), ("START", "T6"))) is None
    # a pawn that stood in START before the card may still take the second leg
    waiting = pos("2016", red=["T5", "T11", "START"])
    assert (("T5", "T13"), ("START", "T6")) in [o.legs for o in candidates(waiting, "7", "red")]


def test_split_needs_two_different_pawns():
    assert [k for k, _ in opts(pos(red=["T10", "HOME", "HOME", "HOME"]), "7")] == ["forward"]


# --- 11 -----------------------------------------------------------------------------------

def test_eleven_switches_only_track_pawns():
    p = pos(red=["T10", "S2"], blue=["T30", "S1", "HOME"])
    assert [ls for k, ls in opts(p, "11") if k == "switch"] == [(("T10", "T30"),)]


def test_eleven_decline_only_beside_a_switch_when_no_eleven_forward():
    p = pos(red=["T58"], blue=["T30"])
    assert [k for k, _ in opts(p, "11")] == ["switch", "decline"]
    decline = generate(p, "11", "red")[-1]
    assert decline.legs == () and decline.event == {"type": "move", "legs": [],
                                                  "kind": "decline", "landed": []}
    assert "decline" in decline.why() and "refuser" in decline.why("fr")
    # 2016: a START pawn can go 11 forward, so no decline
    assert "decline" not in [k for k, _ in opts(pos("2016", red=["T58"], blue=["T30"]), "11")]
    # neither 11 forward nor a switch: forfeited
    p = pos(red=["T58"], blue=[])
    assert generate(p, "11", "red") == ()
    assert "no opponent's pawn is on the track" in forfeit_text("red", "11",
                                                               blocked(p, "11", "red"))


def test_switch_only_your_pawn_slides_but_an_opponent_on_your_slide_goes_to_start():
    o = next(o for o in generate(pos(red=["T31"], blue=["T16"]), "11", "red")
             if o.kind == "switch")
    assert o.legs == (("T31", "T19"),) and "T31" in o.pawns["blue"]  # blue did not slide
    o = next(o for o in generate(pos(red=["T17"], blue=["T16"]), "11", "red")
             if o.kind == "switch")
    assert o.legs == (("T17", "T19"),) and o.bumped == ("blue",)
    assert match(pos(red=["T17"], blue=["T16"]), "11", "red", (("T17", "T16"),)) == o


# --- Sorry! -------------------------------------------------------------------------------

def test_sorry_targets_only_an_opponent_on_the_track():
    p = pos(red=["T50"], blue=["T30", "S2", "HOME"])
    assert opts(p, "sorry") == [("sorry", (("START", "T30"),))]


def test_classic_sorry_without_start_pawn_or_target_is_forfeited():
    p = pos(red=["T1", "T2", "T3", "T5"], blue=["T30"])
    assert generate(p, "sorry", "red") == ()
    assert "START" in explain(blocked(p, "sorry", "red")[0])
    p = pos(red=[], blue=["S1"])
    assert generate(p, "sorry", "red") == ()
    assert blocked(p, "sorry", "red")[0].code == "no_target"


def test_2016_sorry_may_instead_move_four_forward():
    p = pos("2016", red=["T20"], blue=["T30"])
    found = opts(p, "sorry")
    assert ("sorry", (("START", "T30"),)) in found
    assert ("forward", (("T20", "T24"),)) in found and ("start", (("START", "T7"),)) in found
    assert legs(pos("2016", red=["T20"], blue=["S1"]), "sorry") == [
        (("START", "T7"),), (("T20", "T24"),)]


def test_sorry_slides_after_landing_and_may_be_named_by_the_square_landed_on():
    p = pos(red=[], blue=["T24"])
    o = only(p, "sorry")
    assert o.legs == (("START", "T28"),)
    assert match(p, "sorry", "red", (("START", "T24"),)) == o


def test_option_shape_for_the_screen():
    o = only(pos(red=["T20", "HOME", "HOME", "HOME"], blue=["T24", "HOME", "HOME", "HOME"]),
             "4", "blue")
    assert o.kind == "backward" and o.legs == (("T24", "T20"),)
    assert o.pawns == {"red": ("START", "HOME", "HOME", "HOME"),
                       "blue": ("T20", "HOME", "HOME", "HOME")}
    assert o.bumped == ("red",) and o.event == {"type": "move", "legs": [["T24", "T20"]],
                                                  "kind": "backward", "landed": ["T20"]}
    assert o.text == "T24 back to T20, bumps red"
    assert o.label("fr") == ("recule du triangle de votre grande glissade à la case après "
                             "votre rond de départ, renvoie rouge")
    assert o.label("en") == ("back from the triangle of your long slide to the square past "
                             "your start circle, bumps red")
    assert "4" in o.why("en") and "recule" in o.why("fr")


def test_an_eleven_forward_onto_an_opponent_and_the_switch_share_legs_kind_tells_them_apart():
    p = pos(red=["T19", "HOME", "HOME", "HOME"], blue=["T30"])
    found = generate(p, "11", "red")
    assert [(o.kind, o.legs) for o in found] == [("forward", (("T19", "T30"),)),
                                                 ("switch", (("T19", "T30"),))]
    assert match(p, "11", "red", (("T19", "T30"),)) == found[0]  # no kind: the first listed
    assert match(p, "11", "red", (("T19", "T30"),), "switch") == found[1]
    assert found[1].pawns["blue"][-1] == "T19"


# --- What published engines get wrong (issue 11) ------------------------------------------

def test_safety_squares_belong_to_their_colour():
    """Red's S2 and blue's S2 are different squares: both may be taken, and red lands on its
    own S2 while blue stands on blue's S2."""
    p = pos(red=["S1", "HOME", "HOME", "HOME"], blue=["S2", "HOME", "HOME", "HOME"])
    assert only(p, "1").legs == (("S1", "S2"),)
    assert only(p, "1", "blue").legs == (("S2", "S3"),)


@pytest.mark.parametrize("edition", ["classic", "2016"])
def test_never_forward_past_your_own_entry(edition):
    assert (("T2", "S1"),) in legs(pos(edition, red=["T2"]), "1")
    assert (("T1", "S4"),) in legs(pos(edition, red=["T1"]), "5")


def test_slides_never_chain_and_home_never_moves():
    from games.board.rules.geometry import SLIDES
    triangles = {s.start for s in SLIDES}
    assert not any(s.end in triangles for s in SLIDES)  # no slide ends on a triangle
    p = pos(red=["HOME", "HOME", "HOME", "S5"])
    assert all(o.legs[0][0] != "HOME" for c in ("1", "4", "10") for o in generate(p, c, "red"))
