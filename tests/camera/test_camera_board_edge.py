"""A hand resting over the board's edge holds the watcher's judgement back
(games.board.camera.edge), one beside the board does not, nor the table it uncovers once
gone: frames of our own generator at a small size, the move put down and the hand left
still for a few frames."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pytest.importorskip("cv2", reason="the camera's extra is not installed: pip install '.[camera]'")

from games.board.camera.model import teach
from games.board.camera.scenes import SKIN, BoardScene, Light
from games.board.camera.watch import BoardWatcher
from games.board.rules.position import Position

BEFORE = {"red": ["START", "START", "START", "T5"], "blue": ["START"] * 4}
HAND = (3, 4, 5)  # the frames the hand lies still, after 3 frames of the board before


def _scene() -> tuple[BoardScene, Any]:
    """The small scene the tests film, and its board taught from its photo."""
    scene = BoardScene(seed=1, size=(480, 270), edition="classic", colors=("red", "blue"))
    return scene, teach(scene.teach_photo(), "classic", scene.colors)


def _hand(scene: BoardScene, pawn: Any, out_by: float) -> Any:
    """The hand still `out_by` cells out from `pawn`, beyond the board's edge, its
    fingers pointing in (where, from which edge point, its skin: as `shoot` takes it)."""
    here = np.array([pawn.x, pawn.y])
    out = (here - 8.0) / np.linalg.norm(here - 8.0)  # away from the board's middle
    return (scene.to_image(tuple(here + out * out_by)), scene.to_image(tuple(here + out * 14)),
            SKIN[0])


def _watched(model: Any, frames: list[Any]) -> list[tuple[int, str | None]]:
    """The watcher's judgements (frame, kind) over `frames`, red's 5 drawn at frame 2."""
    watcher = BoardWatcher(model, 5.0)
    judged = []
    for i, frame in enumerate(frames):
        if i == 2:
            assert watcher.drawn(0, Position.parse({"edition": "classic", "pawns": BEFORE}),
                                 "5", "red")
        found = watcher.feed(frame)
        if found is not None:
            judged.append((i, None if found.option is None else found.option.kind))
    return judged


def _judged(out_by: float) -> list[tuple[int, str | None]]:
    """The watcher's judgements (frame, kind) over: the board before (3 frames), red's 5
    put down on T10 with the hand left still `out_by` cells out from it, beyond the
    board's edge, its fingers pointing in (3 frames), then the board alone (4 frames)."""
    scene, model = _scene()
    rng = np.random.default_rng(0)
    pawns = scene.pawns_at(BEFORE, rng)
    light = Light()
    frames = [scene.shoot(pawns, light, rng) for _ in range(3)]
    pawns.remove(next(p for p in pawns if p.location == "T5"))
    put = scene._put(pawns, "red", "T10", rng)
    pawns.append(put)
    hand = _hand(scene, put, out_by)
    frames += [scene.shoot(pawns, light, rng, hand=hand) for _ in HAND]
    frames += [scene.shoot(pawns, light, rng) for _ in range(4)]
    return _watched(model, frames)


def test_fingertips_resting_over_the_boards_edge_hold_the_move_until_the_hand_goes():
    # 60,000 recording 25 (development): the hand put the pawn down and paused a frame
    # with its fingertips over the board's edge; the squares read as the move, and it was
    # logged with the hand still on the board
    assert _judged(1.2) == [(7, "forward")]  # the first still frame once the hand is gone


def test_a_hand_still_beside_the_board_does_not_hold_the_move_back():
    assert _judged(3.0) == [(HAND[1], "forward")]  # the first still frame, hand in view


def test_the_table_a_hand_paused_beside_the_board_uncovers_crosses_nothing():
    # 60,000 recording 6 draw 7 (development): the hand paused beside the board, outside
    # it only, before taking the pawn on an edge square; that still frame was the calm,
    # so once the hand had gone, the table it uncovered beside the square the pawn left
    # looked like a hand across the edge, and the move was held 2 s (logged at 16)
    scene, model = _scene()
    rng = np.random.default_rng(0)
    pawns = scene.pawns_at(BEFORE, rng)
    light = Light()
    frames = [scene.shoot(pawns, light, rng) for _ in range(3)]
    mover = next(p for p in pawns if p.location == "T5")
    hand = _hand(scene, mover, 2.0)
    assert not scene.hand_over_board(hand[0], hand[1], None)  # beside the board, not over
    frames += [scene.shoot(pawns, light, rng, hand=hand) for _ in range(2)]
    pawns.remove(mover)
    pawns.append(scene._put(pawns, "red", "T10", rng))
    frames += [scene.shoot(pawns, light, rng) for _ in range(12)]
    assert _watched(model, frames) == [(6, "forward")]  # the first still frame after it


def test_a_hand_resting_across_the_edge_long_enough_to_settle_crosses_nothing_once_gone():
    # 10,000 recording 0 (development): a hand rested across the board's edge for 2 s
    # and was taken as the scene's; the next frame, the same hand, was taken as the calm,
    # so once the hand went the bare edge crossed it, and the move after was held 2 s more
    import cv2

    from camera.light import light_free
    from games.board.camera.edge import EdgeWatch

    size = (96, 54)
    bare = np.full((size[1], size[0], 3), 90, np.uint8)
    cv2.rectangle(bare, (24, 7), (72, 47), (210, 215, 220), -1)  # the board on the table
    hand = bare.copy()
    cv2.rectangle(hand, (64, 20), (96, 30), (80, 120, 200), -1)  # across its right edge
    corners = np.array([[24, 7], [72, 7], [72, 47], [24, 47]], np.float32) * 10
    watch = EdgeWatch(corners, 960, size, settle=3)

    def crossed(picture):
        grey = cv2.cvtColor(picture, cv2.COLOR_BGR2GRAY)
        return watch.crossed(picture, light_free(grey, 6.0))

    assert [crossed(p) for p in (bare, hand, hand, hand, hand, hand, bare)] == [
        False, True, True, True, False, False, False]
