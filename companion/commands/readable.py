"""The finished games in forms a family reads without the app: a spreadsheet's CSV and a
printable page (`export --csv`, `history --html`).

Finished games only, as `stats` counts them (companion.stats.counted): a game still open or
abandoned is no result. The CSV has one row per player of each game, so a spreadsheet can
sort, filter or add up wins per player; the page has one table per game, the games one a
line, then the same leaderboard as `stats`. Both are in English, as every command is.

>>> cell("=1+1"), cell("Zoé")
("'=1+1", 'Zoé')
"""

from __future__ import annotations

import csv
import html
import io
from collections.abc import Iterator, Sequence
from datetime import datetime

from companion import plugins
from companion.catalogue import text
from companion.commands.finished import Finished
from companion.commands.stats import COUNTER_HEADERS
from companion.stats import aggregate

CSV_HEAD = ("game_id", "game", "started", "finished", "player", "seat", "won")
# a game's headings when its words module names none (a game no longer here: its name)
TURNS = "turns"


def game_headings(game: str) -> tuple[str, str]:
    """A game's title on the page and the heading of what its rounds_played counts, from
    its folder's words module (TITLE, ROUNDS)."""
    words = plugins.words(game)
    title: object = getattr(words, "TITLE", game)
    rounds: object = getattr(words, "ROUNDS", TURNS)
    return str(title), str(rounds)


_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")  # a spreadsheet would run these


def when(moment: datetime | None) -> str:
    """A time as a spreadsheet reads it, in the table's local time ("" for none)."""
    return "" if moment is None else moment.astimezone().strftime("%Y-%m-%d %H:%M")


def cell(text: str) -> str:
    """A name as a spreadsheet cell: one starting like a formula gets a leading quote, so
    opening the file never runs a hand-written journal's "=HYPERLINK(...)"."""
    return f"'{text}" if text.startswith(_FORMULA_START) else text


def counter_names(games: Sequence[Finished]) -> list[str]:
    """Every game's own counters, in the order its rules give them (the card game's first
    when both games were played)."""
    return list(dict.fromkeys(k for g in games for p in g.stats.players for k in p.counters))


def counter_heading(counter: str) -> str:
    """ "steals made", "pawns home": a counter's heading, as `stats` words it."""
    return COUNTER_HEADERS.get(counter, counter.replace("_", " ")).lower()


def csv_rows(games: Sequence[Finished]) -> Iterator[list[object]]:
    counters = counter_names(games)
    yield [*CSV_HEAD, *counters]
    for g in games:
        r = g.record
        for seat, p in enumerate(g.stats.players, start=1):
            yield [r.game_id, r.game, when(r.started), when(r.finished), cell(p.name), seat,
                   p.wins, *(p.counters.get(k, "") for k in counters)]


def csv_text(games: Sequence[Finished]) -> str:
    """The CSV, with a byte-order mark so that a spreadsheet reads "Zoé" as written."""
    out = io.StringIO()
    csv.writer(out, lineterminator="\r\n").writerows(csv_rows(games))
    return "\ufeff" + out.getvalue()


_STYLE = """
body { font-family: "DejaVu Sans", Arial, sans-serif; margin: 2em; color: #111; }
h1 { font-size: 1.6em; } h2 { font-size: 1.25em; margin-top: 1.6em; }
table { border-collapse: collapse; margin: 0.6em 0; }
th, td { border: 1px solid #999; padding: 0.25em 0.6em; text-align: left; }
td.n { text-align: right; } th { background: #eee; }
tr { page-break-inside: avoid; }
@media print { body { margin: 0; } }
"""


def _table(head: Sequence[str], rows: Sequence[Sequence[object]], numbers: int = 0) -> str:
    """An HTML table; the last `numbers` columns are right-aligned figures."""
    first = len(head) - numbers
    lines = ["<table>", "<tr>" + "".join(f"<th>{html.escape(h)}</th>" for h in head) + "</tr>"]
    for row in rows:
        cells = "".join(f'<td{" class=n" if i >= first else ""}>{html.escape(str(c))}</td>'
                        for i, c in enumerate(row))
        lines.append(f"<tr>{cells}</tr>")
    return "\n".join([*lines, "</table>"])


def html_page(games: Sequence[Finished], left_out: int, *, printed: datetime) -> str:
    """A page to open in any browser and print: each game's results, then its leaderboard."""
    parts = ["<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
             "<title>Sorry! games at our table</title>", f"<style>{_STYLE}</style>",
             "</head>", "<body>", "<h1>Sorry! games at our table</h1>",
             f"<p>Finished: {text('count_games', n=len(games))}, as of "
             f"{html.escape(when(printed))}.</p>"]
    kinds = list(dict.fromkeys(g.record.game for g in games))
    for kind in kinds:
        mine = [g for g in games if g.record.game == kind]
        counters = counter_names(mine)
        title, rounds = game_headings(kind)
        parts.append(f"<h2>{html.escape(title)}</h2>")
        parts.append(_table(
            ("game", "played", "players", "winner", rounds),
            [(g.record.game_id, when(g.record.started),
              ", ".join(p.name for p in g.stats.players), g.stats.winner or "",
              "" if g.stats.rounds_played is None else g.stats.rounds_played) for g in mine],
            numbers=1))
        leaders = aggregate(g.stats for g in mine)
        parts.append(_table(
            ("player", "games", "wins", *(counter_heading(k) for k in counters)),
            [(p.name, p.games, p.wins, *(p.counters.get(k, 0) for k in counters))
             for p in leaders], numbers=2 + len(counters)))
    if not games:
        parts.append("<p>No finished games are stored yet.</p>")
    if left_out:
        parts.append(f"<p>Not shown: {text('count_games', n=left_out)} not finished or given up "
                     "(<code>sorry-companion history</code> lists them).</p>")
    return "\n".join([*parts, "</body>", "</html>"]) + "\n"
