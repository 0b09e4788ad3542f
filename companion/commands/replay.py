"""`sorry-companion replay FILE [--json] [--game N]`: apply a transcript and show the state.

Exit status (TRANSCRIPT.md): 0 all applied; 1 stopped at a line that breaks the rules or
the format (`line N: reason` on stderr, and with --json the state before that line);
2 the file cannot be read.

FILE may also be a journal (journal.sqlite3, from the data folder or a backup): it is
looked at read-only, like `history`, any damage said in the same one sentence with its
count (the journal's one check), and its newest game (or `--game N`) is replayed.
"""

from __future__ import annotations

import argparse
import os
import stat
import sys
from pathlib import Path

from companion.commands.history import report_damage
from companion.errors import CompanionError, JournalError
from companion.game import SomeGame
from companion.journal import Journal
from companion.journal_pages import SQLITE_MAGIC
from companion.limits import TRANSCRIPT_LIMIT, read_bounded, read_stdin
from companion.safe_text import json_text, one_line, quote
from companion.stats import replay_events
from companion.transcript import replay_lines


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("replay", help="apply a transcript and print the resulting state")
    p.add_argument("file", metavar="FILE", help="a transcript (JSON Lines); - reads stdin")
    p.add_argument("--json", action="store_true", help="print the state as one JSON object")
    p.add_argument("--game", metavar="N", type=int,
                   help="when FILE is a journal: the game's id from `history` (default: "
                        "the newest game)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.file != "-" and _is_journal(args.file):
        return _replay_journal(args)
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
    _show(result.game, args.json)
    if result.error is not None:
        print(str(result.error), file=sys.stderr)
        return 1
    return 0


def _show(game: SomeGame | None, as_json: bool) -> None:
    if as_json:
        print(json_text(None if game is None else game.rules.state_json(game.state)))
    elif game is not None:
        describe = getattr(game.rules, "describe", None)
        print(describe(game.state) if describe is not None
              else json_text(game.rules.state_json(game.state), indent=1))


def _is_journal(name: str) -> bool:
    """A SQLite file (a journal, or something the journal's check will name). Only a
    regular file is opened: opening a FIFO would wait for a writer for ever."""
    try:
        if not stat.S_ISREG(os.stat(name).st_mode):
            return False  # said by the transcript path ("not a regular file")
        with open(name, "rb") as f:
            return f.read(len(SQLITE_MAGIC)) == SQLITE_MAGIC
    except OSError:
        return False  # said by the transcript path, with the file's name


def _replay_journal(args: argparse.Namespace) -> int:
    """A stored game replayed from a journal file, its damage said first."""
    try:
        journal = Journal(Path(args.file), readonly=True)
    except JournalError as exc:
        print(f"sorry-companion: {exc}", file=sys.stderr)
        return 2
    with journal:
        seen = report_damage(journal, 0)
        game_id = args.game
        if game_id is None:
            records = journal.games()
            if not records:
                raise CompanionError(f"{quote(args.file)} holds no games yet, so there is "
                                     "nothing to replay")
            game_id = records[-1].game_id
        stored = journal.load(game_id)  # no such game: one sentence (exit 1)
        report_damage(journal, seen)
    game, why = replay_events(stored.events)
    _show(game, args.json)
    if why is not None:
        print(f"game {game_id}: {why}", file=sys.stderr)
        return 1
    return 0

