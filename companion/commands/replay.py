"""`sorry-companion replay FILE [--json]`: apply a transcript and show the state.

Exit status (TRANSCRIPT.md): 0 all applied; 1 stopped at a line that breaks the rules or
the format (`line N: reason` on stderr, and with --json the state before that line);
2 the file cannot be read.
"""

from __future__ import annotations

import argparse
import sys

from companion.limits import TRANSCRIPT_LIMIT, read_bounded, read_stdin
from companion.safe_text import json_text, one_line, quote
from companion.transcript import replay_lines


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("replay", help="apply a transcript and print the resulting state")
    p.add_argument("file", metavar="FILE", help="a transcript (JSON Lines); - reads stdin")
    p.add_argument("--json", action="store_true", help="print the state as one JSON object")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    try:
        if args.file == "-":
            data = read_stdin(TRANSCRIPT_LIMIT)
        else:
            data = read_bounded(args.file, TRANSCRIPT_LIMIT, args.file)
    except OSError as exc:
        print(f"cannot read {quote(args.file)}: {one_line(exc.strerror or str(exc))}",
              file=sys.stderr)
        return 2
    result = replay_lines(data.splitlines())
    game = result.game
    if args.json:
        print(json_text(None if game is None else game.rules.state_json(game.state)))
    elif game is not None:
        describe = getattr(game.rules, "describe", None)
        print(describe(game.state) if describe is not None
              else json_text(game.rules.state_json(game.state), indent=1))
    if result.error is not None:
        print(str(result.error), file=sys.stderr)
        return 1
    return 0

