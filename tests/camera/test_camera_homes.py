"""The camera at a family's table (issue 37), on development homes drawn by
bench.camera_homes (small sets; `make bench` scores the held-out homes): the first of two
quick cards, a play after a child's hand rested on the pile or a person leaned in, and
frames above 640x480 reduced once."""

from __future__ import annotations

from typing import Any

import pytest

SEED = 7  # a development table of each home (the bench's held-out seeds start at 40_000)
# a gingham table whose photos all show the card's outline (seed 7's cloth hides it in
# both photos of the 8: that deck is refused, a face with no photo showing its card)
GINGHAM_SEED = 20_001


@pytest.fixture(scope="module")
def gingham() -> Any:
    """A gingham table seen 12 degrees off vertical, its deck (the board game's) taught
    there from two photos a face."""
    from bench.camera_homes import HOMES, HomeScene
    from camera.cards import card_names
    from camera.teach import teach

    scene = HomeScene(HOMES["gingham"], seed=GINGHAM_SEED)
    cards = card_names("board")
    photos = scene.teach_photos(cards, 2, seed=0)
    taught = teach({c: [(f"{c}#{i}", img) for i, img in enumerate(photos[c])]
                    for c in cards}, "board")
    assert not taught.unseen
    return scene, taught.model


def watched(model: Any, frames: list[Any]) -> list[Any]:
    from camera.watcher import Watcher

    watcher = Watcher(model)
    return [s for s in (watcher.feed(f) for f in frames) if s is not None]


def assert_each_logged_right(plays: list[Any], seen: list[Any]) -> None:
    assert [s.card for s in seen] == [p.card for p in plays], (seen, plays)
    for s, p in zip(seen, plays, strict=True):
        # rest: the first frame with no hand in the picture; the pile may be still a
        # frame or two before the leaving hand is out of the picture
        assert p.rest - 2 <= s.frame <= p.rest + 5, (s, p)


def test_the_taught_card_size_and_pile_spot_are_the_photos_cards() -> None:
    """The size and spot are taken from the outline chosen in every photo, not from the
    last photo's shapes (a name shared by two loops in camera.teach: on dev seed 30000,
    sequence 12, a card size of 0.18 of the width for 0.31, and plays missed)."""
    from bench.camera import taught_deck
    from bench.camera_scenes import Scene

    scene = Scene(seed=30_012, size=(640, 480), printing=30_012)
    # the deck as taught from that scene's photos, the one test_camera_watch.py's glare
    # tests watch with (bench.camera keeps it: taught once for the three)
    model = taught_deck(12, 30_000, size=(640, 480))
    assert model.game == "revenge"
    assert model.card_size == pytest.approx(scene.card_h / 640, rel=0.1)
    x0, y0, x1, y1 = model.spot
    assert x0 < scene.spot[0] / 640 < x1 and y0 < scene.spot[1] / 480 < y1
    assert (x1 - x0) * 640 >= scene.card_h * 0.6


def test_the_first_of_two_cards_laid_within_a_second_is_logged(gingham: Any) -> None:
    """The next hand comes in at the edge while the first card rests: rest is judged on
    the pile, not the whole view (it waited for the whole view, and logged the first of
    two quick cards 1 time in 11)."""
    scene, model = gingham
    seq = scene.sequence(["5", "11", "2"], seed=3, disturb=False,
                         lays=("quick", "quick second", "laid"))
    assert seq.plays[1].rest - seq.plays[0].rest <= 10  # within a second at 10 fps
    assert_each_logged_right(seq.plays, watched(model, seq.frames))


@pytest.mark.parametrize("seed", [1, 9])
def test_the_first_quick_card_is_logged_when_the_next_hand_comes_as_the_last_leaves(
        gingham: Any, seed: int) -> None:
    """Dev gingham 20_001, sequences 1 and 9: the second hand's first frame is the first
    frame with the first hand gone (its start is the first card's rest); the first card
    lies still throughout, only hands touching the frame's edge move. It was missed: the
    pile spot (most of the view) never lay still (camera.watcher._hands_only)."""
    scene, model = gingham
    seq = scene.sequence(["5", "11", "2"], seed=seed, disturb=False,
                         lays=("quick", "quick second", "laid"))
    assert seq.plays[1].start == seq.plays[0].rest
    assert_each_logged_right(seq.plays, watched(model, seq.frames))


@pytest.mark.parametrize(("disturbance", "calm"), [
    ("child", None), ("shadow", None),
    ("rest", 0), ("exposure", 0), ("refocus", 0), ("child", 0), ("shadow", 0),
])
def test_after_a_disturbance_it_watches_again_within_a_second(
        gingham: Any, disturbance: str, calm: int | None) -> None:
    """A child's hand resting on the pile for 2-4 s, a person's shadow swaying over it
    while auto-exposure follows, an arm resting, an exposure step, the focus hunting:
    nothing is logged for it, and the next card is logged within 5 frames of its rest.
    `calm` 0: the next hand comes as the disturbance ends (the exposure still settling,
    the focus still hunting), so its card rests within about a second of the end (a still
    picture with the hand in it became the one to compare with, and every later still
    picture passed for an arm: nothing more was logged). After a child's hand or a
    shadow with `calm` 0 the next card was logged 2-3 s late or missed: a picture with
    the child's thin arm crossing into the pile at 5 places (an arm from 6), or the
    shadow coming in or leaving at 4, became the one compared with, and its leaving
    passed for an arm (camera.watcher.SETTLED_WIDTH)."""
    scene, model = gingham
    seq = scene.sequence(["7", "3", "12"], seed=5, disturb=False, before=(disturbance,),
                         calm=calm)
    assert [d for d, _frame in seq.disturbances] == [disturbance] * 3
    assert_each_logged_right(seq.plays, watched(model, seq.frames))


def test_frames_above_640_wide_are_reduced_once_and_still_read(tmp_path: Any) -> None:
    """A 1280x720 camera: its deck taught from full-size photos, its frames decoded from
    JPEG files at half size (camera.sources) and watched at 640 wide."""
    import cv2

    from bench.camera_homes import HOMES, HomeScene
    from camera.cards import card_names
    from camera.sources import FolderSource
    from camera.teach import teach
    from camera.watcher import reduced

    big = HomeScene(HOMES["walnut"], seed=SEED)
    assert big.size == (1280, 720)
    cards = card_names("board")
    photos = big.teach_photos(cards, 1, seed=0)
    model = teach({c: [(c, photos[c][0])] for c in cards}, "board").model
    seq = big.sequence(["8", "4"], seed=2, disturb=False)
    for i, frame in enumerate(seq.frames):
        cv2.imwrite(str(tmp_path / f"{i:04d}.jpg"), frame)
    decoded = list(FolderSource(tmp_path).frames())
    assert decoded[0].shape == (720, 1280, 3) and decoded[1].shape == (360, 640, 3)
    assert reduced(decoded[0]).shape == (360, 640, 3)
    assert_each_logged_right(seq.plays, watched(model, decoded))


def test_a_full_hd_frame_is_decoded_at_half_size_and_reduced_as_by_area(tmp_path: Any
                                                                        ) -> None:
    """A 1920x1080 camera's frames after the first are decoded at half size (960x540) and
    reduced once more to 640 wide, bilinearly (area over a factor of 1.5 cost as much as
    the decoding): on a sharp gingham cloth that is within a grey level, on the mean, of
    that frame reduced by area (the half-size decode alone differs more than that from the
    whole frame reduced by area: JPEG's own)."""
    import cv2
    import numpy as np

    from bench.camera_homes import cloth
    from camera.sources import FolderSource
    from camera.watcher import reduced

    table = np.clip(cloth("gingham", 1920, 1080, np.random.default_rng(SEED)), 0, 255
                    ).astype(np.uint8)
    for i in range(2):
        cv2.imwrite(str(tmp_path / f"{i:04d}.jpg"), table, [cv2.IMWRITE_JPEG_QUALITY, 90])
    first, second = FolderSource(tmp_path).frames()
    assert first.shape == (1080, 1920, 3) and second.shape == (540, 960, 3)
    assert reduced(first).shape == reduced(second).shape == (360, 640, 3)
    by_area = cv2.resize(second, (640, 360), interpolation=cv2.INTER_AREA).astype(np.float32)
    assert float(np.mean(np.abs(reduced(second) - by_area))) < 1.0


def test_the_bench_gives_a_log_before_the_next_card_rests_to_the_play_before() -> None:
    """The first of two quick cards is logged as the next hand comes (at its start): that
    log is the first card's, not a wrong or phantom one of the second."""
    from bench.camera_homes import HomePlay
    from bench.camera_table import verdicts
    from camera.watcher import Seen

    plays = [HomePlay("5", 7, 14, "quick"), HomePlay("11", 15, 22, "quick second"),
             HomePlay("2", 31, 40)]
    seen = [Seen(15, "5", 1.0, ("5",)), Seen(23, "11", 1.0, ("11",)), Seen(39, "2", 1.0, ("2",))]
    got, early = verdicts(plays, seen)
    assert [(v.outcome, v.delay, v.phantoms) for v in got] == [
        ("right", 1, 0), ("right", 1, 0), ("right", -1, 0)]
    assert early == 0


def test_a_cloth_blurred_by_the_focus_hunting_is_no_arm(gingham: Any) -> None:
    """The sleeve is measured on a colour picture whose cloth pattern is blurred out: the
    gingham table blurred as the focus hunts, against the same table sharp, crossed the
    border band into the pile at 23 places (an arm from 6), so the card laid as the focus
    came back waited LONG_STILL frames (dev gingham seed 20_100: 29 frames late). A
    sleeve laid over the same table still reads as an arm."""
    import cv2

    from camera.watcher import MOTION_SIZE, SETTLED_WIDTH, SLEEVE_WIDTH, _small, _Still, _still

    scene, model = gingham
    sharp = scene.sequence(["7"], seed=2, disturb=False).frames[0]
    spot = model.spot_pixels(*MOTION_SIZE)

    def still(frame: Any) -> _Still:
        return _still(_small(frame), frame)

    for blur in (2.5, 3.5):
        blurred = cv2.GaussianBlur(sharp, (0, 0), blur)
        assert still(sharp).sleeve_width(still(blurred), spot) < SETTLED_WIDTH, blur
        assert still(blurred).sleeve_width(still(sharp), spot) < SETTLED_WIDTH, blur
    arm = sharp.copy()
    h, w = arm.shape[:2]
    arm[: h // 2, w // 2 - 48: w // 2 + 48] = (40, 120, 60)  # a green sleeve from the top
    assert still(arm).sleeve_width(still(sharp), spot) >= SLEEVE_WIDTH


def test_a_card_laid_beside_the_top_card_is_read_where_it_lies() -> None:
    """On a wide pile a card may land beside the top card, which stays whole and still:
    the top card found again, surely as it was, passed for 'nothing laid', though the
    pile's change was one card's outline away from it (dev plain seed 20_300: an 8 laid
    beside the sorry and a 3 over the 8, both missed; read over the whole spot, the 3
    was the sorry, whole, again). Such a card is read around where it changed."""
    import numpy as np

    from camera.top import Top
    from camera.watcher import _around, _beside

    quad = np.array([[100, 100], [220, 100], [220, 270], [100, 270]], np.float32)
    top = Top(quad, None, None, ("sorry",))
    assert not _beside(top, None)
    assert not _beside(top, quad + 4)  # the top card's own outline, a nudge off
    beside = quad + np.array([130, 10], np.float32)
    assert _beside(top, beside)
    x0, y0, x1, y1 = _around(beside, 640, 480)
    assert (x0, y0) == (230 - 17, 110 - 17) and (x1, y1) == (350 + 17, 280 + 17)
    assert _around(quad - 120, 640, 480)[:2] == (0, 0)  # within the frame


def test_only_hands_at_the_edge_move_beside_a_card_lying_still() -> None:
    """`_hands_only`: a card lying still apart from hands that touch the frame's edge is
    at rest; a card held in the moving hand, or a moving blob inside the view, is not."""
    import numpy as np

    from camera.watcher import MOTION_SIZE, _hands_only

    w, h = MOTION_SIZE
    spot = (10, 6, 62, 58)
    judged = np.zeros((h, w), np.float32)
    card = judged.copy()
    card[20:40, 25:40] = 1.0  # the card just laid
    previous, small = card.copy(), card.copy()
    previous[45:60, 50:56] = 1.0  # the leaving hand, at the bottom edge
    small[50:60, 60:66] = 1.0  # the next hand coming, at the bottom edge
    assert _hands_only(small, previous, judged, spot, 80, 19)
    held = small.copy()
    held[38:52, 38:62] = 1.0  # the hand reaching over the card: one region with it
    assert not _hands_only(held, previous, judged, spot, 80, 19)
    inside = card.copy()
    inside[45:50, 50:56] = 1.0  # something moving inside the view, touching no edge
    assert not _hands_only(inside, card, judged, spot, 80, 19)
    assert not _hands_only(judged, judged, judged, spot, 80, 19)  # nothing new


def test_a_paisley_is_a_development_cloth_as_busy_as_a_print_can_be() -> None:
    """A patterned cloth to develop on (the floral and the blue check are held out): the
    paisley home is a development one, drawn the same from the same seed, and busy (its
    pixels' spread far above a plain mat's, its colours its own)."""
    import numpy as np

    from bench.camera_homes import HOMES, cloth

    assert not HOMES["paisley"].held_out
    first = cloth("paisley", 320, 240, np.random.default_rng(20_000))
    again = cloth("paisley", 320, 240, np.random.default_rng(20_000))
    plain = cloth("plain", 320, 240, np.random.default_rng(20_000))
    assert np.array_equal(first, again)
    grey = first.astype(np.float32).mean(axis=2)
    assert grey.std() > 4 * plain.astype(np.float32).mean(axis=2).std()


def _drawn(scene: Any, steps: list[tuple[Any, ...]]) -> list[Any]:
    """Frames of `scene`'s table drawn step by step: (cards lying, a hand at (x, y) from
    the left edge or None, frames[, the focus's blur]), by a camera whose exposure is
    fixed."""
    import numpy as np

    from bench.camera_homes import DEV_SEED

    rng = np.random.default_rng(DEV_SEED)
    camera = scene._camera_now(rng)
    w, h = scene.size
    frames = []
    for cards, hand, count, *blur in steps:
        canvas = scene.table.copy()
        cover = np.zeros(canvas.shape[:2], np.uint8)
        for card, pose in cards:
            scene._lay(canvas, card, pose, cover)
        if hand is not None:
            scene._arm(canvas, cover, hand, (-0.1 * w, 0.5 * h), (200, 160, 140),
                       (60, 90, 150), 0.6)
        for _ in range(count):
            camera.target, camera.exposure = None, 1.0
            camera.refocus = list(blur)
            frames.append(scene._shoot(canvas, cover, camera, rng, 90, frame=len(frames)))
    return frames


def _seven_then_three(scene: Any) -> tuple[list[Any], list[Any]]:
    """The pile with a 7 on the spot, and with a 3 laid on it."""
    from bench.camera_scenes import Pose

    sx, sy = scene.spot
    seven = [("7", Pose(sx, sy, 0.0))]
    return seven, [*seven, ("3", Pose(sx + 4, sy - 3, 8.0))]


def test_a_hand_coming_in_at_the_edge_is_never_the_picture_compared_with(
        gingham: Any) -> None:
    """Dev paisley 20_000: a child's hand came in at the frame's edge, beside the pile,
    which lay still: that picture, the arm in the border band, became the one compared
    with; the hand then resting on the pile crossed the band nowhere new (no arm: read
    through it) and became the picture compared with, so its leaving passed for an arm,
    and the next plays were logged 20 frames late or missed (7 of 20 right). Only a view
    in which nothing moves anywhere is a picture to compare with (on main the 3 here
    waited for the arm to leave, and was not logged in its 10 frames)."""
    scene, model = gingham
    w, h = scene.size
    sx, sy = scene.spot
    seven, three = _seven_then_three(scene)
    # the hand comes in beside the pile (the pile spot lies still), rests on it, and the
    # next card is laid as it leaves
    coming = [(seven, (x * w, 0.5 * h), 1) for x in (0.15, 0.17, 0.19, 0.21)]
    frames = _drawn(scene, [([], None, 5), (seven, None, 8), *coming,
                            (seven, (sx - 0.2 * scene.card_h, sy), 10), (three, None, 10)])
    seen = watched(model, frames)
    third = 5 + 8 + 4 + 10  # the 3's first frame, lying still
    assert [s.card for s in seen] == ["7", "3"], seen
    assert seen[1].frame <= third + 5, seen


def _watched_with_reads(model: Any, frames: list[Any]) -> tuple[list[Any], list[int]]:
    """What a watcher logs over `frames`, and its count of recognitions after each."""
    from camera.watcher import Watcher

    watcher = Watcher(model)
    seen, reads = [], []
    for frame in frames:
        if (s := watcher.feed(frame)) is not None:
            seen.append(s)
        reads.append(watcher.recognitions)
    return seen, reads


def test_a_picture_the_focus_blurred_is_not_read(gingham: Any) -> None:
    """Dev gingham 20_000 sequence 2 and paisley 20_000: a card laid as the camera's
    focus hunted was read in a blurred frame, a 9 as a 6 (logged wrong), a 9 as an 8.
    While the table around the pile holds much less detail than in the last sharp
    picture, the picture is taken as moving: the card is read once the focus is back."""
    scene, model = gingham
    seven, three = _seven_then_three(scene)
    frames = _drawn(scene, [([], None, 5), (seven, None, 8), (three, None, 6, 3.0),
                            (three, None, 8)])
    seen, reads = _watched_with_reads(model, frames)
    sharp = 5 + 8 + 6  # the first frame with the focus back
    assert [s.card for s in seen] == ["7", "3"], seen
    assert reads[sharp - 1] == reads[5 + 8 - 1], reads  # nothing read while blurred
    assert seen[1].frame <= sharp + 5, seen


def test_a_child_s_hand_fidgeting_on_the_pile_is_not_read_through(gingham: Any) -> None:
    """Dev walnut 20_000 sequence 1: a child's hand rested on the pile for 2-4 s,
    fidgeting a little every few frames (too little to be motion): after LONG_STILL
    frames it was read as though something lay there for good, and the card under it was
    read through it, a 10 and a 5 logged (4 phantoms in the sequence). Only a pile where
    nothing moves at all for LONG_STILL frames is read under an arm."""
    from camera.watcher import LONG_STILL

    scene, model = gingham
    seven, _three = _seven_then_three(scene)
    x, y = scene.spot[0] - 0.2 * scene.card_h, scene.spot[1]
    fidgets = [(seven, (x + 2 * (i // 4 % 2), y - 2 * (i // 4 % 2)), 1)
               for i in range(LONG_STILL + 15)]
    frames = _drawn(scene, [([], None, 5), (seven, None, 8), *fidgets, (seven, None, 10)])
    seen, reads = _watched_with_reads(model, frames)
    gone = 5 + 8 + len(fidgets)  # the first frame without the hand
    assert [s.card for s in seen] == ["7"], seen
    assert reads[gone - 1] == reads[5 + 8 + 2], reads  # nothing read under the hand


def test_a_still_pile_is_looked_at_once_not_at_every_frame(
        gingham: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """CPU: each still frame's look (the border band's colours for an arm, the focus)
    cost 1-2 ms, and on a busy table half the frames are the same still picture again.
    A frame no small pixel of which differs from the still picture last looked at is not
    looked at again; the cards are logged as before."""
    import camera.watcher as watcher_module

    scene, model = gingham
    seven, three = _seven_then_three(scene)
    frames = _drawn(scene, [([], None, 5), (seven, None, 15), (three, None, 15)])
    looks = []
    real = watcher_module._still
    monkeypatch.setattr(watcher_module, "_still",
                        lambda small, frame: looks.append(1) or real(small, frame))
    seen = watched(model, frames)
    assert [s.card for s in seen] == ["7", "3"], seen
    assert len(looks) <= 8, len(looks)  # of 33 still frames
