"""`sorry-companion backup` / `restore` (companion/backup.py) on real SQLite files, with a
real writer process playing a game while the backup runs."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.backup import RESTORED_CONFIG, BackupRefused, make_backup
from companion.cli import main
from companion.journal import Journal
from companion.paths import journal_file
from companion.restore import restore_backup
from companion.stats import replay_events

HERE = Path(__file__).parent
REPO = HERE.parent.parent
CHILD = HERE / "crash_child.py"


def _games(path: Path) -> dict[int, list[dict[str, object]]]:
    """Every game of a journal or backup file, loaded and checked (CRC, order)."""
    with Journal(path, readonly=True) as journal:
        assert journal.damage == []
        return {r.game_id: journal.load(r.game_id).events for r in journal.games()}


class Writer:
    """crash_child.py: a real process playing random card games through Session(Journal)."""

    def __init__(self, data: Path) -> None:
        env = {**os.environ, "PYTHONPATH": str(REPO)}
        self.proc = subprocess.Popen([sys.executable, str(CHILD), str(data), "7"],
                                     stdout=subprocess.PIPE, text=True, env=env, cwd=REPO)
        self.acks = 0

    def wait_acks(self, more: int) -> int:
        """Read its lines until `more` further events are journalled; the total so far."""
        assert self.proc.stdout is not None
        target = self.acks + more
        while self.acks < target:
            line = self.proc.stdout.readline()
            assert line, "the writer stopped by itself"
            self.acks += line.startswith("A ")
        return self.acks

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()
        assert self.proc.stdout is not None
        self.proc.stdout.close()


@pytest.fixture
def writer(tmp_path: Path) -> Iterator[Writer]:
    w = Writer(tmp_path / "data")
    try:
        yield w
    finally:
        if w.proc.poll() is None:
            w.kill()


def test_backup_while_a_game_is_written_is_consistent_and_replays(
        tmp_path: Path, writer: Writer) -> None:
    before = writer.wait_acks(150)
    summary = make_backup(tmp_path / "data", tmp_path / "copy.sqlite3")
    after = writer.wait_acks(30)  # the writer was never held up by the backup
    writer.kill()
    copy = _games(summary.path)
    final = _games(journal_file(tmp_path / "data"))
    events = sum(len(e) - 1 for e in copy.values())
    assert summary.events == events
    assert before <= events < after + len(final)  # a snapshot taken during the writes
    for game_id, stored in copy.items():
        assert stored == final[game_id][:len(stored)]  # a prefix: whole transactions only
        game, problem = replay_events(stored)
        assert game is not None and problem is None
    assert not Path(f"{summary.path}-wal").exists()  # one self-contained file
    with sqlite3.connect(summary.path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"


def _played(data: Path, games: int = 2) -> dict[int, list[dict[str, object]]]:
    with Journal.open(data) as journal:
        for n in range(games):
            gid = journal.start_game({"type": "setup", "players": ["Ana", f"Ben{n}"]})
            journal.append(gid, {"type": "play", "card": "7"})
    (data / "settings.json").write_text('{"language": "fr"}')
    (data / "choices.json").write_text('{"players": ["Ana"]}')
    return _games(journal_file(data))


def test_restore_puts_games_and_choices_back_and_keeps_the_old_journal(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "config.toml"
    config.write_text('language = "fr"\n')
    old = tmp_path / "old"
    saved = _played(old)
    assert main(["--config", str(config), "--data", str(old), "backup",
                 str(tmp_path)]) == 0
    (backup,) = tmp_path.glob("sorry-companion-backup-*.sqlite3")
    assert f"2 games (2 events) and choices.json, settings.json, config.toml in {backup}" \
        in capsys.readouterr().out

    new = tmp_path / "new"  # a new SD card, where a game was already played
    replaced = _played(new, games=1)
    (new / "settings.json").write_text('{"language": "en"}')
    assert main(["--config", str(config), "--data", str(new), "restore", str(backup)]) == 0
    out = capsys.readouterr().out
    assert _games(journal_file(new)) == saved
    (safety,) = new.glob("journal.sqlite3.before-restore-*[0-9]")  # (its -wal and -shm too)
    assert _games(safety) == replaced and str(safety) in out
    assert json.loads((new / "settings.json").read_text()) == {"language": "fr"}
    (old_settings,) = new.glob("settings.json.before-restore-*")
    assert json.loads(old_settings.read_text()) == {"language": "en"}
    assert (new / RESTORED_CONFIG).read_text() == 'language = "fr"\n'
    assert "sudo cp" in out
    with Journal.open(new) as journal:  # the app opens it and goes on writing
        assert journal.damage == [] and len(journal.games()) == 2
        assert "backup_files" not in {r[0] for r in journal._read(
            "SELECT name FROM sqlite_master")}


def _refusal(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    return err


def test_restore_refuses_while_the_app_runs(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    data = tmp_path / "data"
    _played(data)
    backup = make_backup(data, tmp_path / "b.sqlite3").path
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys; from companion.datalock import DataLock; "
         f"DataLock({str(data)!r}).acquire(); print('held', flush=True); sys.stdin.read()"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONPATH": str(REPO)})
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        before = journal_file(data).read_bytes()
        err = _refusal(["--data", str(data), "restore", str(backup)], capsys)
        assert "the app is running" in err and f"pid {holder.pid}" in err
        assert "systemctl stop sorry-companion" in err
        assert journal_file(data).read_bytes() == before
        assert not list(data.glob("*before-restore*"))
    finally:
        holder.kill()
        holder.wait()
        assert holder.stdout is not None
        holder.stdout.close()


@pytest.mark.parametrize("content, says", [
    (b"not a database at all, just text\n" * 40, "is not a backup of the companion"),
    (None, "holds no game journal"),
    (b"", "holds no game journal"),
])
def test_restore_refuses_a_file_that_is_not_a_journal(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes | None,
        says: str) -> None:
    data = tmp_path / "data"
    saved = _played(data)
    bad = tmp_path / "bad.sqlite3"
    if content is None:
        with sqlite3.connect(bad) as conn:
            conn.execute("CREATE TABLE photos (id INTEGER)")
    else:
        bad.write_bytes(content)
    err = _refusal(["--data", str(data), "restore", str(bad)], capsys)
    assert says in err and "sorry-companion backup" in err
    assert _games(journal_file(data)) == saved


def test_backup_refusals_are_one_sentence(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    err = _refusal(["--data", str(tmp_path / "empty"), "backup", str(tmp_path / "b")], capsys)
    assert "nothing to back up" in err
    _played(tmp_path / "data")
    err = _refusal(["--data", str(tmp_path / "data"), "backup",
                    str(tmp_path / "no" / "such" / "b.sqlite3")], capsys)
    assert "cannot write" in err
    err = _refusal(["--data", str(tmp_path / "data"), "restore", str(tmp_path / "nope")],
                   capsys)
    assert "is not a file" in err


def test_backup_syncs_the_file_and_its_folder(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    _played(tmp_path / "data")
    synced: list[str] = []
    real = os.fsync

    def fsync(fd: int) -> None:
        synced.append(os.readlink(f"/proc/self/fd/{fd}"))
        real(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    out = tmp_path / "out"
    out.mkdir()
    path = make_backup(tmp_path / "data", out / "b.sqlite3").path
    assert synced.index(str(out / ".b.sqlite3.partial")) < synced.index(str(out))
    assert path.exists() and not (out / ".b.sqlite3.partial").exists()


def test_a_newer_journal_format_is_refused(tmp_path: Path) -> None:
    data = tmp_path / "data"
    _played(data)
    backup = make_backup(data, tmp_path / "b.sqlite3").path
    with sqlite3.connect(backup) as conn:
        conn.execute("PRAGMA user_version=99")
    with pytest.raises(BackupRefused, match="newer version"):
        restore_backup(data, backup)


def test_a_backup_of_an_older_journal_format_restores_and_opens(tmp_path: Path) -> None:
    """A format-1 journal (before each game's name was stored), as backed up by an older
    version, is restored; the app's journal migrates it when it opens it."""
    old = tmp_path / "old"
    old.mkdir()
    (old / "journal.sqlite3").write_bytes(
        (REPO / "tests" / "fixtures" / "journal-before-slices.sqlite3").read_bytes())
    with sqlite3.connect(old / "journal.sqlite3") as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == 1
    backup = make_backup(old, tmp_path / "b.sqlite3")
    restored = restore_backup(tmp_path / "new", backup.path)
    assert restored.backup.games == backup.games == 6
    with Journal.open(tmp_path / "new") as journal:
        assert journal.damage == [] and len(journal.games()) == backup.games


def test_the_summary_counts_in_real_plurals():
    """"1 game (1 event)", never "1 events" (the catalogue's plural forms, issue 20)."""
    from companion.backup import BackupSummary

    assert BackupSummary(Path("/m/b.sqlite3"), 1, 1, ()).sentence() == \
        "1 game (1 event) in /m/b.sqlite3"
    assert BackupSummary(Path("/m/b.sqlite3"), 2, 1234, ()).sentence() == \
        "2 games (1,234 events) in /m/b.sqlite3"
