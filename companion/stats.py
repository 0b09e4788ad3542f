"""Statistics from games' effective histories: per player, per game and over the journal.

Everything is counted from the engine's outcomes on `Game.steps`, so an undone event
never counts and the rules are not restated here. A round "won" is a round whose
advance for reaching 21 went to that player: kept (ROUND_KEPT, also after a block) or
stolen (STOLEN).

>>> from companion.events import Setup
>>> g = Game(Setup.create(["Ana", "Ben"]))
>>> for card in ("10", "10", "5"):
...     _ = g.play(card)
>>> [(p.name, p.busts) for p in game_stats(g).players]
[('Ana', 1), ('Ben', 0)]
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from companion.engine import Happening
from companion.game import Game

__all__ = [
    "GameStats", "PlayerStats", "RoundProgress", "aggregate", "game_stats",
    "progress_history", "replay_events",
]

_COUNTED = {
    Happening.ROUND_KEPT: "rounds_won",
    Happening.STOLEN: "rounds_won",
    Happening.BUST: "busts",
    Happening.STEAL_BLOCKED: "steals_blocked",
}


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """One player's figures; `steals` are steals made, `steals_blocked` steals they blocked."""

    name: str
    games: int = 0
    wins: int = 0
    rounds_won: int = 0
    busts: int = 0
    steals: int = 0
    steals_blocked: int = 0

    def __add__(self, other: PlayerStats) -> PlayerStats:
        return PlayerStats(
            self.name, self.games + other.games, self.wins + other.wins,
            self.rounds_won + other.rounds_won, self.busts + other.busts,
            self.steals + other.steals, self.steals_blocked + other.steals_blocked)

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


@dataclass(frozen=True, slots=True)
class RoundProgress:
    """Every seat's progress right after round `round` ended."""

    round: int
    progress: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class GameStats:
    players: tuple[PlayerStats, ...]  # in seat order
    rounds: tuple[RoundProgress, ...]
    winner: str | None

    @property
    def rounds_played(self) -> int:
        return len(self.rounds)


def game_stats(game: Game) -> GameStats:
    """One game's figures, from its effective history (undone steps do not count)."""
    state = game.state
    names = game.setup.players
    counts = [dict.fromkeys(("rounds_won", "busts", "steals", "steals_blocked"), 0)
              for _ in names]
    for step in game.steps:
        for out in step.outcomes:
            if out.seat is None:
                continue
            key = _COUNTED.get(out.what)
            if key is not None:
                counts[out.seat][key] += 1
            if out.what is Happening.STOLEN:
                counts[out.seat]["steals"] += 1
    players = tuple(
        PlayerStats(name, games=1, wins=int(state.winner == seat), **counts[seat])
        for seat, name in enumerate(names))
    winner = None if state.winner is None else state.name(state.winner)
    return GameStats(players, progress_history(game), winner)


def progress_history(game: Game) -> tuple[RoundProgress, ...]:
    """Progress after each ended round, for the game-over picture.

    Followed outcome by outcome (an advance's value is the new progress), because one
    event can end two rounds: a card logged while a window is open closes it first.
    """
    history: list[RoundProgress] = []
    for step in game.steps:
        progress = list(step.before.progress)
        for out in step.outcomes:
            if out.what in (Happening.ADVANCE, Happening.MOVE_BACK) and out.seat is not None:
                progress[out.seat] = int(out.value or 0)
            elif out.what is Happening.ROUND_ENDED:
                history.append(RoundProgress(int(out.value or 0), tuple(progress)))
    return tuple(history)


def aggregate(games: Iterable[GameStats]) -> list[PlayerStats]:
    """Totals per player over many games; names that differ only in case are one player.

    Ordered by wins, then rounds won, then name.
    """
    totals: dict[str, PlayerStats] = {}
    for stats in games:
        for player in stats.players:
            key = player.name.casefold()
            if key in totals:
                totals[key] = totals[key] + player
            else:
                totals[key] = player
    return sorted(totals.values(),
                  key=lambda p: (-p.wins, -p.rounds_won, p.name.casefold()))


def replay_events(events: Iterable[dict[str, Any]]) -> tuple[Game | None, str | None]:
    """A stored game replayed as far as it goes, and why it stopped early (None: it didn't).

    One game that does not replay (an older version's rules, a hand-edited file) never
    hides the others.
    """
    game, applied, error = Game.replay_stored(events)
    if error is None:
        return game, None
    if game is None:
        if error.code == "no_setup":
            return None, "it does not start with its setup"
        return None, f"its setup cannot be read ({error})"
    return game, f"event {applied} cannot be replayed ({error})"
