"""`sorry-companion replay FILE [--json]`: apply a transcript and show the state.

Exit status (TRANSCRIPT.md): 0 all applied; 1 stopped at a line that breaks the rules or
the format (`line N: reason` on stderr, and with --json the state before that line);
2 the file cannot be read.
"""

from __future__ import annotations

import argparse
import json
import sys

from companion.limits import TRANSCRIPT_LIMIT, read_bounded, read_stdin
from companion.safe_text import one_line
from companion.state import GameState
from companion.transcript import replay_lines


def register(sub: argparse._SubParsersAction) -> None:
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
        print(f"cannot read {one_line(args.file, 80)}: {one_line(exc.strerror or str(exc))}",
              file=sys.stderr)
        return 2
    result = replay_lines(data.splitlines())
    state = None if result.game is None else result.game.state
    if args.json:
        print(json.dumps(None if state is None else state.to_json(), ensure_ascii=False))
    elif state is not None:
        print(summary(state))
    if result.error is not None:
        print(str(result.error), file=sys.stderr)
        return 1
    return 0


def summary(state: GameState) -> str:
    """A few readable lines: each player's HOME pawns, the total, whose turn, the winner."""
    lines = [
        f"{p.name:<12} {p.color.value:<6} home {p.home}/{state.setup.pawns}  "
        f"progress {p.progress}/{state.goal}  hand {p.hand}"
        for p in state.players
    ]
    lines.append(f"round {state.round}, total {state.total}, "
                 f"direction {'forward' if state.direction == 1 else 'reverse'}, "
                 f"draw pile {state.draw_pile}")
    if state.winner is not None:
        lines.append(f"winner: {state.name(state.winner)}")
    elif state.tiebreak is not None:
        lines.append("tiebreaker: " + ", ".join(state.name(s) for s in state.tiebreak.tied))
    else:
        waiting = f" (awaiting {state.awaiting.value})" if state.awaiting else ""
        lines.append(f"next: {state.turn_name}{waiting}")
    return "\n".join(lines)
