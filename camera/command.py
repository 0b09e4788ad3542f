"""`sorry-companion camera teach|watch` (CAMERA.md's contract).

Standard library only at import time, so the help lists the command everywhere; without
the extra (numpy, OpenCV) it says in one sentence how to install it, and exits 2.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

from camera.cards import games
from companion import plugins
from companion.safe_text import quote_path

# `camera teach` wrote the deck without a face none of whose photos showed the card (its
# report's last line names it): not 0, so `teach && watch` stops to say so; not 2 (nothing
# written). Its watcher asks every card until the face is taught.
PARTLY_TAUGHT = 1


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("camera", help="teach the camera a deck, or watch a folder of frames")
    verbs = p.add_subparsers(dest="camera_command")
    teach = verbs.add_parser("teach", help="teach a deck from a folder of photos")
    teach.add_argument("folder", metavar="FOLDER",
                       help="one sub-folder per card name with 1-3 photos of that face")
    teach.add_argument("--game", required=True, choices=sorted(games()))
    teach.add_argument("--out", required=True, metavar="MODEL", help="the model file to write")
    teach.set_defaults(run=needs_extra(_teach))
    watch = verbs.add_parser("watch", help="print the cards a folder of frames shows played")
    watch.add_argument("frames", metavar="FRAMES", help="a folder of PNG or JPEG frames")
    watch.add_argument("--model", required=True, metavar="MODEL")
    watch.add_argument("--fps", type=float, default=10.0)
    watch.add_argument("--json", action="store_true",
                       help="one JSON object a line (the default, kept for scripts)")
    watch.set_defaults(run=needs_extra(_watch))
    for game in plugins.names():  # each game's own verbs (a board watched, ...)
        module = plugins.layer(game, "camera_commands")
        if module is not None:
            module.register(verbs)
    verbs.metavar = "|".join(verbs.choices)
    p.set_defaults(run=lambda args: _usage(p))


def _usage(parser: argparse.ArgumentParser) -> int:
    parser.print_help(sys.stderr)
    return 2


def fail(message: str) -> int:
    """One sentence on standard error, exit status 2."""
    print(f"sorry-companion camera: {message}", file=sys.stderr)
    return 2


@contextlib.contextmanager
def native_noise_dropped() -> Iterator[None]:
    """libpng prints its own "libpng error: ..." to file descriptor 2 before OpenCV says a
    picture cannot be read: the command's one sentence would come second. For the command's
    run, descriptor 2 goes to /dev/null and Python's sys.stderr to a copy of the real one,
    so only the command's own words (and, under SORRY_COMPANION_TRACEBACK, its tracebacks)
    reach the terminal."""
    sys.stderr.flush()
    saved = os.dup(2)
    real = open(saved, "w", encoding=sys.stderr.encoding, errors="backslashreplace",  # noqa: SIM115
                closefd=True)
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 2)
    os.close(devnull)
    before, sys.stderr = sys.stderr, real
    try:
        yield
    finally:
        real.flush()
        sys.stderr = before
        os.dup2(saved, 2)
        real.close()


def extra_missing() -> str | None:
    from camera.extra import MissingExtra, require

    try:
        require()
    except MissingExtra as exc:
        return str(exc)
    return None


def needs_extra(body: Callable[[argparse.Namespace], int]
                ) -> Callable[[argparse.Namespace], int]:
    """A camera command's run: only its own words reach the terminal, and without the
    extra it says in one sentence how to install it."""
    def run(args: argparse.Namespace) -> int:
        with native_noise_dropped():
            missing = extra_missing()
            return fail(missing) if missing else body(args)
    return run


def _teach(args: argparse.Namespace) -> int:
    from camera.model import save
    from camera.teach import TeachError, photos_in, teach

    out = Path(args.out)
    if out.is_dir():
        return fail(f"{quote_path(str(out))} is a folder; give the model file's name, e.g. "
                     f"{quote_path(str(out / 'deck.npz'))}")
    if not out.parent.is_dir() and str(out.parent):
        return fail(f"the folder {quote_path(str(out.parent))} does not exist; create it or "
                     "choose another")
    try:
        taught = teach(photos_in(args.folder, args.game), args.game)
        save(taught.model, out)
    except TeachError as exc:
        return fail(f"{exc}; no model was written")
    except OSError as exc:
        return fail(f"could not write {quote_path(str(out))}: {exc.strerror or exc}; no model "
                     "was written")
    for line in taught.report():
        print(line)
    return PARTLY_TAUGHT if taught.missing else 0


def _watch(args: argparse.Namespace) -> int:
    from camera.model import ModelError, load
    from camera.sources import FolderSource, SourceError
    from camera.watcher import Watcher

    if not args.fps > 0:
        return fail(f"--fps must be more than 0, not {args.fps}")
    try:
        model = load(args.model)
        source = FolderSource(args.frames)
    except (ModelError, SourceError) as exc:
        return fail(str(exc))
    watcher = Watcher(model)
    try:
        for frame in source.frames():
            seen = watcher.feed(frame)
            if seen is not None:
                print(json.dumps(seen.to_json()), flush=True)
    except SourceError as exc:
        return fail(str(exc))
    return 0
