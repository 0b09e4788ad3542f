"""Comparing pictures of cards whatever the lamp does (needs the extra).

`flatten` takes the light out of an upright card, `light_free` out of a frame; `ecc` lays
one such picture on another by a small move and says how well they correlate (a
correlation: blind to brightness).
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np

STEPS = 30
LIGHT_SIGMA = 10.0  # pixels of an upright card over which the light is taken as even


def light_free(grey: Any, sigma: float) -> Any:
    """Each pixel over the brightness around it (over `sigma` pixels): a lamp switched,
    dimmed or tinted, or its glare moved, changes nothing, while a hand or a card does."""
    x = grey.astype(np.float32)
    return x / (cv2.GaussianBlur(x, (0, 0), sigma) + 1.0)


def flatten(grey: Any) -> Any:
    """The print without the light: a glare, a shadow or a dim lamp is smooth across the
    card, so the local mean is taken away and the local contrast divided out."""
    x = grey.astype(np.float32)
    x -= cv2.GaussianBlur(x, (0, 0), LIGHT_SIGMA)
    return x / (np.sqrt(cv2.GaussianBlur(x * x, (0, 0), LIGHT_SIGMA)) + 4.0)


def ecc(template: Any, image: Any, motion: int, shift: tuple[float, float] = (0.0, 0.0),
        steps: int = STEPS) -> tuple[float, Any] | None:
    """ECC's correlation and the 2x3 warp laying `template` on `image` (float32 greys),
    starting from a shift; None when it does not converge."""
    warp: Any = np.array([[1, 0, shift[0]], [0, 1, shift[1]]], np.float32)
    criteria = (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, steps, 1e-4)
    try:
        correlation, warp = cv2.findTransformECC(template, image, warp, motion, criteria,
                                                 np.full(image.shape[:2], 255, np.uint8), 3)
    except cv2.error:
        return None
    return float(correlation), warp
