"""`sorry-companion stats [--json]`: per game, per player over every stored game.

Games, wins and the game's own counters (the card game's rounds won, busts, steals made and
steals blocked), counted from each game's effective history (companion/stats.py): one table
per game (the journal stores each game's name), headed by that name when there are several.
Names differing only in case are one player. Finished games only: games still open and
abandoned ones are left out (companion.stats.counted), and the table says how many.
`--json`: one list of player rows, each with its "game".
"""

from __future__ import annotations

import argparse

from companion.commands.finished import finished_games
from companion.commands.history import format_table, open_journal
from companion.safe_text import json_text
from companion.stats import GameStats, PlayerStats, aggregate

HEADERS = ("PLAYER", "GAMES", "WINS")  # then each of the game's counters, in its order
COUNTER_HEADERS = {"steals": "STEALS MADE"}  # else the counter's name in capitals


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("stats", help="per-player statistics over the stored games")
    p.add_argument("--json", action="store_true", help="print one JSON list")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    games, uncounted = finished_games(open_journal(args))
    per_game: dict[str, list[GameStats]] = {}
    for finished in games:
        per_game.setdefault(finished.record.game, []).append(finished.stats)
    tables = {name: aggregate(figures) for name, figures in per_game.items()}
    if args.json:
        print(json_text([{"game": name, **p.to_json()} for name, players in tables.items()
                         for p in players]))
        return 0
    note = (f"Not counted (not finished or abandoned; `history` lists them): {uncounted}"
            if uncounted else "")
    if not tables:
        print("No games are stored yet." if not note
              else f"No finished games are stored yet.\n{note}")
        return 0
    print("\n\n".join((f"{name}:\n" if len(tables) > 1 else "") + _table(players)
                      for name, players in tables.items()))
    if note:
        print(note)
    return 0


def _table(players: list[PlayerStats]) -> str:
    counters = list(dict.fromkeys(k for p in players for k in p.counters))
    headers = (*HEADERS, *(COUNTER_HEADERS.get(k, k.replace("_", " ").upper())
                           for k in counters))
    rows = [(p.name, p.games, p.wins, *(p.counters.get(k, 0) for k in counters))
            for p in players]
    return format_table(headers, rows, right=range(1, len(headers)))
