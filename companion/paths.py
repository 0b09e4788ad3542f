"""Where the app keeps its files, following the XDG base directories.

Kept apart from config.py so that the journal, the CLI and the tests agree on one
answer without loading a configuration.
"""

from __future__ import annotations

import os
from pathlib import Path

from companion.safe_text import quote

APP = "sorry-companion"
CONFIG_ENV = "SORRY_COMPANION_CONFIG"
SYSTEM_CONFIG = Path("/etc") / APP / "config.toml"
JOURNAL_NAME = "journal.sqlite3"


def _xdg(var: str, fallback: str) -> Path:
    """$VAR when it is an absolute path (as the XDG spec asks), else ~/fallback."""
    value = os.environ.get(var, "")
    if value and os.path.isabs(value):
        return Path(value)
    return Path.home() / fallback


def default_data_dir() -> Path:
    """$XDG_DATA_HOME/sorry-companion, else ~/.local/share/sorry-companion."""
    return _xdg("XDG_DATA_HOME", ".local/share") / APP


def user_config_file() -> Path:
    """$XDG_CONFIG_HOME/sorry-companion/config.toml, else ~/.config/sorry-companion/..."""
    return _xdg("XDG_CONFIG_HOME", ".config") / APP / "config.toml"


def expand_home(path: str | os.PathLike[str], what: str) -> Path:
    """`path` with a leading `~` or `~user` expanded; one sentence (ValueError) when that
    user or the home folder is unknown here, instead of pathlib's RuntimeError."""
    try:
        return Path(path).expanduser()
    except RuntimeError:
        head = str(path).split("/")[0]
        raise ValueError(f"{what} {quote(str(path))} starts with {quote(head)}, the home folder "
                         "of a user this machine does not know; write the folder's full "
                         "path instead") from None


def journal_file(data_dir: str | os.PathLike[str]) -> Path:
    return Path(data_dir) / JOURNAL_NAME
