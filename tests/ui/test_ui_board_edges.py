"""The board's outer squares drawn whole (issue 35.7): at 800x480 the board met the
screen's left edge and its leftmost column and bottom row lost their outer border line,
so the leftmost track column looked cut narrow. By touch on the real app: a classic game
started from the setup screen, the screen drawn as seen, its pixels read back."""

from __future__ import annotations

import cv2
import numpy as np
from layout_helpers import picture, shot_path
from test_ui_board_whole_game import start_by_touch

from games.board.screens.board_view import GRID_LINE

GRID = 16  # squares a side


def test_every_outer_square_has_its_border_and_the_board_a_margin(driver):
    d = driver()
    start_by_touch(d, ["Ana", "Ben"], "classic")
    path = picture(d, shot_path((800, 480), "board-start", "en"))
    image = cv2.imread(str(path))  # rows top-down, BGR
    height = image.shape[0]
    board = d.app.screen("board").ids.board
    left, bottom = (round(v) for v in board.to_window(*board.origin()))
    last = round(board.side) - 1  # the texture's last pixel from its first
    line = np.array([round(v * 255) for v in GRID_LINE[2::-1]])  # BGR

    def drawn(x: int, y: int) -> bool:  # y in the window's coordinates (up)
        return bool(np.abs(image[height - 1 - y, x].astype(int) - line).max() <= 2)

    centres = [round((k + 0.5) * board.cell) for k in range(GRID)]
    missing = [f"{side} {k}" for k, c in enumerate(centres) for side, x, y in (
        ("left", left, bottom + c), ("right", left + last, bottom + c),
        ("bottom", left + c, bottom), ("top", left + c, bottom + last),
    ) if not drawn(x, y)]
    assert not missing, f"outer border missing at {missing}"
    assert left >= 2, "the board touches the screen's edge"
