"""Issue 33: hostile backups given to `sorry-companion restore` end in one sentence, never a
traceback, and leave the current journal byte for byte as it was unless they restore.

Each case is a real backup of a real journal, spoiled by one to three of the ways a file
from outside can be wrong: triggers, views, indexes and tables that are not the app's,
the app's tables turned into views or virtual tables, missing columns, values of the
wrong kind, values over the size limit, bad file names and contents, a future format,
broken checksums and chains, duplicate and orphan events, cut, bit-flipped and zeroed
files, a -wal beside it (random, another journal's, cut or flipped), a FIFO or a device
in its place. The data folder restored into is a journal with its -wal and -shm as a
power cut leaves them. RESTORE_FUZZ_CASES sets the count (`make fuzz`: 500).
"""

from __future__ import annotations

import contextlib
import io
import os
import random
import shutil
import sqlite3
import tempfile
import zlib
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.backup import make_backup
from companion.cli import main
from companion.journal import Journal

CASES = int(os.environ.get("RESTORE_FUZZ_CASES", "20"))
RAN = {"cases": 0, "refused": 0, "restored": 0, "tracebacks": 0, "changed": 0}
SIDES = ("", "-wal", "-shm")
HOSTILE_VALUES = ["x", "", 1.5, b"\x00\xff", None, 2**62, -1, "[1, 2]", "\x1b[2J\u202e"]
HOSTILE_NAMES = ["x" * 300 + ".json", "a\x00.json", "../up.json", "/etc/x.json",
                 ".hidden.json", "a/b.json", "settings.json\n", "notes.txt", "app.lock",
                 "journal.sqlite3", "", "\u202e.json", 5, b"name.json", "settings.json"]
HOSTILE_CONTENTS = [b"not json", b"\xff\xfe{}", b"[" * 100_000 + b"]" * 100_000,
                    b"{" + b" " * (2 << 20) + b"}", "{}", 7, None, b'{"a": NaN}']
COLUMNS = {"games": ["id", "started", "finished", "players", "winner", "abandoned", "game"],
           "events": ["game_id", "seq", "at", "json", "crc", "chain"],
           "set_aside": ["game_id", "seq", "at", "json", "crc", "reason", "moved"],
           "backup_files": ["name", "content"]}
TRIGGERS = [
    "CREATE TRIGGER t{n} AFTER INSERT ON events BEGIN DELETE FROM events WHERE id = new.id; END",
    "CREATE TRIGGER t{n} BEFORE INSERT ON games BEGIN SELECT RAISE(ABORT, 'no'); END",
    "CREATE TRIGGER t{n} AFTER UPDATE ON games BEGIN DELETE FROM events; END",
    "CREATE TRIGGER t{n} BEFORE DELETE ON set_aside BEGIN SELECT RAISE(FAIL, 'kept'); END",
]


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A backup (2 games, a set-aside row, settings and config) and a data folder whose
    journal's -wal and -shm are as a power cut leaves them."""
    root = tmp_path_factory.mktemp("restore-fuzz")
    source = root / "source"
    with Journal.open(source) as journal:
        for n in range(2):
            gid = journal.start_game({"type": "setup", "players": ["Ana", f"Ben{n}"]})
            for _ in range(5):
                journal.append(gid, {"type": "play", "card": "7"})
        journal.set_aside(gid, 5, "a test")
    (source / "settings.json").write_text('{"language": "fr"}')
    config = root / "config.toml"
    config.write_text("")
    make_backup(source, root / "backup.sqlite3", config_file=config)
    live = Journal.open(root / "live")
    try:
        gid = live.start_game({"type": "setup", "players": ["Cy", "Dee"]})
        for _ in range(30):
            live.append(gid, {"type": "play", "card": "4"})
        (root / "data").mkdir()
        for side in SIDES:
            shutil.copyfile(root / "live" / f"journal.sqlite3{side}",
                            root / "data" / f"journal.sqlite3{side}")
    finally:
        live.close()
    (root / "data" / "settings.json").write_text('{"language": "en"}')
    return root


# --- the ways a backup can be spoiled; each changes `path` (the backup) in place ---

def _sql(path: Path, *statements: str, params: tuple[object, ...] = ()) -> None:
    with contextlib.suppress(sqlite3.Error), contextlib.closing(
            sqlite3.connect(path, isolation_level=None)) as conn:
        for statement in statements:
            conn.execute(statement, params if "?" in statement else ())


def trigger(path: Path, rnd: random.Random) -> None:
    _sql(path, rnd.choice(TRIGGERS).format(n=rnd.randrange(10**6)))


def view(path: Path, rnd: random.Random) -> None:
    _sql(path, f"CREATE VIEW v{rnd.randrange(10**6)} AS WITH RECURSIVE c(x) AS (SELECT 1 "
         "UNION ALL SELECT x + 1 FROM c) SELECT x FROM c")


def table_as_view(path: Path, rnd: random.Random) -> None:
    table = rnd.choice(list(COLUMNS))
    _sql(path, f"ALTER TABLE {table} RENAME TO old_{table}",
         f"CREATE VIEW {table} AS SELECT * FROM old_{table}")


def virtual_table(path: Path, rnd: random.Random) -> None:
    table = rnd.choice(list(COLUMNS))
    _sql(path, f"DROP TABLE {table}",
         f"CREATE VIRTUAL TABLE {table} USING fts5({', '.join(COLUMNS[table])})")


def extra_table(path: Path, rnd: random.Random) -> None:
    _sql(path, "CREATE TABLE photos (x)", "INSERT INTO photos VALUES (?)",
         params=(rnd.randbytes(100),))


def expression_index(path: Path, rnd: random.Random) -> None:
    _sql(path, f"CREATE INDEX ix{rnd.randrange(10**6)} ON events(length(json) * 2)")


def computed_column(path: Path, rnd: random.Random) -> None:
    _sql(path, f"ALTER TABLE {rnd.choice(['games', 'events'])} ADD COLUMN g AS (1 + 1)")


def missing_column(path: Path, rnd: random.Random) -> None:
    table = rnd.choice(list(COLUMNS))
    _sql(path, f"ALTER TABLE {table} DROP COLUMN {rnd.choice(COLUMNS[table])}")


def wrong_kind(path: Path, rnd: random.Random) -> None:
    table = rnd.choice(list(COLUMNS))
    _sql(path, f"UPDATE {table} SET {rnd.choice(COLUMNS[table])} = ? WHERE rowid IN (SELECT "
         f"rowid FROM {table} ORDER BY random() LIMIT 1)", params=(rnd.choice(HOSTILE_VALUES),))


def huge_value(path: Path, rnd: random.Random) -> None:
    table = rnd.choice(list(COLUMNS))
    big = "x" * ((1 << 20) + rnd.randrange(1, 1 << 20))
    _sql(path, f"UPDATE {table} SET {rnd.choice(COLUMNS[table])} = ? WHERE rowid IN (SELECT "
         f"rowid FROM {table} LIMIT 1)", params=(big,))


def bad_file_name(path: Path, rnd: random.Random) -> None:
    _sql(path, "INSERT INTO backup_files VALUES (?, ?)",
         params=(rnd.choice(HOSTILE_NAMES), b"{}"))


def bad_file_content(path: Path, rnd: random.Random) -> None:
    _sql(path, "UPDATE backup_files SET content = ? WHERE rowid IN (SELECT rowid FROM "
         "backup_files ORDER BY random() LIMIT 1)", params=(rnd.choice(HOSTILE_CONTENTS),))


def future_format(path: Path, rnd: random.Random) -> None:
    _sql(path, f"PRAGMA user_version={rnd.choice([4, 99, 2**31 - 1, -1, 0])}")


def broken_chain(path: Path, rnd: random.Random) -> None:
    text = f'{{"type":"play","card":"{rnd.randrange(13)}"}}'
    _sql(path, "UPDATE events SET json = ?, crc = ? WHERE id IN (SELECT id FROM events "
         "ORDER BY random() LIMIT 1)", params=(text, zlib.crc32(text.encode())))


def broken_crc(path: Path, rnd: random.Random) -> None:
    _sql(path, "UPDATE events SET crc = crc + ? WHERE id IN (SELECT id FROM events ORDER BY "
         "random() LIMIT 1)", params=(rnd.randrange(1, 1000),))


def orphan_or_duplicate(path: Path, rnd: random.Random) -> None:
    if rnd.random() < 0.5:
        _sql(path, "UPDATE events SET game_id = 999 WHERE game_id = 1")
    else:
        _sql(path, "CREATE TABLE e2 AS SELECT * FROM events", "DROP TABLE events",
             "ALTER TABLE e2 RENAME TO events",
             "INSERT INTO events SELECT * FROM events ORDER BY random() LIMIT 1")


def cut(path: Path, rnd: random.Random) -> None:
    data = path.read_bytes()
    path.write_bytes(data[:rnd.randrange(len(data) + 1)])


def bit_flips(path: Path, rnd: random.Random) -> None:
    data = bytearray(path.read_bytes())
    for _ in range(rnd.randint(1, 8)):
        if data:
            data[rnd.randrange(len(data))] ^= 1 << rnd.randrange(8)
    path.write_bytes(bytes(data))


def zeroed_page(path: Path, rnd: random.Random) -> None:
    data = bytearray(path.read_bytes())
    start = rnd.randrange(max(1, len(data) // 4096)) * 4096
    data[start:start + 4096] = bytes(len(data[start:start + 4096]))
    path.write_bytes(bytes(data))


def wal_beside(path: Path, rnd: random.Random) -> None:
    """A -wal beside the backup: random bytes, another journal's (cut or flipped)."""
    other = path.parent / "data" / "journal.sqlite3-wal"
    wal = Path(f"{path}-wal")
    kind = rnd.randrange(4)
    if kind == 0:
        wal.write_bytes(rnd.randbytes(rnd.randrange(1, 20000)))
        return
    shutil.copyfile(other, wal)
    if kind == 2:
        cut(wal, rnd)
    elif kind == 3:
        bit_flips(wal, rnd)


def not_a_file(path: Path, rnd: random.Random) -> None:
    path.unlink()
    kind = rnd.randrange(4)
    if kind == 0:
        os.mkfifo(path)
    elif kind == 1:
        path.symlink_to("/dev/zero")
    elif kind == 2:
        path.write_bytes(rnd.randbytes(rnd.randrange(0, 5000)))
    else:
        path.write_bytes(b"")
        Path(f"{path}-wal").mkdir()


SQL_WAYS: list[Callable[[Path, random.Random], None]] = [
    trigger, view, table_as_view, virtual_table, extra_table, expression_index,
    computed_column, missing_column, wrong_kind, huge_value, bad_file_name, bad_file_content,
    future_format, broken_chain, broken_crc, orphan_or_duplicate]
BYTE_WAYS: list[Callable[[Path, random.Random], None]] = [
    cut, bit_flips, zeroed_page, wal_beside, not_a_file]


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.name != "app.lock"}


def _restore(data: Path, backup: Path, config: Path) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["--config", str(config), "--data", str(data), "restore", str(backup)])
    return code, out.getvalue(), err.getvalue()


def _check_restored(data: Path, before: dict[str, bytes], out: str) -> None:
    """A restore that succeeded: the old journal and its -wal, -shm kept byte for byte,
    and the new one opens clean with nothing of the backup's own SQL in it."""
    (safety,) = [p for p in data.glob("journal.sqlite3.before-restore-*")
                 if not p.name.endswith(("-wal", "-shm"))]
    for side in SIDES:
        assert Path(f"{safety}{side}").read_bytes() == before[f"journal.sqlite3{side}"]
    assert f"kept as {safety}, its -wal as {safety}-wal, its -shm as {safety}-shm" in out
    with Journal.open(data) as journal:
        assert journal.damage == []
        kinds = journal.query("SELECT type, name FROM sqlite_master WHERE name NOT LIKE "
                              "'sqlite_%'")
        assert sorted(kinds) == [("table", "events"), ("table", "games"),
                                 ("table", "set_aside")], kinds
        gid = journal.start_game({"type": "setup", "players": ["Ana", "Ben"]})
        journal.append(gid, {"type": "play", "card": "7"})
        assert len(journal.load(gid).events) == 2


@settings(max_examples=CASES, deadline=None, derandomize=True, database=None,
          suppress_health_check=list(HealthCheck))
@given(st.lists(st.sampled_from(SQL_WAYS), max_size=3),
       st.lists(st.sampled_from(BYTE_WAYS), max_size=1), st.integers(0, 2**32))
def test_a_hostile_backup_is_one_sentence_and_changes_nothing_unless_restored(
        template: Path, sql_ways: list[Callable[[Path, random.Random], None]],
        byte_ways: list[Callable[[Path, random.Random], None]], seed: int) -> None:
    rnd = random.Random(seed)
    with tempfile.TemporaryDirectory() as tmp:
        case = Path(tmp)
        shutil.copytree(template / "data", case / "data")
        backup = case / "backup.sqlite3"
        shutil.copyfile(template / "backup.sqlite3", backup)
        for way in [*sql_ways, *byte_ways] or [rnd.choice(SQL_WAYS + BYTE_WAYS)]:
            way(backup, rnd)
        before = _files(case / "data")
        RAN["cases"] += 1
        code, out, err = _restore(case / "data", backup, template / "config.toml")
        if os.environ.get("RESTORE_FUZZ_SAY"):
            print([w.__name__ for w in [*sql_ways, *byte_ways]], code, err.strip()[:300])
        if "Traceback" in err or "internal error" in err or code not in (0, 1):
            RAN["tracebacks"] += 1
        assert code in (0, 1) and "Traceback" not in err and "internal error" not in err, err
        if code == 1:
            RAN["refused"] += 1
            assert err.count("\n") == 1 and len(err) < 600 and out == "", err
            assert not any(ord(c) < 32 for c in err.rstrip("\n")), err
            if _files(case / "data") != before:
                RAN["changed"] += 1
            assert _files(case / "data") == before, err
        else:
            RAN["restored"] += 1
            _check_restored(case / "data", before, out)


def test_the_restore_fuzz_figures() -> None:
    if RAN["cases"] >= 20:  # both ends were reached: the set is not all one kind
        assert RAN["refused"] and RAN["restored"]
    print(f"restore fuzz: {RAN['cases']} hostile backups, {RAN['refused']} refused in one "
          f"sentence, {RAN['restored']} restored, tracebacks {RAN['tracebacks']}, journal "
          f"changed on refusal {RAN['changed']}")
