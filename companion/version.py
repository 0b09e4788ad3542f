"""Which version of the app runs here, and which one waits for the next start.

The screen shows `version_line()` (Menu or Settings), so a parent can tell whether an
update went through. deploy/install.sh puts each release in its own folder,
/opt/sorry-companion/versions/<release>, and points the link `current` at the one that
runs. An update that arrives while the service is running is staged as the link `next`
and is switched to when the service next starts: it never interrupts a game.
"""

from __future__ import annotations

import os
from pathlib import Path

from companion import __version__

INSTALL_ROOT = Path("/opt/sorry-companion")
STAGED_LINK = "next"


def running_version() -> str:
    """The version of the code running in this process, e.g. "0.1.0"."""
    return __version__


def waiting_update(root: Path = INSTALL_ROOT) -> str | None:
    """The release staged to start at the next start of the service, or None.

    >>> waiting_update(Path("/nonexistent")) is None
    True
    """
    try:
        return Path(os.readlink(root / STAGED_LINK)).name
    except OSError:
        return None


def version_line(root: Path = INSTALL_ROOT) -> str:
    """One line for the screen: the running version, and a waiting update if any."""
    staged = waiting_update(root)
    line = f"version {running_version()}"
    if staged:
        line += f" (update {staged} starts at the next start)"
    return line


def game_in_progress(config_path: str | os.PathLike[str] | None = None) -> bool:
    """True when the journal (read only) has a game that would resume: an update waits.

    deploy/install.sh asks this before restarting the service for a new release, so an
    update never interrupts a game; a journal it cannot read counts as a game on.
    """
    from companion.config import load_config
    from companion.errors import CompanionError, JournalError
    from companion.journal import Journal
    from companion.paths import journal_file

    try:
        path = journal_file(load_config(config_path).data_dir)
        if not path.exists():
            return False
        journal = Journal(path, readonly=True)
        try:
            return journal.unfinished() is not None
        finally:
            journal.close()
    except (CompanionError, JournalError, OSError):
        return True
