"""`sorry-companion stats [--json]`: per player over every stored game.

Games, wins, rounds won, busts, steals made and steals blocked, counted from each
game's effective history (companion/stats.py). Names differing only in case are one
player. Abandoned games are left out (companion.stats.counted).
"""

from __future__ import annotations

import argparse
import sys

from companion.commands.history import format_table, open_journal, report_damage
from companion.safe_text import json_text
from companion.stats import GameStats, aggregate, counted, game_stats, replay_events

HEADERS = ("PLAYER", "GAMES", "WINS")  # then each of the game's counters, in its order
COUNTER_HEADERS = {"steals": "STEALS MADE"}  # else the counter's name in capitals


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("stats", help="per-player statistics over the stored games")
    p.add_argument("--json", action="store_true", help="print one JSON list")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    journal = open_journal(args)
    per_game: list[GameStats] = []
    if journal is not None:
        with journal:
            seen = len(journal.damage)
            for record in journal.games():
                if not counted(record):
                    continue  # abandoned: listed by `history`, never counted
                game, problem = replay_events(journal.load(record.game_id).events)
                if problem:
                    print(f"sorry-companion: game {record.game_id}: {problem}; "
                          "it is counted as far as it goes", file=sys.stderr)
                if game is not None:
                    per_game.append(game_stats(game))
            report_damage(journal, seen)
    players = aggregate(per_game)
    if args.json:
        print(json_text([p.to_json() for p in players]))
        return 0
    if not players:
        print("No games are stored yet.")
        return 0
    counters = list(dict.fromkeys(k for p in players for k in p.counters))
    headers = (*HEADERS, *(COUNTER_HEADERS.get(k, k.replace("_", " ").upper())
                           for k in counters))
    rows = [(p.name, p.games, p.wins, *(p.counters.get(k, 0) for k in counters))
            for p in players]
    print(format_table(headers, rows, right=range(1, len(headers))))
    return 0
