"""Play detection and recognition on frames the tests draw (bench.camera_scenes)."""

from __future__ import annotations

from typing import Any

from bench.camera import score
from camera.watcher import Watcher

LAID = ["7", "2", "12"]


def watch(model: Any, frames: list[Any]) -> list[Any]:
    watcher = Watcher(model)
    return [seen for frame in frames if (seen := watcher.feed(frame)) is not None]


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


def test_a_face_of_the_same_family_laid_square_on_the_top_card_is_a_play(
        scene: Any, model: Any) -> None:
    """Only the print differs (the family's layout, the card's place): it is still a new
    card, logged as soon as it rests; nudges, light and hands after it still log nothing."""
    laid = ["8", "2", "12", "11"]  # before the print was compared, the 11 was missed
    seq = scene.sequence(laid, seed=36, disturb=False, square=1.0,
                         after=("nudge", "light", "pass", "nudge"))
    assert [p.on for p in seq.plays] == [None, "8", "2", "12"]
    seen = watch(model, seq.frames)
    result = score(seq.plays, seen)
    assert result.phantom == 0 and result.wrong == 0 and result.missed == 0, seen
    assert all(0 <= d <= 5 for d in result.delays), result.delays
