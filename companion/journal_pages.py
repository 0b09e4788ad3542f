"""Reading event rows straight from the bytes of a journal file and its `-wal`.

SQLite reads a table through its b-tree: one zeroed interior page hides every row below
it, and a damaged frame in the `-wal` makes SQLite drop that frame and every later one
without a word. The rows themselves usually survive on their leaf pages. This module
finds them there, page by page, each page once: every cell of every table leaf page that
has the shape of an `events` row (NULL id, game, seq, time, JSON, CRC[, chain]) and whose CRC
matches its JSON. The journal uses it to count what a damaged file held and to recover
what its b-tree no longer reaches.
"""

from __future__ import annotations

import itertools
import struct
import zlib
from collections.abc import Iterator
from pathlib import Path

WAL_MAGIC = (0x377F0682, 0x377F0683)
WAL_HEADER = 32
FRAME_HEADER = 24
LEAF_TABLE = 13
SQLITE_MAGIC = b"SQLite format 3\0"  # the first bytes of every SQLite database file

# (game_id, seq, at, json bytes, crc, chain or None before format 3), keyed by rowid
EventRow = tuple[int, int, str, bytes, int, int | None]
# (started, finished, players, winner, abandoned) of a games row, keyed by its id
GameRow = tuple[str, str | None, str, str | None, int]


def _varint(buf: bytes, at: int) -> tuple[int, int]:
    value = 0
    for i in range(8):
        byte = buf[at + i]
        value = (value << 7) | (byte & 0x7F)
        if byte < 0x80:
            return value, at + i + 1
    return (value << 8) | buf[at + 8], at + 9


_INT_SIZES = {1: 1, 2: 2, 3: 3, 4: 4, 5: 6, 6: 8}


def _record(payload: bytes) -> list[object] | None:
    """The values of one record, or None when it is not a well-formed record."""
    size, at = _varint(payload, 0)
    if size > len(payload):
        return None
    types = []
    while at < size:
        kind, at = _varint(payload, at)
        types.append(kind)
    values: list[object] = []
    pos = size
    for kind in types:
        if kind == 0:
            values.append(None)
        elif kind in _INT_SIZES:
            n = _INT_SIZES[kind]
            values.append(int.from_bytes(payload[pos:pos + n], "big", signed=True))
            pos += n
        elif kind == 7:
            values.append(struct.unpack(">d", payload[pos:pos + 8])[0])
            pos += 8
        elif kind in (8, 9):
            values.append(kind - 8)
        elif kind >= 12:
            n = (kind - 12) // 2
            values.append(payload[pos:pos + n] if kind % 2 == 0 else
                          ("text", payload[pos:pos + n]))
            pos += n
        else:
            return None
        if pos > len(payload):
            return None
    return values


def _event(values: list[object]) -> EventRow | None:
    if len(values) not in (6, 7) or values[0] is not None:
        return None
    _, game_id, seq, at, raw, crc, *more = values
    chain = more[0] if more else None
    if not (isinstance(game_id, int) and isinstance(seq, int) and isinstance(crc, int)
            and (chain is None or isinstance(chain, int))):
        return None
    if isinstance(raw, tuple):
        raw = raw[1]
    if not isinstance(raw, bytes) or not isinstance(at, tuple) or zlib.crc32(raw) != crc:
        return None
    return game_id, seq, bytes(at[1]).decode("utf-8", "replace"), raw, crc, chain


def page_events(page: bytes, usable: int, first: bool = False) -> Iterator[tuple[int, EventRow]]:
    """(rowid, row) of every events-shaped cell of a table leaf page; nothing for others."""
    for rowid, values in page_records(page, usable, first):
        row = _event(values)
        if row is not None:
            yield rowid, row


def _game(values: list[object]) -> GameRow | None:
    """A `games` row: (NULL id, started, finished, players, winner, abandoned[, game])."""
    if len(values) not in (6, 7) or values[0] is not None or not isinstance(values[5], int):
        return None
    texts = [v[1].decode("utf-8", "replace") if isinstance(v, tuple) else v
             for v in values[1:5]]
    started, finished, players, winner = texts
    if not isinstance(started, str) or not isinstance(players, str) or not players.startswith("["):
        return None
    if not (finished is None or isinstance(finished, str)) or not (
            winner is None or isinstance(winner, str)):
        return None
    return started, finished, players, winner, values[5]


def page_records(page: bytes, usable: int,
                 first: bool = False) -> Iterator[tuple[int, list[object]]]:
    """(rowid, values) of every well-formed record of a table leaf page."""
    base = 100 if first else 0
    try:
        if page[base] != LEAF_TABLE:
            return
        cells = int.from_bytes(page[base + 3:base + 5], "big")
        for i in range(min(cells, usable // 2)):
            ptr = int.from_bytes(page[base + 8 + 2 * i:base + 10 + 2 * i], "big")
            if not 0 < ptr < usable:
                continue
            size, at = _varint(page, ptr)
            rowid, at = _varint(page, at)
            if size > usable - 35 or at + size > len(page):
                continue  # spills to overflow pages: never an event row of ours
            values = _record(page[at:at + size])
            if values is not None:
                yield rowid, values
    except (IndexError, struct.error, UnicodeDecodeError):
        return


def _page_size(db: bytes, wal: bytes) -> int:
    for raw in (db[16:18] if len(db) >= 100 else b"", wal[8:12] if len(wal) >= 32 else b""):
        if raw:
            size = int.from_bytes(raw, "big")
            size = 65536 if size == 1 else size
            if 512 <= size <= 65536 and size & (size - 1) == 0:
                return size
    return 4096


def _salts(wal: bytes, heads: list[bytes]) -> bytes:
    """The current generation's salts: the header's when its checksum holds, else those
    of the first frames that agree with each other (a damaged header or first frame)."""
    if int.from_bytes(wal[0:4], "big") in WAL_MAGIC and _checksum(
            wal[0:24], big=wal[3] == 0x83) == wal[24:32]:
        return wal[16:24]
    for a, b in itertools.pairwise(heads):
        if a[8:16] == b[8:16]:
            return a[8:16]
    return heads[0][8:16] if heads else wal[16:24]


def _checksum(data: bytes, big: bool, s0: int = 0, s1: int = 0) -> bytes:
    """SQLite's WAL checksum of `data` (a multiple of 8 bytes)."""
    words = struct.unpack(f"{'>' if big else '<'}{len(data) // 4}I", data)
    for i in range(0, len(words), 2):
        s0 = (s0 + words[i] + s1) & 0xFFFFFFFF
        s1 = (s1 + words[i + 1] + s0) & 0xFFFFFFFF
    return struct.pack(">II", s0, s1)


def committed_length(wal: bytes) -> int:
    """The length of the `-wal`'s valid part as SQLite reads it: up to its last commit
    frame whose checksums (cumulative from the header's) and salts hold; 0 when the header
    itself does not hold (SQLite then ignores the whole file)."""
    if len(wal) < WAL_HEADER or int.from_bytes(wal[0:4], "big") not in WAL_MAGIC:
        return 0
    big = wal[3] == 0x83
    if _checksum(wal[0:24], big) != wal[24:32]:
        return 0
    size = int.from_bytes(wal[8:12], "big")
    size = 65536 if size == 1 else size
    s0, s1 = struct.unpack(">II", wal[24:32])
    end = WAL_HEADER
    step = FRAME_HEADER + size
    for off in range(WAL_HEADER, len(wal) - step + 1, step):
        head = wal[off:off + FRAME_HEADER]
        if head[8:16] != wal[16:24]:
            break
        total = _checksum(head[0:8] + wal[off + FRAME_HEADER:off + step], big, s0, s1)
        if total != head[16:24]:
            break
        s0, s1 = struct.unpack(">II", total)
        if int.from_bytes(head[4:8], "big"):
            end = off + step
    return end


def wal_pages(wal: bytes, page_size: int,
              committed_only: bool = True) -> list[tuple[int, bytes]]:
    """(page number, content) of the `-wal`'s frames of its current generation, up to its
    last commit (or every frame, the last one cut short included, when not
    `committed_only`), in order; checksums are not checked (a damaged frame is read too)."""
    if len(wal) < WAL_HEADER + FRAME_HEADER:
        return []
    step = FRAME_HEADER + page_size
    last = len(wal) - step + 1 if committed_only else len(wal) - FRAME_HEADER
    frames = [(off, wal[off:off + FRAME_HEADER]) for off in range(WAL_HEADER, last, step)]
    salts = _salts(wal, [head for _, head in frames])
    pages: list[tuple[int, bytes]] = []
    committed = 0
    for off, head in frames:
        if head[8:16] != salts:
            continue  # a frame of an earlier generation, left in the file
        pages.append((int.from_bytes(head[0:4], "big"), wal[off + FRAME_HEADER:off + step]))
        if int.from_bytes(head[4:8], "big"):
            committed = len(pages)
    return pages[:committed] if committed_only else pages


def wal_count(db_path: Path, *, committed_only: bool = True) -> int:
    """The journal's count of stored events (journal.count_added: the header's
    application_id, +1) as the newest committed page 1 of the `-wal` says it (or the
    newest one at all); 0 if none."""
    db = db_path.read_bytes()[:100] if db_path.exists() else b""
    wal = Path(f"{db_path}-wal").read_bytes()
    count = 0
    for number, page in wal_pages(wal, _page_size(db, wal), committed_only):
        if number == 1 and len(page) >= 72 and page[:16] == SQLITE_MAGIC:
            count = int.from_bytes(page[68:72], "big", signed=True)
    return max(0, count)


SHM_VERSION = 3007000  # the wal-index format of every SQLite 3.7.0 and later
SHM_HEADER = 136  # two copies of the 48-byte index header, then the checkpoint info
SHM_FIRST_FRAMES = 4062  # frames indexed by the first 32 KiB block (4096 by the others)


def saves_beyond(db_path: Path) -> int | None:
    """Saves the `-shm` file (SQLite's index of the `-wal`, as the crashed app left it)
    lists after the `-wal`'s last whole frame: transactions whose frames a cut took, each
    of which stored at least one event (every save writes page 1, where the count is).
    None when there is no `-shm` of this `-wal` (another generation, no header, a clean
    close). A `-shm` is never synced: after a power cut it may list fewer, never more."""
    try:
        shm = Path(f"{db_path}-shm").read_bytes()
        with open(f"{db_path}-wal", "rb") as f:
            head = f.read(WAL_HEADER)
            size = f.seek(0, 2)
    except OSError:
        return None
    if len(shm) < SHM_HEADER or len(head) < WAL_HEADER or shm[0:48] != shm[48:96]:
        return None
    version, _, _, init, _, _, last = struct.unpack("=IIIBBHI", shm[0:20])
    if version != SHM_VERSION or init != 1 or shm[32:40] != head[16:24]:
        return None  # not an index of this -wal's generation
    page_size = _page_size(b"", head)
    present = max(0, (size - WAL_HEADER) // (FRAME_HEADER + page_size))
    beyond = 0
    for frame in range(present + 1, last + 1):
        if frame <= SHM_FIRST_FRAMES:
            at = SHM_HEADER + 4 * (frame - 1)
        else:
            block, index = divmod(frame - SHM_FIRST_FRAMES - 1, 4096)
            at = 32768 * (block + 1) + 4 * index
        if at + 4 <= len(shm) and struct.unpack("=I", shm[at:at + 4])[0] == 1:
            beyond += 1
    return beyond


def wal_contents(db_path: Path) -> tuple[dict[tuple[int, int], EventRow], dict[int, GameRow],
                                         bool]:
    """What the `-wal` beside `db_path` holds in every frame of its current generation,
    also after its last commit (a -wal cut short or torn by a power cut): its events by
    (game, seq), its games rows by id (the newest frame's), and whether it ends cut short
    or with frames no commit covers."""
    db = db_path.read_bytes()[:100] if db_path.exists() else b""
    wal = Path(f"{db_path}-wal").read_bytes()
    size = _page_size(db, wal)
    every = wal_pages(wal, size, committed_only=False)
    cut = (len(wal) - WAL_HEADER) % (FRAME_HEADER + size) != 0 and len(wal) > WAL_HEADER
    events: dict[tuple[int, int], EventRow] = {}
    games: dict[int, GameRow] = {}
    for number, page in every:
        for rowid, values in page_records(page, size, first=number == 1):
            row = _event(values)
            if row is not None:
                events[(row[0], row[1])] = row
            game = _game(values)
            if game is not None:
                games[rowid] = game
    return events, games, cut or len(every) != len(wal_pages(wal, size))


def file_events(db_path: Path, *, with_wal: bool = True,
                with_db: bool = True) -> dict[tuple[int, int], EventRow]:
    """Every events row found in the file (and the committed frames of its `-wal`), by
    (game, seq); a row that appears several times (old and new versions of a page) counts
    once. `with_db=False`: the `-wal`'s rows only."""
    db = db_path.read_bytes() if db_path.exists() else b""
    wal_path = Path(f"{db_path}-wal")
    wal = wal_path.read_bytes() if with_wal and wal_path.exists() else b""
    size = _page_size(db, wal)
    usable = size  # the journal never reserves bytes per page; a damaged header may say so
    found: dict[tuple[int, int], EventRow] = {}
    for n in range(len(db) // size if with_db else 0):
        for _, row in page_events(db[n * size:(n + 1) * size], usable, first=n == 0):
            found[(row[0], row[1])] = row
    for number, page in wal_pages(wal, size):
        for _, row in page_events(page, usable, first=number == 1):
            found[(row[0], row[1])] = row
    return found
