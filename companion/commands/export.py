"""`sorry-companion export [GAME_ID] [-o FILE]`: a stored game as a transcript.

JSON Lines, the setup first, then every stored event exactly as journalled (undos and
redos included), so `sorry-companion replay` rebuilds the very state the table had.
Default: the newest game, written to standard output.
`export --csv [-o FILE]`: every finished game instead, one row per player, for a
spreadsheet (companion/commands/readable.py).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from companion.catalogue import text
from companion.commands.finished import finished_games
from companion.commands.history import open_journal, report_damage, write_output
from companion.commands.readable import csv_text
from companion.config import config_from_args
from companion.errors import CompanionError
from companion.safe_text import quote
from companion.transcript import write_transcript


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("export", help="write a stored game as a transcript (JSON Lines)")
    p.add_argument("game_id", metavar="GAME_ID", nargs="?", type=int,
                   help="the game's id from `history` (default: the newest game)")
    p.add_argument("-o", "--output", metavar="FILE",
                   help="write to FILE instead of standard output")
    p.add_argument("--csv", action="store_true",
                   help="every finished game as CSV for a spreadsheet, one row per player")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.csv:
        return _run_csv(args)
    journal = open_journal(args)
    if journal is None:
        raise CompanionError(f"no games are stored in {config_from_args(args).data_dir} "
                             "yet, so there is nothing to export")
    with journal:
        seen = len(journal.damage)
        game_id = args.game_id
        if game_id is None:
            records = journal.games()
            if not records:
                raise CompanionError("the journal holds no games yet, so there is nothing "
                                     "to export")
            game_id = records[-1].game_id
        stored = journal.load(game_id)
        report_damage(journal, seen)
    if not stored.events:
        raise CompanionError(f"game {game_id} has no readable setup, so it cannot be exported")
    if args.output in (None, "-"):
        write_transcript(sys.stdout, stored.events)
        return 0
    write_output(Path(args.output), lambda out: write_transcript(out, stored.events))
    print(f"game {game_id}: {text('count_events', n=len(stored.events))} written to "
          f"{quote(args.output)}",
          file=sys.stderr)
    return 0


def _run_csv(args: argparse.Namespace) -> int:
    if args.game_id is not None:
        raise CompanionError("--csv writes every finished game; leave out GAME_ID, or drop "
                             "--csv to export that one game as a transcript")
    games, left_out = finished_games(open_journal(args))
    rows = csv_text(games)
    if args.output in (None, "-"):
        sys.stdout.write(rows)
    else:
        write_output(Path(args.output), lambda out: out.write(rows))
    note = f"; {left_out} not finished or given up, left out" if left_out else ""
    print(f"finished: {text('count_games', n=len(games))} written{note}", file=sys.stderr)
    return 0
