"""Hostile camera files made cheaply and for real: pictures whose header claims a huge size
(their pixels really compressed, so a decoder that believes them really fills memory),
model archives whose parts unpack to far more than a model's, and the CLI run as a
subprocess whose time and peak memory are measured (os.wait4)."""

from __future__ import annotations

import io
import struct
import subprocess
import sys
import tempfile
import time
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
CHUNK = 1 << 22


def deflated_zeros(n: int) -> bytes:
    """A raw deflate stream of `n` zero bytes, about 1,000 times smaller, made in
    milliseconds: one flushed block of CHUNK zeros repeated (a full flush makes each
    block independent of the ones before), the rest, and an empty final block."""
    def block(size: int) -> bytes:
        c = zlib.compressobj(9, zlib.DEFLATED, -15)
        return c.compress(bytes(size)) + c.flush(zlib.Z_FULL_FLUSH)

    final = zlib.compressobj(9, zlib.DEFLATED, -15).flush(zlib.Z_FINISH)
    return block(CHUNK) * (n // CHUNK) + (block(n % CHUNK) if n % CHUNK else b"") + final


def crc_of_zeros(n: int, crc: int = 0) -> int:
    zeros = bytes(CHUNK)
    for _ in range(n // CHUNK):
        crc = zlib.crc32(zeros, crc)
    return zlib.crc32(bytes(n % CHUNK), crc)


def _png_chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(
        ">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def huge_png(width: int, height: int, colour: int = 0, rows: int | None = None) -> bytes:
    """A black PNG of width x height (grey: colour 0, RGB: 2), every row really there
    (or only the first `rows`: a truncated one)."""
    channels = {0: 1, 2: 3, 4: 2, 6: 4}[colour]
    n = (rows if rows is not None else height) * (1 + width * channels)
    adler = ((n % 65521) << 16) | 1  # adler32 of n zero bytes
    idat = b"\x78\xda" + deflated_zeros(n) + struct.pack(">I", adler)
    ihdr = struct.pack(">IIBBBBB", width, height, 8, colour, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + _png_chunk(b"IHDR", ihdr) + _png_chunk(b"IDAT", idat)
            + _png_chunk(b"IEND", b""))


def jpeg_claiming(width: int, height: int) -> bytes:
    """A small real JPEG whose frame header (SOF0) claims width x height."""
    import cv2
    import numpy as np

    _ok, data = cv2.imencode(".jpg", np.full((16, 16, 3), 128, np.uint8))
    raw = bytearray(data.tobytes())
    at = raw.index(b"\xff\xc0")
    raw[at + 5:at + 9] = struct.pack(">HH", height, width)
    return bytes(raw)


@dataclass(frozen=True)
class Member:
    name: str
    deflated: bytes  # raw deflate stream (method 8) or the bytes stored (method 0)
    crc: int
    size: int  # unpacked
    method: int = 8


def member(name: str, data: bytes, method: int = 8) -> Member:
    packed = data
    if method == 8:
        c = zlib.compressobj(6, zlib.DEFLATED, -15)
        packed = c.compress(data) + c.flush()
    return Member(name, packed, zlib.crc32(data) & 0xFFFFFFFF, len(data), method)


def zeros_member(name: str, header: bytes, n: int) -> Member:
    """`header` then n zero bytes, deflated as a bomb (crc computed: the member is true)."""
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    head = c.compress(header) + c.flush(zlib.Z_FULL_FLUSH)
    crc = crc_of_zeros(n, zlib.crc32(header)) & 0xFFFFFFFF
    return Member(name, head + deflated_zeros(n), crc, len(header) + n)


def zip_of(members: list[Member]) -> bytes:
    """A zip archive of `members`, written record by record (what zipfile would write)."""
    out, central = io.BytesIO(), io.BytesIO()
    for m in members:
        name = m.name.encode("utf-8", "surrogateescape")
        offset = out.tell()
        out.write(struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0x800, m.method, 0, 0x21, m.crc,
                              len(m.deflated), m.size, len(name), 0) + name + m.deflated)
        central.write(struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 20, 20, 0x800, m.method,
                                  0, 0x21, m.crc, len(m.deflated), m.size, len(name), 0, 0,
                                  0, 0, 0, offset) + name)
    start, cd = out.tell(), central.getvalue()
    out.write(cd + struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, len(members), len(members),
                               len(cd), start, 0))
    return out.getvalue()


def npy(array: Any) -> bytes:
    from numpy.lib import format as npformat

    buffer = io.BytesIO()
    npformat.write_array(buffer, array, allow_pickle=True)
    return buffer.getvalue()


def npy_header(dtype: str, shape: tuple[int, ...]) -> bytes:
    from numpy.lib import format as npformat

    buffer = io.BytesIO()
    npformat.write_array_header_1_0(buffer, {"descr": dtype, "fortran_order": False,
                                             "shape": shape})
    return buffer.getvalue()


def model_arrays(model: Any) -> dict[str, Any]:
    """A model's parts as camera.model.save writes them (name without .npy: array)."""
    import json

    import numpy as np

    header = {"format": 1, "game": model.game, "spot": list(model.spot),
              "card_size": model.card_size, "cards": [f.card for f in model.faces]}
    arrays: dict[str, Any] = {"header": np.frombuffer(json.dumps(header).encode(), np.uint8)}
    for i, face in enumerate(model.faces):
        arrays[f"grey{i}"], arrays[f"points{i}"] = face.grey, face.points
        arrays[f"descriptors{i}"] = face.descriptors
    return arrays


def header_array(header: dict[str, Any]) -> Any:
    import json

    import numpy as np

    return np.frombuffer(json.dumps(header).encode(), np.uint8)


def model_zip(arrays: dict[str, Any], extra: tuple[Member, ...] = ()) -> bytes:
    return zip_of([member(f"{name}.npy", npy(a)) for name, a in arrays.items()] + list(extra))


FLOAT64_FEATURES = 100  # features kept in the "float64 descriptors" damage
DAMAGES = ("float64 descriptors", "int64 grey", "small grey", "points of 3",
           "fewer descriptors", "NaN points", "inf points", "NaN spot", "no faces",
           "every photo of one card", "zero card size")


def broken(model: Any, damage: str) -> dict[str, Any]:
    """The model's parts with one thing wrong (one of DAMAGES)."""
    import numpy as np

    arrays = model_arrays(model)
    header = {"format": 1, "game": model.game, "spot": list(model.spot),
              "card_size": model.card_size, "cards": [f.card for f in model.faces]}
    if damage == "float64 descriptors":
        # as many as fit the part's cap once 8 bytes each (a face laid to a pixel has
        # more features than the cap's uint8 size over 8): the dtype alone is wrong
        arrays["points0"] = arrays["points0"][:FLOAT64_FEATURES]
        arrays["descriptors0"] = arrays["descriptors0"][:FLOAT64_FEATURES].astype(np.float64)
    elif damage == "int64 grey":
        arrays["grey1"] = arrays["grey1"].astype(np.int64)
    elif damage == "small grey":
        arrays["grey2"] = np.zeros((10, 10), np.uint8)
    elif damage == "points of 3":
        arrays["points0"] = np.zeros((len(arrays["points0"]), 3), np.float32)
    elif damage == "fewer descriptors":
        arrays["descriptors3"] = arrays["descriptors3"][:5]
    elif damage == "NaN points":
        arrays["points1"] = arrays["points1"].copy()
        arrays["points1"][0, 0] = np.nan
    elif damage == "inf points":
        arrays["points1"] = arrays["points1"].copy()
        arrays["points1"][2, 1] = np.inf
    elif damage == "NaN spot":
        header["spot"] = [float("nan"), 0, 1, 1]
    elif damage == "no faces":
        arrays = {}
        header["cards"] = []
    elif damage == "every photo of one card":
        header["cards"] = [header["cards"][0]] * len(header["cards"])
    elif damage == "zero card size":
        header["card_size"] = 0
    arrays["header"] = header_array(header)
    return arrays


@dataclass(frozen=True)
class Run:
    status: int
    stdout: str
    stderr: str
    seconds: float
    max_rss_mb: float


# Forks the CLI from a small process and prints its exit status and peak memory: a child
# forked (or spawned) from the test process itself would count the test's RSS as its own
# (the kernel keeps the old memory's high-water mark across exec). An alarm, which exec
# keeps, ends a hang.
LAUNCHER = """
import os, signal, sys
timeout, out, err, *argv = sys.argv[1:]
pid = os.fork()
if pid == 0:
    os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
    os.dup2(os.open(out, os.O_WRONLY), 1)
    os.dup2(os.open(err, os.O_WRONLY), 2)
    signal.alarm(int(float(timeout)))
    os.execv(sys.executable, [sys.executable, "-m", "companion.cli", *argv])
_pid, status, usage = os.wait4(pid, 0)
print(os.waitstatus_to_exitcode(status), usage.ru_maxrss)
"""


def run_cli(*args: str, timeout: float = 120.0) -> Run:
    """The real console script as a subprocess; its wall time and its own peak memory
    (os.wait4 in LAUNCHER). A hang is ended by SIGALRM after `timeout` s (status -14)."""
    with tempfile.NamedTemporaryFile() as out, tempfile.NamedTemporaryFile() as err:
        start = time.monotonic()
        done = subprocess.run([sys.executable, "-c", LAUNCHER, str(timeout), out.name,
                               err.name, *args], cwd=REPO, capture_output=True, text=True,
                              timeout=timeout + 60)
        seconds = time.monotonic() - start
        status, rss_kb = (int(word) for word in done.stdout.split())
        return Run(status, Path(out.name).read_text(errors="replace"),
                   Path(err.name).read_text(errors="replace"), seconds, rss_kb / 1024)
