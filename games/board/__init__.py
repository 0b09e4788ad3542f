"""The Sorry! board game (BOARD.md): its manifest. Its rules are in `rules` (pure), its
screens in `screens` (Kivy), its face on the table's buttons and LED board in `face`,
the cards the camera is taught in `camera_deck` (pure), the board camera's commands in
`camera_command` and its watcher in the app in `camera_watch` (their work in `camera`,
which needs the camera's extra), its bots for the command line's `simulate` in
`simulate_command`, its `board` command in `commands`, its [board] table in `config`
(pure; its commented defaults in config.toml), its parts of `make bench` in `bench`."""

from companion.plugins import Manifest

MANIFEST = Manifest(
    name="board",
    rules="games.board.rules",
    screens="games.board.screens",
    face="games.board.face",
    camera_deck="games.board.camera_deck",
    camera_commands="games.board.camera_command",
    camera_watch="games.board.camera_watch",
    commands="games.board.commands",
    simulate="games.board.simulate_command",
    config="games.board.config",
    words="games.board.words",
    bench="games.board.bench",
)
