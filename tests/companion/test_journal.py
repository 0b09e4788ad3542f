"""The journal on real SQLite files: round trips, durability settings, resume, damage.

Damage is made the way it happens: rows rewritten behind the journal's back, bytes
flipped in the file, the file cut short, a file that is no database at all. Write
failures are real ones: a folder the process may not write (immutable for root), a
file-size limit that makes the next write fail.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
import threading
import zlib
from datetime import UTC, datetime
from pathlib import Path

import pytest

from companion.errors import JournalError
from companion.journal import GameRecord, Journal
from companion.session import Session
from games.revenge.rules import Card, Play, Setup

REPO = Path(__file__).resolve().parents[2]
SETUP = {"type": "setup", "players": ["Ana", "Bén", "Zoë"], "first": "Ana",
         "colors": ["red", "blue", "yellow"], "pawns": 4, "variant": "standard"}


def _events(n: int, pad: str = "") -> list[dict]:
    evs: list[dict] = []
    for i in range(n):
        ev: dict = {"type": "play", "card": str(i % 11)}
        if i % 5 == 4:
            ev = {"type": "press", "player": "Zoë", "t": i / 3}
        if pad:
            ev["note"] = pad
        evs.append(ev)
    return evs


def _fill(data: Path, games: int, per_game: int, pad: str = "") -> dict[int, list[dict]]:
    """Games with known events; the last one is left unfinished."""
    stored: dict[int, list[dict]] = {}
    with Journal.open(data) as j:
        for g in range(games):
            gid = j.start_game(SETUP)
            evs = _events(per_game, pad)
            for ev in evs:
                j.append(gid, ev)
            if g < games - 1:
                j.set_result(gid, "Ana")
            stored[gid] = [SETUP, *evs]
    return stored


def _rows(db: Path, sql: str, *, immutable: bool = False) -> list[tuple]:
    """Read a journal file directly, without the journal (immutable: from a frozen folder)."""
    conn = sqlite3.connect(f"file:{db}?immutable=1", uri=True) if immutable else \
        sqlite3.connect(db)
    try:
        return conn.execute(sql).fetchall()
    finally:
        conn.close()


def test_append_and_load_round_trip_on_a_real_file(tmp_path: Path) -> None:
    events = _events(30)
    with Journal.open(tmp_path / "data") as j:
        gid = j.start_game(SETUP)
        for ev in events:
            j.append(gid, ev)
    assert (tmp_path / "data" / "journal.sqlite3").is_file()
    with Journal.open(tmp_path / "data") as j:
        stored = j.load(gid)
        assert stored.events == [SETUP, *events]
        assert stored.damage is None and j.damage == []
        assert stored.started.tzinfo is not None
        assert abs((datetime.now(UTC) - stored.started).total_seconds()) < 3600
        [record] = j.games()
        assert record == GameRecord(gid, stored.started, None, ("Ana", "Bén", "Zoë"), None,
                                    30, False)


def test_each_row_keeps_the_json_as_given_with_time_and_crc(tmp_path: Path) -> None:
    with Journal.open(tmp_path) as j:
        gid = j.start_game(SETUP)
        j.append(gid, {"type": "press", "player": "Zoë", "t": 0.1, "extra": [1, "ü"]})
    [(text, crc, at)] = _rows(tmp_path / "journal.sqlite3",
                              "SELECT json, crc, at FROM events WHERE seq = 1")
    assert text == '{"type":"press","player":"Zoë","t":0.1,"extra":[1,"ü"]}'
    assert crc == zlib.crc32(text.encode("utf-8"))
    assert datetime.fromisoformat(at).tzinfo is not None


def test_wal_and_synchronous_full_are_in_force(tmp_path: Path) -> None:
    with Journal.open(tmp_path) as j:
        assert j.pragmas() == {"journal_mode": "wal", "synchronous": 2, "foreign_keys": 1}
    with Journal.open(tmp_path) as j:  # and again on an existing file
        assert j.pragmas()["journal_mode"] == "wal"
        assert j.pragmas()["synchronous"] == 2


def test_open_creates_the_data_folder(tmp_path: Path) -> None:
    data = tmp_path / "a" / "b"
    with Journal.open(data) as j:
        assert j.games() == []
    assert (data / "journal.sqlite3").is_file()


def test_unfinished_abandon_and_set_result(tmp_path: Path) -> None:
    with Journal.open(tmp_path) as j:
        assert j.unfinished() is None
        first = j.start_game(SETUP)
        second = j.start_game(SETUP)
        j.append(second, {"type": "play", "card": "7"})
        resumed = j.unfinished()
        assert resumed is not None and resumed.game_id == second
        assert resumed.events == [SETUP, {"type": "play", "card": "7"}]
        j.set_result(second, "Zoë")
        assert j.unfinished().game_id == first  # type: ignore[union-attr]
        j.abandon(first)
        assert j.unfinished() is None
        j.set_result(second, None)  # an undo took the win back
        assert j.unfinished().game_id == second  # type: ignore[union-attr]
        records = {r.id: r for r in j.games()}
        assert records[first].abandoned and records[first].winner is None
        assert records[second].winner is None and records[second].finished is None
        j.set_result(second, "Zoë")
        assert j.games()[1].finished is not None


def test_session_keeps_the_journal_equal_to_the_game(tmp_path: Path) -> None:
    with Journal.open(tmp_path) as j:
        session = Session(j)
        session.new_game(Setup.create(["Ana", "Ben"], pawns=1))
        for card in ("10", "10", "1"):
            session.submit(Play(Card.parse(card)))
        session.close_window()  # nobody called: Ana keeps her 21 and wins
        assert j.games()[0].winner == "Ana" and j.unfinished() is None
        session.undo()
        assert j.games()[0].winner is None
        stored = j.unfinished()
        assert stored is not None
        replayed = Session().open_game(stored.game_id, stored.events).state
        assert replayed.to_json() == session.state.to_json()  # type: ignore[union-attr]


def test_append_to_an_unknown_game_is_refused(tmp_path: Path) -> None:
    with Journal.open(tmp_path) as j, pytest.raises(JournalError, match="no game 42"):
        j.append(42, {"type": "close"})
    with Journal.open(tmp_path) as j, pytest.raises(JournalError, match="no game 7"):
        j.load(7)


def test_what_is_not_json_is_refused_before_anything_is_written(tmp_path: Path) -> None:
    with Journal.open(tmp_path) as j:
        gid = j.start_game(SETUP)
        with pytest.raises(JournalError, match="cannot be stored as JSON"):
            j.append(gid, {"type": "press", "t": float("nan")})
        assert j.load(gid).events == [SETUP]


def test_appends_from_several_threads_all_land_in_order(tmp_path: Path) -> None:
    with Journal.open(tmp_path) as j:
        gid = j.start_game(SETUP)

        def worker(k: int) -> None:
            for i in range(25):
                j.append(gid, {"type": "press", "player": f"p{k}", "t": i})

        threads = [threading.Thread(target=worker, args=(k,)) for k in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        events = j.load(gid).events[1:]
    assert len(events) == 100
    for k in range(4):
        assert [e["t"] for e in events if e["player"] == f"p{k}"] == list(range(25))


# --- damage ---


def test_a_row_rewritten_to_garbage_keeps_every_event_before_it(tmp_path: Path) -> None:
    stored = _fill(tmp_path, games=2, per_game=40)
    db = tmp_path / "journal.sqlite3"
    conn = sqlite3.connect(db)
    conn.execute("UPDATE events SET json = '{\"type\": \"pla' WHERE game_id = 2 AND seq = 17")
    conn.commit()
    conn.close()
    with Journal.open(tmp_path) as j:
        game = j.load(2)
        assert game.events == stored[2][:17]
        assert game.damage is not None
        assert "game 2: event 17 was damaged (its checksum does not match)" in game.damage
        assert "the 23 events after it" in game.damage
        assert j.damage == [game.damage]
        assert j.load(1).events == stored[1] and j.load(1).damage is None
        # nothing is deleted: the damaged row and the rows after it are set aside
        kept = _rows(db, "SELECT seq, CAST(json AS TEXT) FROM set_aside ORDER BY seq")
        assert [s for s, _ in kept] == list(range(17, 41))
        assert kept[0][1] == '{"type": "pla'
        # the game goes on from the last good event, and stays so after reopening
        j.append(2, {"type": "undo"})
    with Journal.open(tmp_path) as j:
        game = j.load(2)
        assert game.events == [*stored[2][:17], {"type": "undo"}]
        assert game.damage is not None and "event 17 was damaged" in game.damage


def test_bytes_flipped_in_the_file_are_found_by_the_crc(tmp_path: Path) -> None:
    with Journal.open(tmp_path) as j:
        gid = j.start_game(SETUP)
        for i in range(12):
            j.append(gid, {"type": "play", "card": "slide:15" if i == 8 else "3"})
    db = tmp_path / "journal.sqlite3"
    data = bytearray(db.read_bytes())
    at = data.index(b'"slide:15"')
    data[at + 7] ^= 0x04  # "slide:15" becomes "slide:55": still valid JSON
    db.write_bytes(bytes(data))
    with Journal.open(tmp_path) as j:
        game = j.load(gid)
    assert len(game.events) == 9  # the setup and the eight events before it
    assert game.damage is not None and "event 9 was damaged (its checksum" in game.damage


def test_a_damaged_setup_leaves_nothing_to_resume_but_loses_nothing(tmp_path: Path) -> None:
    _fill(tmp_path, games=1, per_game=5)
    conn = sqlite3.connect(tmp_path / "journal.sqlite3")
    conn.execute("UPDATE events SET crc = crc + 1 WHERE seq = 0")
    conn.commit()
    conn.close()
    with Journal.open(tmp_path) as j:
        assert j.unfinished() is None
        assert "its setup was damaged" in j.damage[0]
        assert "cannot be resumed" in j.damage[0]
    assert len(_rows(tmp_path / "journal.sqlite3", "SELECT * FROM set_aside")) == 6


@pytest.mark.parametrize("fraction", [0.35, 0.6, 0.9])
def test_a_truncated_file_is_rebuilt_from_every_readable_event(
        tmp_path: Path, fraction: float) -> None:
    stored = _fill(tmp_path, games=5, per_game=120, pad="x" * 30)
    db = tmp_path / "journal.sqlite3"
    size = db.stat().st_size
    os.truncate(db, int(size * fraction))
    cut = db.read_bytes()
    with Journal.open(tmp_path) as j:
        [note] = j.damage
        assert note.startswith("journal.sqlite3 was damaged (database disk image is malformed)")
        aside = Path(note.rsplit("kept as ", 1)[1])
        assert aside.name.startswith("journal.sqlite3.damaged-") and aside.parent == tmp_path
        assert aside.read_bytes() == cut  # the damaged file itself is kept as it was
        recovered = {gid: j.load(gid).events for gid in stored}
        assert recovered[1] == stored[1]  # the oldest game's pages come first in the file
        for gid, events in recovered.items():
            assert events == stored[gid][:len(events)]  # whole events only, none changed
        kept = sum(len(e) for e in recovered.values())
        assert kept >= fraction * sum(len(e) for e in stored.values()) * 0.5
        # the repaired journal is healthy: it takes new events and reopens clean
        last = max(gid for gid, events in recovered.items() if events)
        j.append(last, {"type": "close"})
    with Journal.open(tmp_path) as j:
        assert j.damage == []
        assert j.load(last).events[-1] == {"type": "close"}
        assert j.pragmas()["journal_mode"] == "wal"


def test_a_file_that_is_not_a_database_is_renamed_aside_never_deleted(tmp_path: Path) -> None:
    junk = os.urandom(8192)
    (tmp_path / "journal.sqlite3").write_bytes(junk)
    with Journal.open(tmp_path) as j:
        [note] = j.damage
        assert "journal.sqlite3 was not a game journal (it is not a SQLite database)" in note
        assert "a new, empty journal was started" in note
        [aside] = tmp_path.glob("journal.sqlite3.damaged-*")
        assert str(aside) in note
        assert aside.read_bytes() == junk
        gid = j.start_game(SETUP)
        j.append(gid, {"type": "play", "card": "4"})
    with Journal.open(tmp_path) as j:
        assert j.damage == [] and len(j.load(gid).events) == 2


def test_another_programs_database_is_set_aside_untouched(tmp_path: Path) -> None:
    other = tmp_path / "journal.sqlite3"
    conn = sqlite3.connect(other)
    conn.execute("CREATE TABLE photos (name TEXT)")
    conn.execute("INSERT INTO photos VALUES ('beach')")
    conn.commit()
    conn.close()
    before = other.read_bytes()
    with Journal.open(tmp_path) as j:
        assert "SQLite database of something else" in j.damage[0]
    [aside] = tmp_path.glob("journal.sqlite3.damaged-*")
    assert aside.read_bytes() == before


# --- write failures ---


@pytest.fixture
def freeze():
    """Make paths unwritable: chmod for a normal user; root ignores modes, so chattr +i."""
    frozen: list[Path] = []
    root = os.geteuid() == 0
    if root and shutil.which("chattr") is None:
        pytest.skip("running as root without chattr: cannot make a folder unwritable")

    def apply(*paths: Path) -> None:
        for p in paths:
            if root:
                done = subprocess.run(["chattr", "+i", str(p)], capture_output=True)
                if done.returncode:
                    pytest.skip(f"chattr +i is not possible here: {done.stderr.decode()}")
            else:
                p.chmod(0o555 if p.is_dir() else 0o444)
            frozen.append(p)

    yield apply
    for p in reversed(frozen):
        if root:
            subprocess.run(["chattr", "-i", str(p)], check=True)
        else:
            p.chmod(0o755 if p.is_dir() else 0o644)


def test_an_unwritable_data_folder_gives_a_sentence(tmp_path: Path, freeze) -> None:
    freeze(tmp_path)
    with pytest.raises(JournalError) as err:
        Journal.open(tmp_path)
    assert "check that the data folder exists and is writable" in str(err.value)
    with pytest.raises(JournalError, match="cannot create the data folder"):
        Journal.open(tmp_path / "sub")


def test_a_journal_turned_read_only_refuses_and_keeps_what_it_had(
        tmp_path: Path, freeze) -> None:
    stored = _fill(tmp_path, games=1, per_game=3)
    freeze(tmp_path / "journal.sqlite3", tmp_path)
    with pytest.raises(JournalError) as err:
        Journal.open(tmp_path)
    assert "writable" in str(err.value)
    assert _rows(tmp_path / "journal.sqlite3", "SELECT COUNT(*) FROM events",
                 immutable=True) == [(len(stored[1]),)]


def test_a_write_failing_mid_game_refuses_the_event_and_state_stays_equal(
        tmp_path: Path, freeze) -> None:
    j = Journal.open(tmp_path)
    session = Session(j)
    session.new_game(Setup.create(["Ana", "Ben"]))
    session.submit(Play(Card.parse("7")))
    before = session.state
    freeze(tmp_path / "journal.sqlite3-wal", tmp_path / "journal.sqlite3", tmp_path)
    with pytest.raises(JournalError, match=r"nothing was saved|not accepted"):
        session.submit(Play(Card.parse("5")))
    assert session.state is before
    j.close()


FSIZE_CHILD = r"""
import os, resource, signal, sys
from companion.errors import JournalError
from games.revenge.rules import Card, Play, Setup
from companion.journal import Journal
from companion.session import Session
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
data = sys.argv[1]
j = Journal.open(data)
s = Session(j)
s.new_game(Setup.create(["Ana", "Ben"]))
s.submit(Play(Card.parse("7")))
soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
wal = os.path.getsize(os.path.join(data, "journal.sqlite3-wal"))
resource.setrlimit(resource.RLIMIT_FSIZE, (wal, hard))  # the disk is full
before = s.state
try:
    s.submit(Play(Card.parse("5")))
except JournalError as exc:
    print("refused:", exc)
print("state unchanged:", s.state is before)
resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))  # space was freed
s.submit(Play(Card.parse("3")))
print("total:", s.state.total)
"""


def test_a_full_disk_refuses_the_event_and_the_game_goes_on(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-c", FSIZE_CHILD, str(tmp_path)],
                          capture_output=True, text=True, cwd=REPO, timeout=60)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("refused: ") and "was not accepted" in lines[0]
    assert "Traceback" not in done.stdout + done.stderr
    assert lines[1:] == ["state unchanged: True", "total: 10"]
    with Journal.open(tmp_path) as j:
        events = j.unfinished().events  # type: ignore[union-attr]
    assert [e.get("card") for e in events[1:]] == ["7", "3"]


def test_each_game_row_stores_its_games_name(tmp_path: Path) -> None:
    with Journal.open(tmp_path) as j:
        j.start_game(SETUP)
        j.start_game({"type": "setup", "game": "board", "players": ["Ana", "Ben"]})
        assert [r.game for r in j.games()] == ["revenge", "board"]
    assert _rows(tmp_path / "journal.sqlite3", "SELECT game FROM games") == [
        ("revenge",), ("board",)]
