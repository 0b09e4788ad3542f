"""`sorry-companion export [GAME_ID] [-o FILE]`: a stored game as a transcript.

JSON Lines, the setup first, then every stored event exactly as journalled (undos and
redos included), so `sorry-companion replay` rebuilds the very state the table had.
Default: the newest game, written to standard output.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from companion.catalogue import text
from companion.commands.history import open_journal, report_damage
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
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
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
    _write_file(Path(args.output), stored.events)
    print(f"game {game_id}: {text('count_events', n=len(stored.events))} written to "
          f"{quote(args.output)}",
          file=sys.stderr)
    return 0


def _write_file(path: Path, events: list[dict[str, Any]]) -> None:
    """Write next to the target and rename, so a failed export leaves no half file."""
    tmp = path.with_name(f".{path.name}.tmp")
    try:
        with open(tmp, "w", encoding="utf-8") as out:
            write_transcript(out, events)
        os.replace(tmp, path)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise CompanionError(f"cannot write {quote(str(path))} ({exc.strerror or exc}); "
                             "choose another file with -o") from None
