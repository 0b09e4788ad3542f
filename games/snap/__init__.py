"""Snap, the card game of quick eyes: its manifest. Its rules are in `rules` (pure), its
screen in `screens` (Kivy), a seat's button calling "Snap!" in `face`, its picture cards
for the camera in `camera_deck` (pure), its [snap] table in `config` (pure) and its steps
and cards in words in `words` (pure), with its English and French words in locales/."""

from companion.plugins import Manifest

MANIFEST = Manifest(
    name="snap",
    rules="games.snap.rules",
    screens="games.snap.screens",
    face="games.snap.face",
    camera_deck="games.snap.camera_deck",
    config="games.snap.config",
    words="games.snap.words",
)
