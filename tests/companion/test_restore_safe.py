"""Issue 33: `sorry-companion restore` trusts nothing in a backup and loses nothing of the
journal it replaces. Real SQLite files, the real command line as a subprocess."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
import zlib
from pathlib import Path

import pytest

from companion.backup import make_backup
from companion.journal import Journal
from companion.paths import journal_file

REPO = Path(__file__).resolve().parents[2]
SETUP = {"type": "setup", "players": ["Ana", "Ben"]}
PLAY = {"type": "play", "card": "7"}


def cli(home: Path, *args: str | Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(REPO), "HOME": str(home)}
    env.pop("SORRY_COMPANION_CONFIG", None)
    env.pop("SORRY_COMPANION_TRACEBACK", None)
    done = subprocess.run([sys.executable, "-m", "companion.cli", *map(str, args)],
                          capture_output=True, text=True, env=env, timeout=120, cwd=home)
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr, done.stderr
    return done


def refused(done: subprocess.CompletedProcess[str]) -> str:
    """The one sentence a refused restore prints (exit 1, nothing on stdout)."""
    assert done.returncode == 1, (done.stdout, done.stderr)
    assert done.stderr.count("\n") == 1 and done.stdout == "", done.stderr
    return done.stderr


def play(folder: Path, games: int = 1, events: int = 3) -> None:
    with Journal.open(folder) as journal:
        for _ in range(games):
            gid = journal.start_game(SETUP)
            for _ in range(events):
                journal.append(gid, PLAY)


def files_of(folder: Path) -> dict[str, bytes]:
    """Every file of the data folder, byte for byte (the lock file aside: a restore
    takes the lock, as the app does)."""
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.name != "app.lock"}


def a_backup(tmp_path: Path, games: int = 2) -> Path:
    source = tmp_path / "source"
    play(source, games)
    (source / "settings.json").write_text('{"language": "fr"}')
    return make_backup(source, tmp_path / "backup.sqlite3").path


def stored_events(folder: Path, game_id: int) -> int:
    with sqlite3.connect(journal_file(folder)) as conn:
        return int(conn.execute("SELECT COUNT(*) FROM events WHERE game_id = ?",
                                (game_id,)).fetchone()[0])


@pytest.mark.parametrize("trigger", [
    "CREATE TRIGGER eat AFTER INSERT ON events WHEN new.seq > 1 BEGIN "
    "DELETE FROM events WHERE id = new.id; END",
    "CREATE TRIGGER stop BEFORE INSERT ON games BEGIN SELECT RAISE(ABORT, 'no'); END",
])
def test_a_backup_carrying_a_trigger_is_restored_without_it_and_every_event_is_stored(
        tmp_path: Path, trigger: str) -> None:
    """Before: the trigger came along; 31 events were said saved while 2 were stored, or
    (the aborting one) no new game could be saved at all."""
    backup = a_backup(tmp_path)
    with sqlite3.connect(backup) as conn:
        conn.execute(trigger)
    data = tmp_path / "data"
    play(data)
    done = cli(tmp_path, "--data", data, "restore", backup)
    assert done.returncode == 0, done.stderr
    with Journal.open(data) as journal:
        gid = journal.start_game(SETUP)
        for _ in range(30):
            journal.append(gid, PLAY)
        assert journal.damage == [] and len(journal.load(gid).events) == 31
    assert stored_events(data, gid) == 31
    assert "left out, as they are not the app's: 1 trigger" in done.stdout
    with sqlite3.connect(journal_file(data)) as conn:
        assert conn.execute("SELECT COUNT(*) FROM sqlite_master WHERE type = 'trigger'"
                            ).fetchone()[0] == 0


def _live_copy(tmp_path: Path, events: int) -> Path:
    """A data folder as a power cut leaves it: the journal, its -wal and -shm copied while
    the app has them open (its newest saves only in the -wal)."""
    live = tmp_path / "live"
    journal = Journal.open(live)
    try:
        gid = journal.start_game(SETUP)
        for _ in range(events):
            journal.append(gid, PLAY)
        data = tmp_path / "data"
        data.mkdir()
        for name in ("journal.sqlite3", "journal.sqlite3-wal", "journal.sqlite3-shm"):
            shutil.copyfile(live / name, data / name)
    finally:
        journal.close()
    return data


def test_restore_over_a_damaged_wal_keeps_the_journal_its_wal_and_shm_byte_for_byte(
        tmp_path: Path) -> None:
    """Before: the -wal was folded into the journal and deleted (the copy held 89 of 939
    rows) while the sentence said the old journal was kept."""
    backup = a_backup(tmp_path)
    data = _live_copy(tmp_path, 200)
    wal = data / "journal.sqlite3-wal"
    damaged = bytearray(wal.read_bytes())
    middle = len(damaged) // 2
    damaged[middle:middle + 64] = bytes(b ^ 0x5A for b in damaged[middle:middle + 64])
    wal.write_bytes(bytes(damaged))
    before = files_of(data)
    done = cli(tmp_path, "--data", data, "restore", backup)
    assert done.returncode == 0, done.stderr
    (safety,) = data.glob("journal.sqlite3.before-restore-*[0-9]")
    for side in ("", "-wal", "-shm"):
        kept = Path(f"{safety}{side}")
        assert kept.read_bytes() == before[f"journal.sqlite3{side}"], side
    assert (f"the journal it replaced is kept as {safety}, its -wal as {safety}-wal, its "
            f"-shm as {safety}-shm") in done.stdout
    assert not (data / "journal.sqlite3-wal").exists()  # the old -wal is not the new one's
    with Journal.open(data) as journal:
        assert journal.damage == [] and len(journal.games()) == 2


def test_the_sentence_names_only_what_was_kept(tmp_path: Path) -> None:
    backup = a_backup(tmp_path)
    data = tmp_path / "data"
    play(data)  # closed cleanly: no -wal, no -shm beside the journal
    assert sorted(p.name for p in data.iterdir()) == ["journal.sqlite3"]
    done = cli(tmp_path, "--data", data, "restore", backup)
    (safety,) = data.glob("journal.sqlite3.before-restore-*")
    assert f"the journal it replaced is kept as {safety}\n" in done.stdout
    assert "-wal" not in done.stdout and "-shm" not in done.stdout


@pytest.mark.parametrize("name", ["x" * 296 + ".json", "bad\x00name.json", "../up.json",
                                  "/tmp/abs.json", ".hidden.json", "journal.sqlite3"])
def test_a_bad_file_name_inside_a_backup_is_refused_before_anything_changes(
        tmp_path: Path, name: str) -> None:
    """Before: the journal was replaced first, then writing the file failed, and the
    sentence said "nothing was replaced" (a NUL name: "an internal error")."""
    backup = a_backup(tmp_path)
    with sqlite3.connect(backup) as conn:
        conn.execute("INSERT INTO backup_files VALUES (?, ?)", (name, b"{}"))
    data = _live_copy(tmp_path, 5)
    (data / "settings.json").write_text('{"language": "en"}')
    before = files_of(data)
    err = refused(cli(tmp_path, "--data", data, "restore", backup))
    assert "holds a file" in err and f"nothing in {data} was changed" in err
    assert "\x00" not in err
    assert files_of(data) == before


@pytest.mark.parametrize("change, says", [
    ("ALTER TABLE events DROP COLUMN crc", "its events table has no crc column"),
    ("ALTER TABLE events DROP COLUMN chain", "its events table has no chain column"),
    ("ALTER TABLE games DROP COLUMN game", "its games table has no game column"),
])
def test_a_backup_whose_journal_lacks_a_column_is_refused(tmp_path: Path, change: str,
                                                         says: str) -> None:
    """Before: a backup without the crc column was restored, and then no game could be
    saved, with nothing said on the start screen."""
    backup = a_backup(tmp_path)
    with sqlite3.connect(backup) as conn:
        conn.execute(change)
    data = tmp_path / "data"
    play(data)
    before = files_of(data)
    err = refused(cli(tmp_path, "--data", data, "restore", backup))
    assert says in err and "restore from a file `sorry-companion backup` wrote" in err
    assert files_of(data) == before


def test_a_backup_whose_checksum_chain_breaks_is_refused(tmp_path: Path) -> None:
    """An event rewritten with a matching crc of its own still breaks the chain."""
    backup = a_backup(tmp_path)
    text = '{"type":"play","card":"8"}'
    with sqlite3.connect(backup) as conn:
        conn.execute("UPDATE events SET json = ?, crc = ? WHERE game_id = 1 AND seq = 2",
                     (text, zlib.crc32(text.encode())))
    data = tmp_path / "data"
    play(data)
    before = files_of(data)
    err = refused(cli(tmp_path, "--data", data, "restore", backup))
    assert "is damaged (game 1, event 2: it does not follow the event before it" in err
    assert files_of(data) == before


def test_a_newer_format_is_refused_saying_which(tmp_path: Path) -> None:
    backup = a_backup(tmp_path)
    with sqlite3.connect(backup) as conn:
        conn.execute("PRAGMA user_version=4")
    data = tmp_path / "data"
    play(data)
    err = refused(cli(tmp_path, "--data", data, "restore", backup))
    assert "newer version of the companion (journal format 4, this one reads up to 3)" in err
    assert "update the app, then restore" in err


def test_a_journal_copied_with_its_wal_is_restored_with_the_saves_in_the_wal(
        tmp_path: Path) -> None:
    """A data folder copied after a power cut: its newest saves are only in the -wal
    beside the file; they are restored (read from a private copy, the stick untouched)."""
    stick = _live_copy(tmp_path, 40)
    beside = sorted(p.name for p in stick.iterdir())
    shutil.copyfile(stick / "journal.sqlite3", tmp_path / "alone.sqlite3")  # no -wal
    with sqlite3.connect(tmp_path / "alone.sqlite3") as conn:
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
        held = conn.execute("SELECT COUNT(*) FROM events").fetchone()[0] \
            if "events" in tables else 0
    assert held < 41  # the newest saves are only in the -wal
    stick_before = files_of(stick)
    data = tmp_path / "restored"
    done = cli(tmp_path, "--data", data, "restore", stick / "journal.sqlite3")
    assert done.returncode == 0, done.stderr
    assert "1 game (40 events)" in done.stdout
    assert stored_events(data, 1) == 41
    assert files_of(stick) == stick_before and sorted(p.name for p in stick.iterdir()) == beside


def test_a_failure_during_the_swap_puts_every_file_back(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """The disk refuses the rename that puts the new journal in place (after the old -wal
    was moved aside): the -wal is moved back, and the sentence says nothing changed."""
    from companion.backup import BackupRefused
    from companion.restore import restore_backup

    backup = a_backup(tmp_path)
    data = _live_copy(tmp_path, 5)
    before = files_of(data)
    real = os.replace

    def replace(source: str | os.PathLike[str], target: str | os.PathLike[str]) -> None:
        if Path(target) == journal_file(data):
            raise OSError(5, "Input/output error")
        real(source, target)

    monkeypatch.setattr(os, "replace", replace)
    with pytest.raises(BackupRefused) as info:
        restore_backup(data, backup)
    assert "Input/output error" in str(info.value)
    assert f"nothing in {data} was changed" in str(info.value)
    assert files_of(data) == before
