"""What a read costs (issue 37's CPU): ECC at full size only where the corners are found."""

from __future__ import annotations

from typing import Any

import pytest


def test_one_face_refines_the_corners_and_the_shortlist_is_laid_at_half_size(
        scene: Any, revenge_model: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each full-size homography by ECC was 8-10 ms, and a read laid a dozen: the photos
    of the best face refine the corners at full size (the second best's too only when
    none fits well), and the shortlist's photos, starting within a pixel or two, are laid
    at half size (a quarter of the pixels). The card is still read right."""
    import cv2

    from camera.faces import Recogniser
    from camera.locate import CANON

    seq = scene.sequence(["5", "8"], seed=3, disturb=False)
    frame = seq.frames[-1]
    recogniser = Recogniser(revenge_model.faces, revenge_model.card_size,
                            revenge_model.aligned)
    full: list[int] = []
    refining: list[int] = []  # the half-size affine step that reaches far
    verdicts: list[int] = []
    real_ecc, real_aligned = cv2.findTransformECC, recogniser._aligned

    def counted_ecc(template: Any, *args: Any) -> Any:
        if template.shape == (CANON[1], CANON[0]) and args[2] == cv2.MOTION_HOMOGRAPHY:
            full.append(1)
        if args[2] == cv2.MOTION_AFFINE:
            refining.append(1)
        return real_ecc(template, *args)

    def counted_aligned(*args: Any, **kwargs: Any) -> Any:
        verdicts.append(1)
        return real_aligned(*args, **kwargs)

    monkeypatch.setattr(cv2, "findTransformECC", counted_ecc)
    monkeypatch.setattr(recogniser, "_aligned", counted_aligned)
    reading = recogniser.read(frame, revenge_model.spot_pixels(640, 480))
    assert reading is not None and reading.card == "8"
    photos = max(sum(1 for f in revenge_model.faces if f.card == c) for c in ("5", "8"))
    assert verdicts and len(full) <= 2 * photos * len(verdicts), (len(full), len(verdicts))
    # the 8's photos fit it well: the second best face's do not refine it again
    assert len(refining) <= photos * len(verdicts), (len(refining), len(verdicts))


def test_a_pose_tried_again_in_one_read_lays_no_photo_twice(
        scene: Any, revenge_model: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The poses a read tries after its first look often start from the same corners
    as it did, and laid the same photos on the same view again: ECC is deterministic,
    so within one read each photo is laid on each view once, with the same answer."""
    import cv2

    from camera.faces import Recogniser

    seq = scene.sequence(["5", "8"], seed=3, disturb=False)
    frame = seq.frames[-1]
    recogniser = Recogniser(revenge_model.faces, revenge_model.card_size,
                            revenge_model.aligned)
    looks: list[tuple[tuple[Any, ...], dict[str, Any]]] = []
    real_aligned = recogniser._aligned

    def kept(*args: Any, **kwargs: Any) -> Any:
        looks.append((args, kwargs))
        return real_aligned(*args, **kwargs)

    monkeypatch.setattr(recogniser, "_aligned", kept)
    reading = recogniser.read(frame, revenge_model.spot_pixels(640, 480))
    assert reading is not None and reading.card == "8" and looks
    calls: list[int] = []
    real_ecc = cv2.findTransformECC

    def counted_ecc(*args: Any) -> Any:
        calls.append(1)
        return real_ecc(*args)

    monkeypatch.setattr(cv2, "findTransformECC", counted_ecc)
    first = real_aligned(*looks[0][0], **looks[0][1])  # that look again, in the same read
    assert first[0] == "8" and calls == [], len(calls)


def test_the_deck_is_scored_in_one_product_as_photo_by_photo(scene: Any, revenge_model: Any
                                                             ) -> None:
    """The coarse correlation of a card seen with every taught photo, both ways up, is
    one product a scale over the whole deck (scored photo by photo and way by way it was
    0.3-0.7 s of `camera watch` on a busy table): the very same numbers as that loop, so
    the faces rank as they did."""

    import numpy as np

    from camera.faces import Recogniser, _signatures
    from camera.locate import upright

    recogniser = Recogniser(revenge_model.faces, revenge_model.card_size,
                            revenge_model.aligned)
    frame = scene.sequence(["5", "8"], seed=3, disturb=False).frames[-1]
    reading = recogniser.read(frame, revenge_model.spot_pixels(640, 480))
    assert reading is not None
    seen = _signatures(upright(frame, reading.quad))
    def score(way: list[Any]) -> float:  # the loop's own sum, photo by photo
        return float(np.mean([np.sum(x * y) for x, y in zip(seen, way, strict=True)]))

    one_by_one = [[score(way) for way in ways] for _card, *ways in recogniser._signs]
    assert recogniser._photo_scores(seen).tolist() == one_by_one
