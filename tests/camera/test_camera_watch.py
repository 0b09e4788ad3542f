"""Play detection and recognition on frames the tests draw (bench.camera_scenes)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bench.camera import score
from camera.watcher import Watcher

LAID = ["7", "2", "12"]


def watch(model: Any, frames: list[Any]) -> list[Any]:
    watcher = Watcher(model)
    return [seen for frame in frames if (seen := watcher.feed(frame)) is not None]


def assert_each_play_logged_in_time(model: Any, seq: Any) -> None:
    """Every play logged right within 5 frames of its rest; no phantom, nothing missed."""
    seen = watch(model, seq.frames)
    result = score(seq.plays, seen)
    assert (result.right, result.phantom, result.missed) == (len(seq.plays), 0, 0), seen
    assert all(0 <= d <= 5 for d in result.delays), result.delays


def test_each_card_is_logged_once_soon_after_it_rests_and_hands_light_nudges_log_nothing(
        scene: Any, model: Any) -> None:
    seq = scene.sequence(LAID, seed=4, disturb=False, after=("pass", "rest", "light", "nudge"))
    seen = watch(model, seq.frames)
    result = score(seq.plays, seen)
    assert result.phantom == 0 and result.missed == 0 and result.wrong == 0, seen
    assert result.right + result.asked == len(LAID)
    assert result.right >= 2, seen
    assert all(0 <= d <= 5 for d in result.delays), result.delays
    for s, play in zip(seen, seq.plays, strict=True):
        assert s.card == play.card or (s.card is None and play.card in s.candidates)


def test_an_empty_table_with_hands_passing_logs_nothing(scene: Any, model: Any) -> None:
    seq = scene.sequence([], seed=5, disturb=False, after=("pass", "rest", "light", "pass"))
    assert len(seq.frames) > 30
    assert watch(model, seq.frames) == []


def test_the_same_face_played_again_elsewhere_is_a_second_play(scene: Any, model: Any) -> None:
    seq = scene.sequence(["5", "5"], seed=7, disturb=False)
    seen = watch(model, seq.frames)
    assert len(seen) == 2, seen
    assert [s.frame >= p.rest for s, p in zip(seen, seq.plays, strict=True)] == [True, True]


def test_faces_of_one_family_are_told_apart(scene: Any, revenge_model: Any) -> None:
    laid = ["8", "0", "slide:10", "slide:15", "take2", "play2"]
    seq = scene.sequence(laid, seed=9, disturb=False)
    seen = watch(revenge_model, seq.frames)
    assert [s.card for s in seen] == laid, seen


def test_a_hand_kept_on_each_card_laid_delays_no_play(scene: Any, model: Any) -> None:
    """The first card was read under the hand still on it (no card lay there to wait
    for), and that picture, arm and all, was what later plays were compared with: the
    arm's leaving passed for an arm resting, so every later play waited 20 still frames
    and was missed (dev seed 38000: 19 plays in a row)."""
    seq = scene.sequence([*LAID, "5"], seed=11, disturb=False, hold=5)
    assert_each_play_logged_in_time(model, seq)


def test_a_hand_resting_with_a_sleeve_the_table_s_colour_logs_nothing(
        scene: Any, model: Any) -> None:
    """This scene's sleeve is as even as the table and near its colour: dividing the
    light out made it vanish from the border band, the resting hand passed for no arm,
    and a card was read through it (a phantom), then the top card again after it left
    (a second one). In colour the sleeve still crosses the band."""
    seq = scene.sequence(["7", "2"], seed=20, disturb=False, after=("rest", "rest", "rest"))
    seen = watch(model, seq.frames)
    result = score(seq.plays, seen)
    assert (result.right, result.phantom, result.missed) == (2, 0, 0), seen


def test_a_lamp_changed_before_each_card_delays_no_play(scene: Any, model: Any) -> None:
    """The arm is looked for in colour, where a lamp changes the whole border band: each
    side's change of light is taken out first, or every play after a lamp waited for
    an arm that was not there and was missed."""
    seq = scene.sequence(["7", "2"], seed=21, disturb=False, before=("light",))
    assert_each_play_logged_in_time(model, seq)


@pytest.mark.parametrize(("seed", "laid"), [
    (36, ["8", "2", "12", "11"]),  # the 11 was missed before the print was compared
    (22, ["5", "12", "8", "4"]),  # the 4, nudged, correlated 0.899 and was read as an 8
])
def test_a_face_of_the_same_family_laid_square_on_the_top_card_is_a_play(
        scene: Any, model: Any, seed: int, laid: list[str]) -> None:
    """Only the print differs (the family's layout, the card's place): it is still a new
    card, logged as soon as it rests; nudges, light and hands after it still log nothing."""
    seq = scene.sequence(laid, seed=seed, disturb=False, square=1.0,
                         after=("nudge", "light", "pass", "nudge"))
    assert [p.on for p in seq.plays] == [None, *laid[:-1]]
    seen = watch(model, seq.frames)
    result = score(seq.plays, seen)
    assert result.phantom == 0 and result.wrong == 0 and result.missed == 0, seen
    assert all(0 <= d <= 5 for d in result.delays), result.delays


@pytest.mark.parametrize("seed", [42, 51])
def test_the_same_face_laid_a_few_pixels_off_itself_is_a_play(
        scene: Any, model: Any, seed: int) -> None:
    """The same print a few pixels off is what a nudge shows too, so both 5s laid on the
    first were taken for it nudged and missed. The old card's edge still shows where the
    new one does not cover it (a nudge leaves that place): each is a play; the nudges
    after them (the top card's edge gone from where it lay) still log nothing."""
    seq = scene.sequence(["5", "5", "5"], seed=seed, disturb=False, square=1.0,
                         after=("nudge", "pass", "nudge"))
    assert [p.on for p in seq.plays] == [None, "5", "5"]
    assert_each_play_logged_in_time(model, seq)


@pytest.mark.parametrize("seed", [217, 222])
def test_two_nudges_that_add_up_to_more_than_one_log_nothing(
        scene: Any, model: Any, seed: int) -> None:
    """217: after the first nudge the top 5 was found again only by the recogniser, within
    a nudge, and left where it had lain; the second nudge added to it, more than a nudge
    away, and the 5 read there was logged again (a phantom). 222: the 5 nudged is found
    again but its small corner print differs (not surely the same), and the recogniser,
    taught from one photo a face, ranked the 5 only sixth by its coarse look: left out of
    the fine stage's shortlist, it was read as an 8 and logged (a phantom)."""
    seq = scene.sequence(["5", "5"], seed=seed, disturb=False, after=("nudge", "pass", "nudge"))
    assert_each_play_logged_in_time(model, seq)


def test_a_card_whose_print_a_glare_washes_out_is_read_as_it_rests(
        scene: Any, model: Any) -> None:
    """This printing is pale, and a lamp's reflection over the pile washes out part of
    the 7: so few features were found on it, and its photo fitted it so much less well
    (under the 0.8 asked then), that no card was found there and the play was missed.
    Hands, light and a nudge after it still log nothing."""
    seq = scene.sequence(LAID, seed=111, disturb=False, glare=(0.457, 0.371, 0.55),
                         after=("pass", "rest", "light", "nudge", "rest"))
    assert_each_play_logged_in_time(model, seq)


def test_the_same_face_laid_far_off_where_the_top_card_lay_is_a_play() -> None:
    """Development seed 38000, sequence 20 (the bench's table and deck, never a held-out
    one): the third switch in a row lands 40 px, a fifth of its length, off the second,
    whose old place still correlates (the family's layout). The recogniser named the same
    face there, which counted as the top card seen again wherever it lay: missed."""
    from bench.camera import run_sequence

    seq, seen, _ms = run_sequence(20, 38000, 10)
    assert [p.card for p in seq.plays[7:]] == ["switch"] * 3
    result = score(seq.plays, seen)
    assert (result.right, result.phantom, result.missed) == (10, 0, 0), seen


@pytest.mark.parametrize("glare", [
    pytest.param((0.5467, 0.5021, 0.5728), id="the card's own pose refined by another face"),
    pytest.param((0.547, 0.502, 0.573), id="no pose found holds the card"),
])
def test_a_card_a_glare_hides_from_the_features_is_read_where_the_pile_changed(
        glare: tuple[float, float, float]) -> None:
    """Development seed 30000, sequence 12, under a strong lamp's glare: the 0 laid at
    play 3 was read as no card at its rest and logged only at the next nudge, 23 frames
    late (or missed with no nudge after). Under the first glare, the 0's own pose was
    refined by the photos of a 4 and a 9, which the coarse print favoured; under the
    second, no pose the features found held the card. The other poses, each refined by
    its own face, and the rectangle where the pile changed as the card was laid, find it."""
    from bench.camera import run_sequence

    seq, seen, _ms = run_sequence(12, 30000, 4, glare=glare)
    assert seq.plays[3].card == "0"
    result = score(seq.plays, seen)
    assert (result.right, result.phantom) == (4, 0), seen
    assert max(result.delays) <= 5, result.delays


def test_a_deck_taught_without_a_face_asks_every_card_with_that_face_among_its_candidates(
        scene: Any, teach_folder: Path) -> None:
    """A face none of whose photos showed the card is left out of the deck (camera.teach);
    a card of it would read, sure, as one of its family that was taught (a 3 as an 8, at
    confidence 1.0, on dev plain 20_100), so while a face is missing every card is asked,
    never logged, the missing face among its candidates."""
    from camera.cards import card_names
    from camera.image_file import read_image
    from camera.teach import teach

    photos = {c: [(str(p), read_image(p, "photo")) for p in sorted(
        (teach_folder / c).iterdir())] for c in card_names("board")}
    photos["3"] = [("3/bare table", scene.table)]
    taught = teach(photos, "board")
    assert list(taught.missing) == ["3"] and taught.model.missing() == ["3"]
    seq = scene.sequence(["8", "3"], seed=11, disturb=False, after=("rest",))
    seen = watch(taught.model, seq.frames)
    assert len(seen) == 2, seen
    for s, play in zip(seen, seq.plays, strict=True):
        assert s.card is None and "3" in s.candidates, s
        assert play.rest <= s.frame <= play.rest + 5
    assert seen[0].candidates[0] == "8"
