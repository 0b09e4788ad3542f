"""The board camera (BOARD-CAMERA.md): the board game refereed from the real board.

Not a pure part of the game: everything here needs the camera's extra (numpy, OpenCV),
imported only when a board is taught or watched, never by the rules or the core.

- `scenes`: synthetic boards of our own design (a print after BOARD.md's geometry, pawns
  with shading and shadows, perspective, light, hands, noise), for the tests and the bench;
- `cells`: the board's locations on its rectified picture;
- `find`: the board found in one photo (its outer corners, which side is red's);
- `model`: what teaching learned, in the data folder's `camera-board.npz`;
- `read`: what a still picture of the board shows, location by location;
- `watch`: which option of the card drawn the board shows, once it rests;
- `command`: `sorry-companion camera teach-board` and `watch-board`.
"""
