"""Sorry! Revenge, the card game (RULES.md, TRANSCRIPT.md): its manifest. Its rules are
in `rules` (pure), its screens in `screens` (Kivy), its face on the table's buttons and
LED board in `face`, the cards the camera is taught in `camera_deck` (pure), its bots
for the command line's `simulate` in `simulate_command`, its [deck], [windows] and [game]
tables in `config` (pure; their commented defaults in config.toml), its remembered
pawn cards and variant in `prefs` (pure), its parts of `make bench` in `bench`."""

from companion.plugins import Manifest

MANIFEST = Manifest(
    name="revenge",
    rules="games.revenge.rules",
    screens="games.revenge.screens",
    face="games.revenge.face",
    camera_deck="games.revenge.camera_deck",
    simulate="games.revenge.simulate_command",
    config="games.revenge.config",
    prefs="games.revenge.prefs",
    words="games.revenge.words",
    bench="games.revenge.bench",
)
