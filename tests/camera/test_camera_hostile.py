"""Issue 33: hostile camera files, generated, fed to the real `camera watch` and `camera
teach` (hostile_runner.py: one forked process a case, its time and peak memory measured).

Each case is one file a hostile or careless hand could leave: a picture whose header claims
a huge size (its pixels really there, compressed), a truncated or bit-flipped frame, a
FIFO, a folder, a device or a loop where a file should be, a foreign format under a .png
name, a file named with terminal escapes; a model that is a zip bomb, has too many or
strangely named parts, wrong dtypes, shapes, NaNs, no faces, a damaged header, or random
flipped bytes. Every case ends refused in one sentence (exit 2, one line, nothing raw for
the terminal), or, for a damaged picture that still decodes, watched or taught as usual;
never a traceback, a hang or a flood of memory. `make fuzz` runs CAMERA_FUZZ_CASES=300.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
import unicodedata
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
from hostile_files import (
    DAMAGES,
    Member,
    broken,
    header_array,
    huge_png,
    jpeg_claiming,
    member,
    model_arrays,
    model_zip,
    npy,
    npy_header,
    zeros_member,
)

from camera.model import save

CASES = int(os.environ.get("CAMERA_FUZZ_CASES", "24"))
RUNNER = Path(__file__).with_name("hostile_runner.py")
REPO = Path(__file__).resolve().parents[2]
MAX_RSS_MB = 300  # the command's own start is ~110 MB; a believed 20000x20000 PNG is 1.2 GB
PICTURE_KINDS = ("huge png", "huge jpeg", "truncated", "flipped", "fifo", "folder", "device",
                 "loop", "dangling", "foreign", "random", "empty", "sparse", "nasty name",
                 "tiny", "largest")
MODEL_KINDS = ("bomb", "many parts", "odd name", "damage", "huge shape", "header", "method",
               "flipped", "truncated", "not a zip", "fifo", "device", "sparse", "pickle")
NASTY = "\x1b[2J\x1b]0;x\x07\u202e\u0085"


def flipped(data: bytes, rng: random.Random) -> bytes:
    """`data` with 1 to 30 of its bytes set at random."""
    changed = bytearray(data)
    for _ in range(rng.randint(1, 30)):
        changed[rng.randrange(len(changed))] = rng.randrange(256)
    return bytes(changed)


def picture(kind: str, rng: random.Random, folder: Path, frame: bytes) -> bool:
    """Leave a hostile picture of `kind` in `folder`; True when it must be refused."""
    path = folder / rng.choice(("0.png", "0.jpg", "0.JPEG"))
    if kind == "huge png":
        w, h = rng.choice(((rng.randint(1921, 30000), rng.randint(1, 30000)),
                           (rng.randint(1, 30000), rng.randint(1081, 30000))))
        rows = None if w * h < 10**9 else rng.randint(1, 64)
        path.write_bytes(huge_png(w, h, rng.choice((0, 2, 4, 6)), rows))
    elif kind == "huge jpeg":
        path.write_bytes(jpeg_claiming(rng.randint(1921, 65535), rng.randint(1081, 65535)))
    elif kind == "truncated":
        path.write_bytes(frame[:rng.randint(0, len(frame) - 1)])
        return False
    elif kind == "flipped":
        path.write_bytes(flipped(frame, rng))
        return False
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind == "folder":
        path.mkdir()
    elif kind == "device":
        path.symlink_to(rng.choice(("/dev/zero", "/dev/null", "/dev/urandom")))
    elif kind == "loop":
        path.symlink_to(path.name)
    elif kind == "dangling":
        path.symlink_to(folder / "nowhere.png")
    elif kind == "foreign":
        import cv2

        suffix = rng.choice((".bmp", ".tiff", ".webp", ".ppm"))
        _ok, data = cv2.imencode(suffix, np.zeros((8, 8, 3), np.uint8))
        path.write_bytes(data.tobytes())
    elif kind == "random":
        head = rng.choice((b"", b"\x89PNG\r\n\x1a\n", b"\xff\xd8\xff"))
        path.write_bytes(head + rng.randbytes(rng.randint(0, 5000)))
    elif kind == "empty":
        path.write_bytes(b"")
    elif kind == "sparse":
        with open(path, "wb") as sparse:
            sparse.truncate(rng.randint(20_000_000, 4_000_000_000))
    elif kind == "nasty name":
        (folder / f"{NASTY}{rng.randint(0, 99)}.png").write_bytes(b"not a picture")
    elif kind == "tiny":
        path.write_bytes(huge_png(rng.randint(1, 8), rng.randint(1, 8), 2))
        return False
    elif kind == "largest":
        path.write_bytes(huge_png(1920, 1080, 2))
        return False
    return True


def model_file(kind: str, rng: random.Random, path: Path, model: Any, good: bytes) -> bool:
    """Write a hostile model of `kind` at `path`; True when it must be refused."""
    arrays = model_arrays(model)
    faces = len(model.faces)
    if kind == "bomb":
        part = rng.choice(("grey", "points", "descriptors", "header"))
        name = "header" if part == "header" else f"{part}{rng.randrange(faces)}"
        n = rng.randint(10**6, 3 * 10**9)
        del arrays[name]
        bomb = zeros_member(f"{name}.npy", npy_header("|u1", (n,)), n)
        path.write_bytes(model_zip(arrays, (bomb,)))
    elif kind == "many parts":
        extra = tuple(member(f"grey{faces + i}.npy", npy(np.zeros((168, 120), np.uint8)))
                      for i in range(rng.randint(1, 400)))
        path.write_bytes(model_zip(arrays, extra))
    elif kind == "odd name":
        name = rng.choice(("../evil.npy", "/etc/x.npy", "grey0.npy", f"{NASTY}.npy", "x.txt",
                           "grey0001.npy", "header.npy\x00"))
        path.write_bytes(model_zip(arrays, (member(name, npy(np.zeros(3, np.uint8))),)))
    elif kind == "damage":
        path.write_bytes(model_zip(broken(model, rng.choice(DAMAGES))))
    elif kind == "huge shape":
        name = rng.choice(("grey", "points", "descriptors")) + str(rng.randrange(faces))
        dtype = {"g": "|u1", "p": "<f4", "d": "|u1"}[name[0]]
        shape = rng.choice(((10**9, 2), (2**40,), (168, 120, 10**6), (10**5, 32)))
        del arrays[name]
        path.write_bytes(model_zip(arrays, (member(f"{name}.npy", npy_header(dtype, shape)
                                                   + rng.randbytes(64)),)))
    elif kind == "header":
        header: Any = {"format": 1, "game": model.game, "spot": list(model.spot),
                       "card_size": model.card_size, "cards": [f.card for f in model.faces]}
        change = rng.choice(("format", "game", "cards", "spot", "size", "list", "text",
                             "long", "bool"))
        if change == "format":
            header["format"] = rng.choice((2, "1", None, 1.5))
        elif change == "game":
            header["game"] = rng.choice(("chess", NASTY, 7, None))
        elif change == "cards":
            header["cards"] = [rng.choice(("x", NASTY, 3, None)), *header["cards"][1:]]
        elif change == "spot":
            header["spot"] = rng.choice(([0, 0, 2, 1], [0.5, 0, 0.4, 1], [0, 0, 1], "all",
                                         [True, 0, 1, 1]))
        elif change == "size":
            header["card_size"] = rng.choice((-1, 1e308, "big", None))
        elif change == "list":
            header = [header]
        elif change == "bool":
            header["card_size"] = True
        arrays["header"] = header_array(header)
        if change == "text":
            arrays["header"] = np.frombuffer(rng.randbytes(200), np.uint8)
        elif change == "long":
            arrays["header"] = np.frombuffer(b" " * 70_000 + b"{}", np.uint8)
    elif kind == "method":
        data = npy(arrays.pop("grey0"))
        method = rng.choice((12, 14, 99))
        path.write_bytes(model_zip(arrays, (Member("grey0.npy", data, 0, len(data), method),)))
    elif kind == "flipped":
        path.write_bytes(flipped(good, rng))
        return False
    elif kind == "truncated":
        path.write_bytes(good[:rng.randint(0, len(good) - 1)])
    elif kind == "not a zip":
        path.write_bytes(rng.choice((b"", b"PK", rng.randbytes(1000), b"\x93NUMPY")))
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind == "device":
        path.symlink_to("/dev/zero")
    elif kind == "sparse":
        with open(path, "wb") as sparse:
            sparse.truncate(rng.randint(10**7, 10**10))
    elif kind == "pickle":
        name = f"points{rng.randrange(faces)}"
        arrays[name] = np.array([{"x": 1}, None], dtype=object)
        path.write_bytes(model_zip(arrays))
    return True


def cases(root: Path, model: Any, teach_folder: Path, good_frames: Path, deck: Path,
          count: int) -> tuple[list[list[str]], list[bool]]:
    """`count` cases (argument lists) and whether each must be refused."""
    rng = random.Random(33)
    frame = (good_frames / "0.png").read_bytes()
    good = deck.read_bytes()
    argv, refused = [], []
    for i in range(count):
        case = root / f"case{i}"
        case.mkdir()
        what = ("watch", "teach", "model")[i % 3]
        if what == "model":
            kind = MODEL_KINDS[(i // 3) % len(MODEL_KINDS)]
            refused.append(model_file(kind, rng, case / "deck.npz", model, good))
            argv.append(["camera", "watch", str(good_frames), "--model",
                         str(case / "deck.npz")])
        elif what == "watch":
            kind = PICTURE_KINDS[(i // 3) % len(PICTURE_KINDS)]
            (case / "frames").mkdir()
            refused.append(picture(kind, rng, case / "frames", frame))
            argv.append(["camera", "watch", str(case / "frames"), "--model", str(deck)])
        else:
            kind = PICTURE_KINDS[(i // 3) % len(PICTURE_KINDS)]
            shutil.copytree(teach_folder, case / "photos")
            for photo in (case / "photos" / "1").iterdir():
                photo.unlink()
            refused.append(picture(kind, rng, case / "photos" / "1", frame))
            argv.append(["camera", "teach", str(case / "photos"), "--game", "board", "--out",
                         str(case / "out.npz")])
    return argv, refused


def raw(text: str) -> list[str]:
    return [c for c in text if c != "\n" and unicodedata.category(c) in ("Cc", "Cf")]


def test_hostile_camera_files_are_refused_in_one_sentence(model: Any, teach_folder: Path,
                                                          scene: Any, tmp_path: Path) -> None:
    import cv2

    good_frames = tmp_path / "good"
    good_frames.mkdir()
    cv2.imwrite(str(good_frames / "0.png"), scene.table)
    deck = tmp_path / "deck.npz"
    save(model, deck)
    argv, must_refuse = cases(tmp_path, model, teach_folder, good_frames, deck, CASES)
    (tmp_path / "cases.json").write_text(json.dumps(argv))
    done = subprocess.run([sys.executable, str(RUNNER), str(tmp_path / "cases.json")],
                          cwd=REPO, capture_output=True, text=True, timeout=60 + 30 * CASES,
                          env={**os.environ, "PYTHONPATH": str(REPO)})
    assert done.returncode == 0, done.stderr[-3000:]
    results = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(results) == CASES
    outcome: Counter[str] = Counter()
    bad = []
    for result, refuse in zip(results, must_refuse, strict=True):
        lines = result["stderr"].strip().splitlines()
        one = result["status"] == 2 and len(lines) == 1 and not raw(result["stderr"])
        fine = one or (not refuse and result["status"] == 0 and not raw(result["stdout"]))
        outcome["refused" if one else "accepted" if fine else "wrong"] += 1
        outcome["tracebacks"] += "Traceback" in result["stderr"]
        if not fine or result["max_rss_mb"] > MAX_RSS_MB:  # a hang: killed by its alarm
            bad.append(result)
    seconds = max(r["seconds"] for r in results)
    if os.environ.get("CAMERA_FUZZ_LOG"):
        Path(os.environ["CAMERA_FUZZ_LOG"]).write_text(done.stdout)
    rss = max(r["max_rss_mb"] for r in results)
    print(f"\ncamera files fuzz: {CASES} cases ({CASES - CASES // 3} pictures to watch or "
          f"teach, {CASES // 3} models), refused in one sentence {outcome['refused']}, "
          f"decoded and used as usual {outcome['accepted']}, tracebacks "
          f"{outcome['tracebacks']}, max {seconds:.2f} s and {rss:.0f} MB per case")
    assert not bad, [(r["args"], r["status"], r["stderr"][-1500:], r["seconds"],
                      r["max_rss_mb"]) for r in bad[:5]]
