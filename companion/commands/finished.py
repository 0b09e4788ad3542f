"""The finished games and their figures, read once for every command that counts them:
`stats`, `export --csv` and `history --html` (one loop, so they never disagree on which
games count or how many are left out).

Finished games only (companion.stats.counted): a game still open or abandoned is no
result, and is counted as left out (`history` lists it).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

from companion.commands.history import report_damage
from companion.journal import GameRecord, Journal
from companion.stats import GameStats, counted, game_stats, replay_events

__all__ = ["Finished", "finished_games"]


@dataclass(frozen=True, slots=True)
class Finished:
    record: GameRecord
    stats: GameStats


def finished_games(journal: Journal | None) -> tuple[list[Finished], int]:
    """Every finished game with its figures, and how many stored games are left out; the
    journal's damage, and a game that does not replay to its end, said on stderr."""
    done: list[Finished] = []
    left_out = 0
    if journal is None:
        return done, left_out
    with journal:
        seen = len(journal.damage)
        for record in journal.games():
            if not counted(record):
                left_out += 1
                continue
            game, problem = replay_events(journal.load(record.game_id).events)
            if problem:
                print(f"sorry-companion: game {record.game_id}: {problem}; it is counted as "
                      "far as it goes", file=sys.stderr)
            if game is not None:
                done.append(Finished(record, game_stats(game)))
        report_damage(journal, seen)
    return done, left_out
