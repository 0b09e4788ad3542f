"""What teaching found, drawn over the teach photo (needs the extra): the board's outline,
its track and safety squares, START and HOME (games.board.grid's spots, as the camera reads
them), so a parent sees at a glance whether the board was found where it lies."""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np

from games.board.camera import cells
from games.board.grid import ZONE_RADIUS, key_spot

OUTLINE_BGR = (0, 200, 255)  # amber, as the card camera's pile spot
SQUARE_BGR = (255, 255, 255)
ZONE_BGR = (255, 0, 255)  # magenta: seen on every side's tint
HANDLE = 5  # a corner's dot, in line widths
CIRCLE_POINTS = 24  # a START or HOME circle's outline


def drawn(photo: Any, corners: Any, colors: tuple[str, ...]) -> Any:
    """A copy of `photo` with the board found at `corners` (pixels, clockwise from T0's)."""
    out = photo.copy()
    to_photo = cv2.getPerspectiveTransform(cells.corners_cells(), np.asarray(corners, np.float32))
    thick = max(1, round(max(photo.shape[:2]) / 400))

    def outline(points: Any, bgr: tuple[int, int, int], width: int) -> None:
        moved = cv2.perspectiveTransform(np.asarray(points, np.float32)[None], to_photo)[0]
        cv2.polylines(out, [np.round(moved).astype(np.int32)], True, bgr, width, cv2.LINE_AA)

    for key in cells.squares(colors):
        x0, y0, x1, y1 = cells.box(key)
        outline([(x0, y0), (x1, y0), (x1, y1), (x0, y1)], SQUARE_BGR, 1)
    angles = np.linspace(0, 2 * np.pi, CIRCLE_POINTS, endpoint=False)
    for key in cells.zones(colors):
        x, y = key_spot(key)
        outline(np.stack([(x + ZONE_RADIUS * np.cos(angles)) * cells.CELL,
                          (y + ZONE_RADIUS * np.sin(angles)) * cells.CELL], 1), ZONE_BGR, thick)
    outline(cells.corners_cells(), OUTLINE_BGR, thick + 1)
    for x, y in np.asarray(corners, np.float32):  # the handles a finger drags
        cv2.circle(out, (round(float(x)), round(float(y))), HANDLE * thick, OUTLINE_BGR, -1,
                   cv2.LINE_AA)
    return out
