"""The board game's parts of `make bench` (bench/__main__.py runs them by stage, in the
README table's order): its option generator, bots and resume (`core`), its screen's taps
and Draw (`ui`), and the board camera (`camera`, beside the rest of the camera's work)."""

MODULES = {
    "core": "games.board.bench.core",
    "ui": "games.board.bench.ui",
    "camera": "games.board.camera.bench",
}
