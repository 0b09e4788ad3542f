"""Issue 21, findings 1-8: every loss of the journal is counted and said, durably, from one
check, whichever path finds it (the app's start, a snapshot resume, History, the CLI).

Real SQLite files written by real processes; a power cut or a full disk is stood in for
only where nothing real exists on this machine (a failing notices.json or -wal copy).
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from journal_damage import crashed_journal, cut_wal, finished_games, flip, row_at

from companion import notices, walcheck
from companion.errors import JournalError
from companion.journal import Journal
from companion.session import Session
from companion.snapshots import Resumable, load_unfinished
from games.revenge.bench.core import long_game, play_with_writer

REPO = Path(__file__).resolve().parents[2]
PAGE = 4096


@pytest.fixture(scope="module")
def crashed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A journal whose newest events (three games, two won) are only in its -wal."""
    folder = tmp_path_factory.mktemp("crashed")
    crashed_journal(folder, 120)
    assert Path(f"{folder}/journal.sqlite3-wal").stat().st_size > 0
    return folder


def _copy(source: Path, tmp_path: Path) -> Path:
    folder = tmp_path / "data"
    shutil.copytree(source, folder)
    return folder


def _bytes(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def _damage_main_file(folder: Path) -> None:
    """Close the journal (checkpoint), then zero a page in the middle of the file."""
    Journal.open(folder).close()
    db = folder / "journal.sqlite3"
    data = bytearray(db.read_bytes())
    middle = len(data) // PAGE // 2
    data[middle * PAGE:(middle + 1) * PAGE] = bytes(PAGE)
    db.write_bytes(bytes(data))


def test_a_repair_is_durable_in_notices_json_before_the_journal_is_used(
        crashed: Path, tmp_path: Path) -> None:
    folder = _copy(crashed, tmp_path)
    _damage_main_file(folder)
    with Journal.open(folder) as journal:
        [repair] = [n for n in journal.damage if n.code == "repaired"]
    assert [r["text"] for r in notices.read(folder)] == [repair]


def test_when_notices_json_cannot_be_written_nothing_is_repaired(
        crashed: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = _copy(crashed, tmp_path)
    _damage_main_file(folder)
    before = _bytes(folder)

    def full_disk(*args: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(notices, "keep", full_disk)
    with pytest.raises(JournalError, match=r"could not be repaired .*nothing was changed"):
        Journal.open(folder)
    after = _bytes(folder)
    assert {k: v for k, v in after.items() if not k.endswith((".salvage", "-shm"))} == before


def test_when_the_wal_cannot_be_copied_to_safety_nothing_is_opened(
        crashed: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Finding 2: a disk too full for the safety copy of the -wal used to skip the check."""
    folder = _copy(crashed, tmp_path)
    before = _bytes(folder)

    def no_space(src: object, dst: object) -> None:
        Path(str(dst)).write_bytes(b"partial")
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(walcheck.shutil, "copyfile", no_space)
    with pytest.raises(JournalError, match=r"could not be copied to safety .*nothing was opened"):
        Journal.open(folder)
    assert _bytes(folder) == before  # the -wal and the journal exactly as they were
    monkeypatch.undo()
    with Journal.open(folder) as journal:  # once it can be made, all is there
        assert sum(r.event_count + 1 for r in journal.games()) == 3 * 121


@pytest.mark.parametrize("cut", [0.25, 0.5, 0.9, 0.999])
def test_a_cut_wal_is_said_and_a_won_game_it_shows_is_never_offered_to_resume(
        crashed: Path, tmp_path: Path, cut: float) -> None:
    """Finding 3: a -wal cut short lost events silently and a won game came back unfinished.
    A game whose winner the kept part of the -wal shows stays won; what lay after the cut
    cannot be counted, and the sentence says where the newest game goes on."""
    folder = _copy(crashed, tmp_path)
    wal = folder / "journal.sqlite3-wal"
    data = wal.read_bytes()
    wal.write_bytes(data[:int(len(data) * cut)])
    with Journal.open(folder) as journal:
        kept = sum(r.event_count + 1 for r in journal.games())
        said = [n for n in journal.damage if n.code == "wal_cut"]
        unfinished = journal.unfinished()
        won = {r.game_id for r in journal.games() if r.winner}
        assert kept < 3 * 121
        [note] = said
        assert "ends in the middle of a save" in note and "goes on after its event" in note
        assert unfinished is None or unfinished.game_id not in won
        if cut > 0.9:
            assert won == {1, 2}


def test_a_damaged_event_under_a_snapshot_is_never_hidden(tmp_path: Path) -> None:
    """Finding 4: the snapshot hid a damaged event; History then cut the live game."""
    objs = long_game(500)
    with Journal.open(tmp_path) as journal:
        game_id = play_with_writer(journal, objs)
    conn = sqlite3.connect(tmp_path / "journal.sqlite3")
    assert conn.execute("SELECT COUNT(*) FROM snapshots").fetchone()[0] > 0
    conn.execute("UPDATE events SET json = json || ' ' WHERE game_id = ? AND seq = 120",
                 (game_id,))  # its text changes, its checksum does not
    conn.commit()
    conn.close()
    with Journal.open(tmp_path) as journal:
        found = load_unfinished(journal)
        assert not isinstance(found, Resumable)  # the sure way: every event read
        assert found is not None and len(found.events) == 120
        [note] = [n for n in journal.damage if n.code == "set_aside"]
        assert note.params["moved"] == len(objs) - 120
    assert [r["code"] for r in notices.read(tmp_path)] == ["set_aside"]


def test_a_repair_keeps_the_snapshots_table(tmp_path: Path) -> None:
    """Finding 5: a repair during a snapshot resume dropped the snapshots table."""
    objs = long_game(400)
    with Journal.open(tmp_path) as journal:
        play_with_writer(journal, objs)
    db = tmp_path / "journal.sqlite3"
    conn = sqlite3.connect(db)
    snaps = conn.execute("SELECT COUNT(*) FROM snapshots").fetchone()[0]
    root = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = 'games'").fetchone()[0]
    conn.close()
    data = bytearray(db.read_bytes())
    data[(root - 1) * PAGE + 8:(root - 1) * PAGE + 64] = bytes(56)  # the games table's page
    db.write_bytes(bytes(data))
    with Journal.open(tmp_path) as journal:
        assert any(n.code == "repaired" for n in journal.damage)
        assert journal.query("SELECT COUNT(*) FROM snapshots")[0][0] == snaps
        found = load_unfinished(journal)
        assert found is not None
        session = Session(journal)
        assert session.resume() is not None


# root reads any folder: the test runs the CLI as `nobody`, with the system's Python (the
# core needs the standard library only), when that is possible
SYSTEM_PYTHON = shutil.which("python3", path="/usr/bin:/bin")
AS_NOBODY = os.geteuid() == 0 and SYSTEM_PYTHON is not None and subprocess.run(
    [SYSTEM_PYTHON, "-c", "import sys; assert sys.version_info >= (3, 11)"],
    capture_output=True).returncode == 0


@pytest.mark.skipif(os.geteuid() == 0 and not AS_NOBODY,
                    reason="as root, needs a system Python 3.11 to run the CLI as nobody")
def test_a_healthy_journal_without_its_shm_in_a_folder_the_user_cannot_write_is_read(
        crashed: Path) -> None:
    """Finding 8: read-only, no -shm, a -wal: it was called "not a journal"."""
    folder = Path(tempfile.mkdtemp(prefix="sorry-ro-", dir="/tmp"))
    # issue 36: the core (and the games' folders its registry loads the rules from)
    # copied where `nobody` can read it, wherever the checkout lives (a clone under
    # `mktemp -d` sits in a folder only root may enter)
    code = Path(tempfile.mkdtemp(prefix="sorry-core-", dir="/tmp"))
    try:
        for package in ("companion", "games"):
            shutil.copytree(REPO / package, code / package,
                            ignore=shutil.ignore_patterns("__pycache__"))
        for path in (code, *code.rglob("*")):
            path.chmod(0o755 if path.is_dir() else 0o644)
        for name in ("journal.sqlite3", "journal.sqlite3-wal"):
            shutil.copyfile(crashed / name, folder / name)
            (folder / name).chmod(0o644)
        folder.chmod(0o555)
        env = {**os.environ, "PYTHONPATH": str(code), "HOME": str(folder),
               "PYTHONDONTWRITEBYTECODE": "1"}
        env.pop("SORRY_COMPANION_CONFIG", None)
        user = {"user": 65534, "group": 65534} if AS_NOBODY else {}
        python = SYSTEM_PYTHON if AS_NOBODY else sys.executable
        done = subprocess.run([str(python), "-m", "companion.cli", "--data", str(folder),
                               "history", "--json"], capture_output=True, text=True,
                              timeout=120, env=env, cwd="/", **user)  # type: ignore[call-overload]
        assert done.returncode == 0, done.stderr
        assert [g["events"] for g in json.loads(done.stdout)] == [120, 120, 120]
        assert sorted(p.name for p in folder.iterdir()) == ["journal.sqlite3",
                                                           "journal.sqlite3-wal"]
    finally:
        folder.chmod(0o755)
        shutil.rmtree(folder)
        shutil.rmtree(code)


def test_history_export_stats_and_replay_say_a_damaged_wal_with_the_same_count(
        crashed: Path, tmp_path: Path) -> None:
    """Finding 7: the read-only commands said nothing about a damaged -wal (`replay` of
    the journal file says it as they do)."""
    folder = _copy(crashed, tmp_path)
    wal = folder / "journal.sqlite3-wal"
    data = bytearray(wal.read_bytes())
    data[32 + 400 * (24 + PAGE) + 24 + 100] ^= 0xFF  # the 401st frame's page content
    wal.write_bytes(bytes(data))
    env = {**os.environ, "PYTHONPATH": str(REPO), "HOME": str(tmp_path)}
    env.pop("SORRY_COMPANION_CONFIG", None)
    said = []
    for command in (["history"], ["export"], ["stats"],
                    ["replay", str(folder / "journal.sqlite3")]):  # issue 21: replay too
        done = subprocess.run([sys.executable, "-m", "companion.cli", "--data", str(folder),
                               *command], capture_output=True, text=True, timeout=120, env=env)
        assert done.returncode == 0, done.stderr
        [line] = [ln for ln in done.stderr.splitlines() if "-wal file" in ln]
        said.append(line.split(" saved events")[0])
    assert (folder / "journal.sqlite3-wal").read_bytes() == bytes(data)  # only looked
    with Journal.open(folder) as journal:
        [note] = [n for n in journal.damage if n.code == "wal_lost"]
    assert said == [f"sorry-companion: {note.params['count']}"] * 4


def test_a_read_only_look_while_the_app_writes_sees_one_consistent_journal(
        tmp_path: Path) -> None:
    """The CLI copies the journal and its -wal while the app appends: a save caught half
    written, or the app restarting its -wal between the two copies, must not read as damage
    (journal_copy: a read transaction, and the copy's -wal ends at its last commit)."""
    import threading

    stop = threading.Event()
    with Journal.open(tmp_path) as writer:
        writer._conn.execute("PRAGMA wal_autocheckpoint=4")  # restarts the -wal very often
        game_id = writer.start_game({"type": "setup", "players": ["Ana", "Ben"]})

        def write() -> None:
            n = 0
            while not stop.is_set():
                writer.append(game_id, {"type": "play", "card": str(n % 11)})
                n += 1

        thread = threading.Thread(target=write)
        thread.start()
        try:
            seen = 0
            for _ in range(15):
                with Journal(tmp_path / "journal.sqlite3", readonly=True) as look:
                    assert look.damage == []
                    count = len(look.load(game_id).events)
                    assert count >= seen
                    seen = count
        finally:
            stop.set()
            thread.join()
    assert seen > 1


def _start(folder: Path) -> list[str]:
    """What the app's first screen says: the journal opened, every game checked, the
    unfinished one previewed (ui.app's on_start)."""
    with Journal.open(folder) as journal:
        session = Session(journal)
        session.check_stored()
        session.preview()
        return list(journal.damage)


def test_a_flipped_bit_in_a_finished_game_is_said_at_the_start_once(tmp_path: Path) -> None:
    """Issue 33: a flipped bit in a finished game's event (3 of 15 flips: games of 5, 278
    and 528 events) was said only once History was opened. Every game's events are
    checked at the start now: the damaged event and those after it are set aside and
    said on the first screen, with the game and the count, and never again."""
    folder = tmp_path / "data"
    lengths = [120, 278, 528]
    ids = finished_games(folder, lengths)
    flip(folder, row_at(folder, ids[1], 200) + 30, 3)  # inside the event's JSON text
    said = _start(folder)
    [note] = said
    assert note.code == "set_aside" and note.params["game"] == ids[1]
    assert note.params["moved"] == lengths[1] - 200 and f"game {ids[1]}" in note
    with Journal.open(folder) as journal:
        listing = Session(journal).stored_stats()
        assert journal.damage == []  # History finds nothing more to say
        assert [r.event_count + 1 for r, _ in listing] == [120, 200, 528]
    notices.dismiss(folder)  # OK tapped
    assert _start(folder) == []


def test_an_event_a_flipped_bit_moved_to_no_game_is_put_back_and_said_once(
        tmp_path: Path) -> None:
    """Issue 33: a flipped bit in an event's game number (a finished game of 547 events)
    made it belong to no game: History cut the game to 269 events and the start said
    "belongs to no game" at every start. The opening rebuilds the journal now, and the
    event goes back where its checksum chain says: nothing is lost, said once."""
    folder = tmp_path / "data"
    [game_id] = finished_games(folder, [547])
    # the record's header: 8 bytes (its size, then a type per column), then the event's
    # number (2 bytes) and its time: game 1 is type 9 ("the integer 1"), flipped to 8 (0)
    at = row_at(folder, game_id, 269) - 2 - 6
    assert game_id == 1 and (folder / "journal.sqlite3").read_bytes()[at] == 9
    flip(folder, at, 0)
    [note] = _start(folder)
    assert note.code == "repaired" and note.params["lost"] == 0
    with Journal.open(folder) as journal:
        assert len(journal.load(game_id).events) == 547
        assert [r.winner for r in journal.games()] == ["Ana"]
    notices.dismiss(folder)
    assert _start(folder) == []


@pytest.mark.parametrize("keep", [0.25, 0.5, 0.9, 0.999, "frame 100", "frame 500", "frame 900"])
def test_a_cut_wal_says_every_event_it_lost_and_names_the_games(
        tmp_path: Path, keep: float | str) -> None:
    """Issue 33: after a cut -wal the sentence counted only the events its remaining
    frames held (8 said where 175 were lost; 40 said, 418 lost). The -shm index the
    crashed app left lists every save after the cut (each one stores page 1, where the
    count is): the count is every event lost, and it names the game that goes on."""
    folder = tmp_path / "data"
    saved = crashed_journal(folder, 120)
    size = (folder / "journal.sqlite3-wal").stat().st_size
    at = (int(size * keep) if isinstance(keep, float)
          else 32 + int(keep.split()[1]) * (24 + PAGE))
    cut_wal(folder, at)
    [note] = _start(folder)
    with Journal.open(folder) as journal:
        kept = sum(len(journal.load(r.game_id).events) for r in journal.games())
    assert note.code == "wal_cut" and note.params["count"] == saved - kept > 0, note
    goes_on = note.params["where"].split()[1]
    assert goes_on in note.params["games"].split(", ") and "saved events are missing" in note
