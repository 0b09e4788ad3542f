"""`sorry-companion camera teach-board` and `watch-board` (BOARD-CAMERA.md's contract).

Standard library only at import time, so the help lists them everywhere; what they run
needs the camera's extra (games.board.camera), and without it they say in one sentence
how to install it, and exit 2.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from camera.command import fail, needs_extra
from companion.safe_text import quote, quote_path
from games.board.rules.geometry import COLORS

EDITIONS = ("classic", "2016")
GAME_LIMIT = 4 << 20  # bytes: a whole evening's draws are a few hundred kilobytes


def register(verbs: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    teach = verbs.add_parser("teach-board", help="teach the board from one photo of it set "
                             "up for a game")
    teach.add_argument("photo", metavar="PHOTO", help="a PNG or JPEG photo of the board with "
                       "every seated colour's pawns in START")
    teach.add_argument("--edition", required=True, choices=EDITIONS)
    teach.add_argument("--colors", required=True, help="the seated colours, e.g. red,blue")
    teach.add_argument("--out", required=True, metavar="MODEL", help="the model file to write")
    teach.add_argument("--corners", help='the board\'s outer corners in pixels, clockwise '
                       'from the outer corner of square T0: "x,y x,y x,y x,y"')
    teach.set_defaults(run=needs_extra(_teach))
    watch = verbs.add_parser("watch-board", help="print the moves a folder of frames shows")
    watch.add_argument("frames", metavar="FRAMES", help="a folder of PNG or JPEG frames")
    watch.add_argument("--model", required=True, metavar="MODEL")
    watch.add_argument("--game", required=True, metavar="GAME",
                       help="JSON Lines: a board-game setup, then one line a card drawn")
    watch.add_argument("--fps", type=float, default=5.0)
    watch.add_argument("--json", action="store_true",
                       help="one JSON object a line (the default, kept for scripts)")
    watch.set_defaults(run=needs_extra(_watch))


class BadInput(ValueError):
    """An argument or file that cannot be used, in one sentence."""


def colors_of(text: str) -> tuple[str, ...]:
    """The seated colours of `--colors`, in seat order (red, blue, yellow, green)."""
    named = [c.strip() for c in text.split(",") if c.strip()]
    unknown = [c for c in named if c not in COLORS]
    if unknown:
        raise BadInput(f"{quote(unknown[0])} is no colour; the colours are red, blue, yellow "
                       "and green")
    if len(set(named)) != len(named) or not 2 <= len(named) <= 4:
        raise BadInput("--colors names 2 to 4 different colours, e.g. red,blue")
    return tuple(c for c in COLORS if c in named)


def corners_of(text: str) -> list[tuple[float, float]]:
    """The four corners of `--corners`."""
    try:
        pairs = [tuple(float(v) for v in p.split(",")) for p in text.split()]
    except ValueError:
        pairs = []
    if len(pairs) != 4 or any(len(p) != 2 or not all(v == v and abs(v) < 1e5 for v in p)
                              for p in pairs):
        raise BadInput('--corners takes four x,y pixel pairs, clockwise from the outer '
                       'corner of square T0: "x,y x,y x,y x,y"')
    return [(p[0], p[1]) for p in pairs]


def _teach(args: argparse.Namespace) -> int:
    from camera.files import UnusableFile
    from camera.image_file import read_image
    from games.board.camera.find import NotFound
    from games.board.camera.model import save, teach

    out = Path(args.out)
    try:
        colors = colors_of(args.colors)
        corners = None if args.corners is None else corners_of(args.corners)
        if out.is_dir():
            raise BadInput(f"{quote_path(str(out))} is a folder; give the model file's name, "
                           f"e.g. {quote_path(str(out / 'camera-board.npz'))}")
        if str(out.parent) and not out.parent.is_dir():
            raise BadInput(f"the folder {quote_path(str(out.parent))} does not exist; create "
                           "it or choose another")
        photo = read_image(args.photo, "photo")
        model = teach(photo, args.edition, colors, corners)
        save(model, out)
    except (BadInput, UnusableFile, NotFound) as exc:
        return fail(f"{exc}; no model was written")
    except OSError as exc:
        return fail(f"could not write {quote_path(str(out))}: {exc.strerror or exc}; no model "
                    "was written")
    corners_text = " ".join(f"{x:.0f},{y:.0f}" for x, y in model.corners.tolist())
    print(f"board found: corners {corners_text} (clockwise from T0's)")
    print("pawns seen in START: " + ", ".join(colors))
    print(f"model written: {out}")
    return 0


def read_game(path: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The GAME file: its setup and its draw lines, each checked; BadInput says what is
    wrong, naming the line."""
    from companion.limits import InputRefused, read_bounded

    try:
        text = read_bounded(path, GAME_LIMIT, path).decode("utf-8")
    except (OSError, InputRefused, UnicodeDecodeError) as exc:
        why = getattr(exc, "strerror", None) or exc
        raise BadInput(f"cannot read the game {quote_path(path)}: {why}") from None
    rows = []
    for n, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except (ValueError, RecursionError):
            raise BadInput(f"{quote_path(path)} line {n} is not JSON") from None
        if not isinstance(obj, dict):
            raise BadInput(f"{quote_path(path)} line {n} is not a JSON object")
        rows.append((n, obj))
    if not rows or rows[0][1].get("type") != "setup" or rows[0][1].get("game") != "board":
        raise BadInput(f"{quote_path(path)} must start with a board-game setup line")
    setup = rows[0][1]
    draws = []
    for n, obj in rows[1:]:
        frame = obj.get("frame")
        if obj.get("type") != "draw" or isinstance(frame, bool) or not isinstance(frame, int) \
                or frame < 0 or not isinstance(obj.get("pawns"), dict):
            raise BadInput(f"{quote_path(path)} line {n}: a draw line is "
                           '{"type": "draw", "card": "7", "frame": 120, "pawns": {...}}')
        draws.append({**obj, "line": n})
    return setup, draws


def _watch(args: argparse.Namespace) -> int:
    from camera.sources import FolderSource, SourceError
    from companion.errors import CompanionError
    from games.board.camera.model import ModelError, load
    from games.board.camera.run import DrawLine, watch
    from games.board.rules.cards import parse_card
    from games.board.rules.position import Position
    from games.board.rules.rules import RULES

    if not args.fps > 0:
        return fail(f"--fps must be more than 0, not {args.fps}")
    try:
        model = load(args.model)
        setup_line, rows = read_game(args.game)
        setup = RULES.parse_setup(setup_line).to_json()
        if tuple(c for c in COLORS if c in setup["colors"]) != model.colors:
            raise BadInput(f"the game seats {', '.join(setup['colors'])} but the board was "
                           f"taught with {', '.join(model.colors)} in START; teach it again "
                           "with this game's colours")
        draws = []
        for row in rows:
            try:
                position = Position.parse({"edition": setup["edition"], "pawns": row["pawns"],
                                           "settings": setup.get("settings")})
                card = parse_card(str(row.get("card")))
            except CompanionError as exc:
                raise BadInput(f"{quote_path(args.game)} line {row['line']}: {exc}") from None
            draws.append(DrawLine(row["frame"], card, position))
        source = FolderSource(args.frames)
    except (ModelError, SourceError, BadInput) as exc:
        return fail(str(exc))
    except CompanionError as exc:
        return fail(f"{quote_path(args.game)} line 1: {exc}")
    try:
        for judgement in watch(source.frames(), model, setup, draws, args.fps):
            print(json.dumps(judgement.to_json()), flush=True)
    except (SourceError, ModelError) as exc:
        return fail(str(exc))
    return 0
