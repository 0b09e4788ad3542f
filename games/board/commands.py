"""`sorry-companion board options FILE --card C --color X [--json]` (BOARD.md "Contract").

Lists every legal option of a card for one colour in a position, or says why there is
none. A position, card or colour that is wrong: one sentence on stderr and exit status 2.
The board game's commands (its manifest's `commands`); its rules are imported when a
command runs, so building the command line loads no game.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from companion.errors import CompanionError
from companion.limits import TRANSCRIPT_LIMIT, InputRefused, read_bounded, read_stdin
from companion.safe_text import json_text, quote


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("board", help="the Sorry! board game's referee tools")
    board_sub = p.add_subparsers(dest="board_command", metavar="SUBCOMMAND", required=True)
    o = board_sub.add_parser("options", help="every legal option of a card in a position")
    o.add_argument("file", metavar="FILE", help="a position (JSON); - reads stdin")
    o.add_argument("--card", required=True, help="1, 2, 3, 4, 5, 7, 8, 10, 11, 12 or sorry")
    o.add_argument("--color", required=True, help="the colour to play")
    o.add_argument("--json", action="store_true", help="print one JSON object")
    o.set_defaults(run=run_options)


def _fail(message: str) -> int:
    print(f"sorry-companion: {message}", file=sys.stderr)
    return 2


def run_options(args: argparse.Namespace) -> int:
    from games.board.rules.cards import parse_card
    from games.board.rules.explain import forfeit_text
    from games.board.rules.moves import blocked, generate
    from games.board.rules.position import Position

    try:
        if args.file == "-":
            data = read_stdin(TRANSCRIPT_LIMIT)
        else:
            data = read_bounded(args.file, TRANSCRIPT_LIMIT, args.file)
    except InputRefused as exc:
        return _fail(str(exc))
    except OSError as exc:
        return _fail(f"cannot read {quote(args.file)}: {exc.strerror or exc}")
    try:
        obj = json.loads(data)
    except (ValueError, RecursionError):
        return _fail(f"{quote(args.file)} is not a JSON position; write one such as "
                     '{"edition": "classic", "pawns": {"red": ["START", "T4", "S2", "HOME"]}}')
    try:
        position = Position.parse(obj)
        card = parse_card(args.card)
    except CompanionError as exc:
        return _fail(str(exc))
    if args.color not in position.colors:
        return _fail(f"{quote(args.color)} has no pawns in this position; the colours are "
                     + ", ".join(position.colors))
    found = generate(position, card, args.color)
    out: dict[str, Any] = {"forfeit": not found,
                           "draw_again": (position.edition == "classic" and card == "2"
                                          and not (found and all(o.wins for o in found))),
                           "options": [o.to_json() for o in found]}
    if not found:
        why = blocked(position, card, args.color)
        out["reason"] = forfeit_text(args.color, card, why, words=False)
    if args.json:
        print(json_text(out))
        return 0
    for i, option in enumerate(found, start=1):
        print(f"{i}. {option.text}: {option.label('en')}\n   {option.why('en')}")
    if not found:
        print(forfeit_text(args.color, card, why))
    if out["draw_again"]:
        print("Then draw again (classic 2), unless the move wins.")
    return 0
