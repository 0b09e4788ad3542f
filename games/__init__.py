"""The games, one folder each: games/<name>/ holds everything of that game across the
layers, and its `__init__.py` is its manifest (companion.plugins.Manifest). The shared
code loops over this registry and never names a game: adding a game is its folder and
one line here (docs/DECISIONS.md, "One folder per game").

Pure: only names here, so the registry loads no game.
"""

# name (a setup's "game") -> the package of its folder, in the first screen's order
PLUGINS = {
    "revenge": "games.revenge",
    "board": "games.board",
}

# Games kept as the tests' fixtures, not offered by the app nor shipped in the wheel
# (docs/DECISIONS.md, "Snap, the third game"): a test registers one as its line above would.
FIXTURES = {
    "snap": "games.snap",
}

# The game of a setup without "game": every journal and transcript before the board game.
DEFAULT = "revenge"
