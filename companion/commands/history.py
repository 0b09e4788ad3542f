"""`sorry-companion history [--json | --html]`: the stored games, oldest first.

One line per game: id, the game (its rules' name, which the journal stores), start date
(local time), players, the winner, "abandoned" or "unfinished", and the rounds played
(replayed from the journal, so undone rounds do not count).
`--html`: a page to print instead, the finished games and their leaderboard
(companion/commands/readable.py). Also home of the two helpers the journal commands share.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import TextIO

from companion.catalogue import text
from companion.config import config_from_args
from companion.errors import CompanionError
from companion.journal import GameRecord, Journal
from companion.paths import journal_file
from companion.safe_text import clip, json_text, quote
from companion.stats import game_stats, replay_events


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("history", help="list the stored games")
    shape = p.add_mutually_exclusive_group()
    shape.add_argument("--json", action="store_true", help="print one JSON list")
    shape.add_argument("--html", action="store_true",
                       help="print a page to open in a browser and print: the finished "
                            "games and the leaderboard")
    p.add_argument("-o", "--output", metavar="FILE",
                   help="with --html: write the page to FILE instead of standard output")
    p.set_defaults(run=run)


def open_journal(args: argparse.Namespace) -> Journal | None:
    """The journal of `--data` or the configuration, or None when there is none yet.

    Commands that only read never create, repair or change a journal (it is opened
    read-only); any damage found is reported on stderr, one sentence each.
    """
    config = config_from_args(args)
    path = journal_file(config.data_dir)
    if not path.exists():
        return None
    journal = Journal(path, readonly=True)
    report_damage(journal, 0)
    return journal


def report_damage(journal: Journal, since: int) -> int:
    """Print the journal's damage sentences from index `since`; returns the new index."""
    for note in journal.damage[since:]:
        print(f"sorry-companion: {note}", file=sys.stderr)
    return len(journal.damage)


def format_table(headers: Sequence[str], rows: Sequence[Sequence[object]],
                 right: Sequence[int] = ()) -> str:
    """Plain-text columns; the columns numbered in `right` are right-aligned."""
    cells = [[str(h) for h in headers], *[[clip(str(c), 40) for c in row] for row in rows]]
    widths = [max(len(r[i]) for r in cells) for i in range(len(headers))]
    lines = []
    for row in cells:
        parts = [c.rjust(w) if i in right else c.ljust(w)
                 for i, (c, w) in enumerate(zip(row, widths, strict=True))]
        lines.append("  ".join(parts).rstrip())
    return "\n".join(lines)


def _rounds(journal: Journal, record: GameRecord) -> int | None:
    game, _ = replay_events(journal.load(record.game_id).events)
    return None if game is None else game_stats(game).rounds_played


def outcome(record: GameRecord) -> str:
    """The WINNER column: the winner, "abandoned" (given up for a new game; not counted
    by `stats`) or "unfinished" (still resumable)."""
    if record.winner:
        return record.winner
    return "abandoned" if record.abandoned else "unfinished"


def write_output(path: Path, write: Callable[[TextIO], object]) -> None:
    """Write next to the target and rename, so a failed export leaves no half file."""
    tmp = path.with_name(f".{path.name}.tmp")
    try:
        with open(tmp, "w", encoding="utf-8", newline="") as out:
            write(out)
        os.replace(tmp, path)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise CompanionError(f"cannot write {quote(str(path))} ({exc.strerror or exc}); "
                             "choose another file with -o") from None


def run(args: argparse.Namespace) -> int:
    if args.html:
        return _run_html(args)
    if args.output is not None:
        raise CompanionError("-o writes the page of --html; add --html, or leave out -o to "
                             "print the list")
    journal = open_journal(args)
    if journal is None:
        print("[]" if args.json else
              f"No games are stored yet in {config_from_args(args).data_dir}.")
        return 0
    with journal:
        seen = len(journal.damage)
        listing = [(r, _rounds(journal, r)) for r in journal.games()]
        report_damage(journal, seen)
    if args.json:
        print(json_text([
            {"id": r.game_id, "game": r.game, "started": r.started.isoformat(),
             "finished": None if r.finished is None else r.finished.isoformat(),
             "players": list(r.players), "winner": r.winner, "abandoned": r.abandoned,
             "events": r.event_count, "rounds": rounds}
            for r, rounds in listing]))
        return 0
    if not listing:
        print("No games are stored yet.")
        return 0
    rows = [(r.game_id, r.game, r.started.astimezone().strftime("%Y-%m-%d %H:%M"),
             ", ".join(r.players), outcome(r), "?" if n is None else n)
            for r, n in listing]
    print(format_table(("ID", "GAME", "STARTED", "PLAYERS", "WINNER", "ROUNDS"), rows,
                       right=(0, 5)))
    return 0


def _run_html(args: argparse.Namespace) -> int:
    from companion.commands.finished import finished_games
    from companion.commands.readable import html_page

    games, left_out = finished_games(open_journal(args))
    page = html_page(games, left_out, printed=datetime.now(UTC))
    if args.output in (None, "-"):
        sys.stdout.write(page)
    else:
        write_output(Path(args.output), lambda out: out.write(page))
        print(f"finished: {text('count_games', n=len(games))} written to "
              f"{quote(args.output)}", file=sys.stderr)
    return 0
