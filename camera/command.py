"""`sorry-companion camera teach|watch` (CAMERA.md's contract).

Standard library only at import time, so the help lists the command everywhere; without
the extra (numpy, OpenCV) it says in one sentence how to install it, and exits 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from camera.cards import games


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("camera", help="teach the camera a deck, or watch a folder of frames")
    verbs = p.add_subparsers(dest="camera_command", metavar="teach|watch")
    teach = verbs.add_parser("teach", help="teach a deck from a folder of photos")
    teach.add_argument("folder", metavar="FOLDER",
                       help="one sub-folder per card name with 1-3 photos of that face")
    teach.add_argument("--game", required=True, choices=sorted(games()))
    teach.add_argument("--out", required=True, metavar="MODEL", help="the model file to write")
    teach.set_defaults(run=run_teach)
    watch = verbs.add_parser("watch", help="print the cards a folder of frames shows played")
    watch.add_argument("frames", metavar="FRAMES", help="a folder of PNG or JPEG frames")
    watch.add_argument("--model", required=True, metavar="MODEL")
    watch.add_argument("--fps", type=float, default=10.0)
    watch.add_argument("--json", action="store_true",
                       help="one JSON object a line (the default, kept for scripts)")
    watch.set_defaults(run=run_watch)
    p.set_defaults(run=lambda args: _usage(p))


def _usage(parser: argparse.ArgumentParser) -> int:
    parser.print_help(sys.stderr)
    return 2


def _fail(message: str) -> int:
    print(f"sorry-companion camera: {message}", file=sys.stderr)
    return 2


def _extra_missing() -> str | None:
    from camera.extra import MissingExtra, require

    try:
        require()
    except MissingExtra as exc:
        return str(exc)
    return None


def run_teach(args: argparse.Namespace) -> int:
    missing = _extra_missing()
    if missing:
        return _fail(missing)
    from camera.model import save
    from camera.teach import TeachError, photos_in, teach

    out = Path(args.out)
    if out.is_dir():
        return _fail(f"{out} is a folder; give the model file's name, e.g. {out / 'deck.npz'}")
    if not out.parent.is_dir() and str(out.parent):
        return _fail(f"the folder {out.parent} does not exist; create it or choose another")
    try:
        taught = teach(photos_in(args.folder, args.game), args.game)
        save(taught.model, out)
    except TeachError as exc:
        return _fail(f"{exc}; no model was written")
    except OSError as exc:
        return _fail(f"could not write {out}: {exc.strerror or exc}; no model was written")
    for line in taught.report():
        print(line)
    return 0


def run_watch(args: argparse.Namespace) -> int:
    missing = _extra_missing()
    if missing:
        return _fail(missing)
    from camera.model import ModelError, load
    from camera.sources import FolderSource, SourceError
    from camera.watcher import Watcher

    if not args.fps > 0:
        return _fail(f"--fps must be more than 0, not {args.fps}")
    try:
        model = load(args.model)
        source = FolderSource(args.frames)
    except (ModelError, SourceError) as exc:
        return _fail(str(exc))
    watcher = Watcher(model)
    try:
        for frame in source.frames():
            seen = watcher.feed(frame)
            if seen is not None:
                print(json.dumps(seen.to_json()), flush=True)
    except SourceError as exc:
        return _fail(str(exc))
    return 0
