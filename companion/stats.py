"""Statistics over stored games, whatever the game: per player, per game, over the journal.

Each game's counters come from its rules (`Rules.stats` on `Game.steps`, so an undone
event never counts); the core adds games and wins and sums the counters over games.

>>> g = Game.from_json([{"type": "setup", "players": ["Ana", "Ben"]},
...                     *({"type": "play", "card": c} for c in ("10", "10", "5"))])
>>> [(p.name, p.busts) for p in game_stats(g).players]
[('Ana', 1), ('Ben', 0)]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from companion.game import Game, SomeGame

__all__ = ["GameStats", "PlayerStats", "aggregate", "counted", "game_stats", "replay_events"]


class PlayerStats:
    """One player's figures: games and wins (the core's), and the game's own counters
    (the card game's rounds_won, busts, steals, steals_blocked), read as attributes."""

    __slots__ = ("counters", "games", "name", "wins")

    def __init__(self, name: str, games: int = 0, wins: int = 0, **counters: int) -> None:
        self.name, self.games, self.wins = name, games, wins
        self.counters: dict[str, int] = dict(counters)

    def __getattr__(self, key: str) -> int:
        counters = object.__getattribute__(self, "counters") if key != "counters" else None
        if counters is None or key not in counters:
            raise AttributeError(f"{type(self).__name__} has no figure {key!r}")
        value: int = counters[key]
        return value

    def __add__(self, other: PlayerStats) -> PlayerStats:
        keys = dict.fromkeys([*self.counters, *other.counters])
        return PlayerStats(self.name, self.games + other.games, self.wins + other.wins,
                           **{k: self.counters.get(k, 0) + other.counters.get(k, 0)
                              for k in keys})

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PlayerStats) and self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        figures = ", ".join(f"{k}={v!r}" for k, v in self.to_json().items() if k != "name")
        return f"PlayerStats({self.name!r}, {figures})"

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "games": self.games, "wins": self.wins, **self.counters}


@dataclass(frozen=True, slots=True)
class GameStats:
    players: tuple[PlayerStats, ...]  # in seat order
    winner: str | None
    rounds_played: int | None = None  # for games that have rounds (the card game)


def game_stats(game: SomeGame) -> GameStats:
    """One game's figures, from its effective history (undone steps do not count)."""
    rules, steps = game.rules, game.steps
    summary = rules.summary(game.state)
    names: tuple[str, ...] = getattr(rules, "counters", ())
    per_player: Mapping[str, Mapping[str, int]] = rules.stats(steps)
    players = tuple(
        PlayerStats(name, games=1, wins=int(summary.winner == name),
                    **{**dict.fromkeys(names, 0), **per_player.get(name, {})})
        for name in summary.players)
    rounds = getattr(rules, "rounds_played", None)
    return GameStats(players, summary.winner, None if rounds is None else rounds(steps))


def counted(record: Any) -> bool:
    """Whether a stored game (a journal GameRecord) counts in the figures: finished games
    only (it has a winner). A game still open, or abandoned (given up for a new one before
    anyone won), stays in the history, marked so, but its busts, steals and rounds never
    reach anyone's totals, and it is no game played: "Games" on the leaderboard is games
    played to the end, and a mistaken or interrupted game must not change it."""
    return getattr(record, "winner", None) is not None and not getattr(record, "abandoned",
                                                                       False)


def aggregate(games: Iterable[GameStats]) -> list[PlayerStats]:
    """Totals per player over many games; names that differ only in case are one player.

    Ordered by wins, then the game's first counter (the card game's rounds won), then name.
    """
    totals: dict[str, PlayerStats] = {}
    for stats in games:
        for player in stats.players:
            key = player.name.casefold()
            totals[key] = totals[key] + player if key in totals else player

    def order(p: PlayerStats) -> tuple[int, int, str]:
        first = next(iter(p.counters.values()), 0)
        return -p.wins, -first, p.name.casefold()

    return sorted(totals.values(), key=order)


def replay_events(events: Iterable[dict[str, Any]]) -> tuple[SomeGame | None, str | None]:
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
