"""Issue 9, finding 10: sentences that said the wrong thing.

A healthy journal in a folder this user cannot write is read, not "repaired"; an
integrity error on append is not "there is no game"; a newer journal with a renamed
table is "newer", not "not a game journal"; an unreadable HOME or data folder is not
"could not write the output".
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from test_journal import _fill, freeze  # noqa: F401  (freeze is a fixture)

from companion.errors import JournalError
from companion.journal import SCHEMA_VERSION, Journal

REPO = Path(__file__).resolve().parents[2]


def test_a_healthy_journal_in_a_read_only_folder_is_read(tmp_path: Path, freeze) -> None:  # noqa: F811
    _fill(tmp_path, games=2, per_game=3)
    for side in tmp_path.glob("journal.sqlite3-*"):
        side.unlink()
    freeze(tmp_path / "journal.sqlite3", tmp_path)
    with Journal(tmp_path / "journal.sqlite3", readonly=True) as j:
        assert len(j.games()) == 2


def test_an_integrity_error_on_append_is_not_no_such_game(tmp_path: Path) -> None:
    with Journal.open(tmp_path) as j:
        gid = j.start_game({"type": "setup", "players": ["Ana", "Ben"]})
        conn = sqlite3.connect(tmp_path / "journal.sqlite3")
        conn.execute("CREATE TRIGGER clash BEFORE INSERT ON events BEGIN "
                     "SELECT RAISE(ABORT, 'UNIQUE constraint failed: events.game_id, "
                     "events.seq'); END")
        conn.commit()
        conn.close()
        with pytest.raises(JournalError) as err:
            j.append(gid, {"type": "play", "card": "7"})
    assert "there is no game" not in str(err.value)
    assert "already taken" in str(err.value) and "not accepted" in str(err.value)


def test_a_newer_journal_with_a_renamed_table_is_not_set_aside(tmp_path: Path) -> None:
    _fill(tmp_path, games=1, per_game=2)
    conn = sqlite3.connect(tmp_path / "journal.sqlite3")
    conn.execute("ALTER TABLE set_aside RENAME TO kept_aside")
    conn.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    conn.commit()
    conn.close()
    for readonly in (True, False):
        with pytest.raises(JournalError, match="newer version"):
            Journal(tmp_path / "journal.sqlite3", readonly=readonly)
    assert not list(tmp_path.glob("*damaged*"))


def test_an_unusable_home_is_named_not_the_output(tmp_path: Path) -> None:
    """A HOME the config lookup cannot stat (here a name too long: root reads any folder,
    so EACCES cannot be made; both are the same OSError with a file name)."""
    home = tmp_path / ("h" * 300)
    env = {**os.environ, "HOME": str(home), "PYTHONPATH": str(REPO)}
    for var in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "SORRY_COMPANION_CONFIG"):
        env.pop(var, None)
    done = subprocess.run([sys.executable, "-m", "companion.cli", "history"], env=env,
                          cwd=REPO, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert "could not write the output" not in done.stderr
    [line] = done.stderr.splitlines()
    assert line.startswith("sorry-companion: cannot use ") and "hhhh" in line


def test_history_never_prints_a_terminal_escape_from_an_old_journal(tmp_path: Path) -> None:
    _fill(tmp_path, games=1, per_game=1)
    conn = sqlite3.connect(tmp_path / "journal.sqlite3")
    conn.execute("""UPDATE games SET players = '["\\u001b[2JAna", "Ben"]'""")
    conn.commit()
    conn.close()
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run([sys.executable, "-m", "companion.cli", "--data", str(tmp_path),
                           "history"], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "\x1b" not in done.stdout and "\\x1b[2JAna" in done.stdout
