"""The Sorry! board game (BOARD.md): its manifest. Its rules are in `rules` (pure), its
screens in `screens` (Kivy), its face on the table's buttons and LED board in `face`,
the cards the camera is taught in `camera_deck` (pure)."""

from companion.plugins import Manifest

MANIFEST = Manifest(
    name="board",
    rules="games.board.rules",
    screens="games.board.screens",
    face="games.board.face",
    camera_deck="games.board.camera_deck",
)
