"""The Sorry! board game on the touchscreen (BOARD.md).

- `layout`: where each location of the board sits on a 16x16 grid (pure, no Kivy);
- `picker`: which taps pick which listed option (pure, no Kivy);
- `texts`: the board screen's English and French sentences;
- `board_view`: the board drawn with Kivy graphics, pawns and highlights;
- `model`, `board_screen`, `setup_screen`: the screens and what they bind to;
- `slice`: what the app asks of the board game (ui.games).
"""

from games.board.screens.slice import SLICE

__all__ = ["SLICE"]
