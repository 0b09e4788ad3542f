"""The app's default configuration as one file: companion/default_config.toml (the app's
own tables) followed by each game's table(s), games/<name>/config.toml, in name order.
deploy/dist.sh ships this text as the release's companion/default_config.toml, and
deploy/install.sh composes the same from a checkout (its games/*/config.toml, also in
name order) for the config file it writes.

`python -m companion.default_config` prints it.
"""

from __future__ import annotations

from pathlib import Path

from companion import plugins

APP_DEFAULTS = Path(__file__).with_name("default_config.toml")
GAME_DEFAULTS = "config.toml"  # a game folder's commented defaults of its own tables


def game_defaults() -> list[Path]:
    """Each game's file of defaults, by the game's name (a game may have none)."""
    found = (plugins.folder(name) / GAME_DEFAULTS for name in sorted(plugins.names()))
    return [path for path in found if path.is_file()]


def default_config_text() -> str:
    """The whole default configuration, every table with its commented defaults."""
    parts = [APP_DEFAULTS.read_text("utf-8")]
    parts += [path.read_text("utf-8") for path in game_defaults()]
    return "\n".join(part.rstrip("\n") + "\n" for part in parts)


if __name__ == "__main__":
    print(default_config_text(), end="")
