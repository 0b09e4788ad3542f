"""`make bench`, the camera: plays right / wrong / phantom / asked / missed, frames from
rest to log, and ms of CPU per 640x480 frame, here and under the Pi's CPU quota.

Scenes, printings and sequences use seeds from 10_000 on: the tests never see them. The
deck is taught from PHOTOS_A_FACE photos a face (as the teach screen takes them) of the
same table and printing. A play's rest frame is the first frame where its card lies still
with no hand in the picture. CAMERA_BENCH_PLAYS sets the number of plays (default 500,
the goals' own scale).
"""

from __future__ import annotations

import copy
import functools
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bench import Row, measure, met, percentile
from camera.cards import PHOTOS_A_FACE

PLAYS = int(os.environ.get("CAMERA_BENCH_PLAYS", "500"))
PER_SEQUENCE = 20
SIZE = (640, 480)
SEED = 10_000


@dataclass
class Score:
    right: int = 0
    wrong: int = 0
    phantom: int = 0
    asked: int = 0
    missed: int = 0
    delays: list[int] = field(default_factory=list)  # frames from rest to log
    wrong_cases: list[str] = field(default_factory=list)

    @property
    def plays(self) -> int:
        return self.right + self.wrong + self.asked + self.missed

    def add(self, other: Score) -> None:
        for name in ("right", "wrong", "phantom", "asked", "missed"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.delays += other.delays
        self.wrong_cases += other.wrong_cases


def score(plays: Sequence[Any], seen: Sequence[Any]) -> Score:
    """Match what was logged to the ground truth: each play owns the frames from its start
    to the next play's start; a second log in a play's frames, or one before the first
    play, is a phantom."""
    out = Score()
    bounds = [p.start for p in plays] + [10**9]
    logged: list[list[Any]] = [[] for _ in plays]
    for s in seen:
        owner = max((i for i, b in enumerate(bounds[:-1]) if b <= s.frame), default=None)
        if owner is None:
            out.phantom += 1
        else:
            logged[owner].append(s)
    for play, logs in zip(plays, logged, strict=True):
        if not logs:
            out.missed += 1
            continue
        first, *extra = logs
        out.phantom += len(extra)
        if first.card is None:
            out.asked += 1
        elif first.card == play.card:
            out.right += 1
        else:
            out.wrong += 1
            out.wrong_cases.append(f"{play.card} read as {first.card} at frame {first.frame}")
        out.delays.append(first.frame - play.rest)
    return out


def deck_cards(game: str) -> list[str]:
    from camera.cards import card_names

    return list(card_names(game))


def decks() -> tuple[str, ...]:
    """The games whose decks are drawn and taught, in the registry's order (each
    sequence is one game's, in turn; the CPU's is the first game's)."""
    from camera.cards import games

    return games()


@functools.lru_cache(maxsize=4)
def _taught(k: int, seed: int, size: tuple[int, int], teach_photos: int) -> Any:
    from bench.camera_scenes import Scene
    from camera.teach import teach

    game = decks()[k % len(decks())]
    scene = Scene(seed=seed + k, size=size, printing=seed + k)
    cards = deck_cards(game)
    photos = scene.teach_photos(cards, teach_photos, seed=k)
    return teach({c: [(f"{c}#{i}", img) for i, img in enumerate(photos[c])]
                  for c in cards}, game).model


def taught_deck(k: int, seed: int = SEED, *, size: tuple[int, int] = SIZE,
                teach_photos: int = PHOTOS_A_FACE) -> Any:
    """The deck of sequence `k` of `seed` taught from its scene's photos, as
    `run_sequence` watches with. Teaching is most of a short sequence's CPU (2.9 s of 5.2 s
    for 4 plays), so the last four are kept and each caller gets its own copy: the tests
    that run one sequence under two glares, and the one that checks what that deck was
    taught, teach it once."""
    return copy.deepcopy(_taught(k, seed, tuple(size), teach_photos))


def run_sequence(k: int, seed: int = SEED, n: int = PER_SEQUENCE, *,
                 size: tuple[int, int] = SIZE,
                 teach_photos: int = PHOTOS_A_FACE, square: float = 0.0,
                 glare: tuple[float, float, float] | None = None
                 ) -> tuple[Any, list[Any], list[float]]:
    """The bench's sequence number `k` of `seed`: its ground truth, what the watcher
    logged, and the CPU ms of each frame's watching. Development runs only (the bench's
    own use neither): `square`, the share of cards laid almost square on the top card;
    `glare`, a lamp's reflection in every frame (x, y as fractions of the frame, strength)."""
    import numpy as np

    from bench.camera_scenes import Scene
    from camera.watcher import Watcher

    game = decks()[k % len(decks())]
    scene = Scene(seed=seed + k, size=size, printing=seed + k)
    cards = deck_cards(game)
    model = taught_deck(k, seed, size=size, teach_photos=teach_photos)
    rng = np.random.default_rng([seed, k])
    laid = [cards[int(i)] for i in rng.integers(len(cards), size=n)]
    seq = scene.sequence(laid, seed=k, square=square, glare=glare)
    watcher = Watcher(model)
    seen = []
    frame_ms: list[float] = []
    for frame in seq.frames:
        t0 = time.process_time()
        s = watcher.feed(frame)
        frame_ms.append((time.process_time() - t0) * 1000)
        if s is not None:
            seen.append(s)
    return seq, seen, frame_ms


def dev_glare(seed: int, k: int) -> tuple[float, float, float]:
    """A strong lamp's reflection near the pile spot for sequence `k` of `seed`, stronger
    than the bench's own lamps (development runs, `--glare`)."""
    import numpy as np

    x, y, strength = np.random.default_rng([seed, k, 5]).uniform((0.35, 0.35, 0.35),
                                                                 (0.65, 0.65, 0.6))
    return float(x), float(y), float(strength)


def run_accuracy(plays: int, *, size: tuple[int, int] = SIZE, seed: int = SEED,
                 teach_photos: int = PHOTOS_A_FACE) -> tuple[Score, list[float], int]:
    """Score `plays` plays over both games; also the CPU ms of each frame's watching."""
    total = Score()
    frame_ms: list[float] = []
    frames = 0
    done = 0
    k = 0
    while done < plays:
        n = min(PER_SEQUENCE, plays - done)
        seq, seen, ms = run_sequence(k, seed, n, size=size, teach_photos=teach_photos)
        frame_ms += ms
        total.add(score(seq.plays, seen))
        frames += len(seq.frames)
        done += n
        k += 1
    return total, frame_ms, frames


def outcomes(plays: Sequence[Any], seen: Sequence[Any]) -> list[str]:
    """One line a play (what was laid, when it rested, what was logged in its frames and
    when), for finding which plays a change loses or gains."""
    bounds = [p.start for p in plays[1:]] + [10**9]
    lines = [f"before the first play: {s.to_json()}" for s in seen
             if plays and s.frame < plays[0].start]
    for i, (play, end) in enumerate(zip(plays, bounds, strict=True)):
        logs = [s for s in seen if play.start <= s.frame < end]
        if not logs:
            verdict = "MISSED"
        elif len(logs) > 1:
            verdict = "PHANTOM"
        elif logs[0].card is None:
            verdict = "asked"
        elif logs[0].card != play.card:
            verdict = "WRONG"
        else:
            late = logs[0].frame - play.rest
            verdict = f"right, {late} frames after rest" + (" (LATE)" if late > 5 else "")
        shown = ", ".join(f"{s.card or s.candidates} at {s.frame}" for s in logs)
        square = "" if play.on is None else f" (square on {play.on})"
        lines.append(f"play {i}: {play.card}{square} rests at {play.rest}: {verdict}"
                     + (f" [{shown}]" if logs else ""))
    return lines


def cpu_child(frames: int) -> dict[str, float]:
    """In a child (maybe under the quota): CPU ms per 640x480 frame while watching, over a
    sequence with plays, as the median frame and the mean (which includes recognition)."""
    from bench.camera_scenes import Scene
    from camera.teach import teach
    from camera.watcher import Watcher

    scene = Scene(seed=SEED + 999, size=SIZE, printing=SEED + 999)
    game = decks()[0]
    cards = deck_cards(game)
    photos = scene.teach_photos(cards, 1, seed=1)
    model = teach({c: [(c, photos[c][0])] for c in cards}, game).model
    seq = scene.sequence(cards[:max(1, frames // 30)], seed=1)
    watcher = Watcher(model)
    samples = []
    for frame in seq.frames[:frames]:
        t0 = time.process_time()
        watcher.feed(frame)
        samples.append((time.process_time() - t0) * 1000)
    recognise = []
    for frame in seq.frames[-5:]:
        h, w = frame.shape[:2]
        t0 = time.process_time()
        watcher.recogniser.read(frame, model.spot_pixels(w, h))
        recognise.append((time.process_time() - t0) * 1000)
    return {"median": percentile(samples, 50), "mean": sum(samples) / len(samples),
            "p99": percentile(samples, 99), "recognise": percentile(recognise, 50)}


def rows() -> list[Row]:
    from camera.extra import MissingExtra, require

    try:
        require()
    except MissingExtra as exc:
        return [Row("camera", f"not measured: {exc}")]
    t0 = time.perf_counter()
    total, _frame_ms, frames = run_accuracy(PLAYS)
    took = time.perf_counter() - t0
    n = total.plays
    rate = f"of {n} plays ({frames} frames, {took:.0f} s)"
    out = [
        Row("camera: plays logged right", f"{total.right} {rate}"),
        Row("camera: wrong card logged", f"{total.wrong}", goal="≤ 1 in 500",
            met=total.wrong * 500 <= n),
        Row("camera: phantom plays", f"{total.phantom}", goal="0", met=total.phantom == 0),
        Row("camera: asked (card null)", f"{total.asked} ({100 * total.asked / n:.1f} %)",
            goal="≤ 2 %", met=total.asked * 50 <= n),
        Row("camera: missed plays", f"{total.missed}", goal="≤ 1 in 500",
            met=total.missed * 500 <= n),
    ]
    if total.delays:
        worst = max(total.delays)
        out.append(Row("camera: frames from rest to log (median / max)",
                       f"{percentile(total.delays, 50):.0f} / {worst}", goal="≤ 5",
                       met=worst <= 5))
    cpu = measure("bench.camera", "cpu")
    judged = ("pi",) if cpu.runs.get("pi") else ("normal",)
    out.append(Row("camera: CPU ms per 640x480 frame, mean",
                   cpu.cell("normal", "mean"), cpu.cell("pi", "mean"),
                   "≤ 25 ms of one core on a Pi 4",
                   met(cpu, "mean", lambda ms: ms <= 25, judged), cpu.load))
    out.append(Row("camera: CPU ms to recognise a card (once per play)",
                   cpu.cell("normal", "recognise", "{:.0f}"),
                   cpu.cell("pi", "recognise", "{:.0f}"), load=cpu.load))
    return out


def child(mode: str) -> dict[str, float]:
    """One measurement, in a child process under one of bench.pi's conditions."""
    if mode == "cpu":
        return cpu_child(300)
    raise SystemExit(f"unknown mode {mode!r}")


def main(argv: Sequence[str] | None = None) -> None:
    """`python -m bench.camera` prints the rows; `--sequence K [--seed S]` prints one
    sequence's plays one a line; `--seed S [--plays N]` scores other seeds (development
    seeds: never tune on the bench's own)."""
    import argparse

    parser = argparse.ArgumentParser(prog="python -m bench.camera")
    parser.add_argument("--sequence", type=int, help="print this sequence's plays")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--plays", type=int, help="score this many plays of --seed, "
                        "printing the sequences with a play not right within 5 frames")
    parser.add_argument("--square", type=float, default=0.0, help="the share of cards "
                        "laid almost square on the top card (0..1; development runs)")
    parser.add_argument("--photos", type=int, default=PHOTOS_A_FACE,
                        help="photos a face the deck is taught from (1-3)")
    parser.add_argument("--glare", action="store_true", help="a strong lamp's reflection "
                        "near the pile spot in every frame (development runs)")
    args = parser.parse_args(argv)
    if args.sequence is not None:
        glare = dev_glare(args.seed, args.sequence) if args.glare else None
        seq, seen, _ms = run_sequence(args.sequence, args.seed, square=args.square,
                                      glare=glare, teach_photos=args.photos)
        print("\n".join(outcomes(seq.plays, seen)))
        print(f"disturbances: {seq.disturbances}")
    elif args.plays is not None:
        total = Score()
        k = 0
        while total.plays < args.plays:
            seq, seen, _ms = run_sequence(k, args.seed, min(PER_SEQUENCE,
                                                             args.plays - total.plays),
                                          square=args.square, teach_photos=args.photos,
                                          glare=dev_glare(args.seed, k) if args.glare
                                          else None)
            total.add(score(seq.plays, seen))
            bad = [line for line in outcomes(seq.plays, seen) if "right, " not in line
                   or "LATE" in line]
            for line in bad:
                print(f"sequence {k} {line}", flush=True)
            k += 1
        late = sorted(d for d in total.delays if d > 5)
        print(f"{total.plays} plays of seed {args.seed}: {total.right} right, {total.wrong} "
              f"wrong, {total.phantom} phantom, {total.asked} asked, {total.missed} missed; "
              f"rest to log median {percentile(total.delays, 50):.0f}, late {late}")
    else:
        for row in rows():
            print(row)


if __name__ == "__main__":
    main()
