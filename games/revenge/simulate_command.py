"""The card game's part of `sorry-companion simulate` (companion.commands.simulate): bots
play whole games with real cards against the engine.

The bots' real cards follow the engine's card movements (games/revenge/rules/simulate.py);
a table that cannot follow them (or a wrong tap the engine accepts) stops the run with
exit status 1 and, with --out, its transcript so far. The rules are cross-checked in the
tests. Bad arguments get one sentence and exit status 2.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from dataclasses import dataclass, field

from companion.commands.simulate_tools import Refused, out_folder, whole, write_game
from companion.config import config_from_args
from companion.safe_text import quote
from games.revenge.config import deck_profile
from games.revenge.rules.events import (
    MAX_PAWNS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    Setup,
    Variant,
)
from games.revenge.rules.simulate import SimulatedGame, SimulationError, simulate


class RevengeSimulation:
    """The card game's options and bots for `simulate`."""

    options = ("pawns", "variant")

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--pawns", metavar="K",
                            help=f"card game: 1 to {MAX_PAWNS} (default {MAX_PAWNS})")
        parser.add_argument("--variant", metavar="V",
                            help="card game: standard or long (default standard)")

    def run(self, args: argparse.Namespace) -> int:
        return run(args)


@dataclass(frozen=True)
class _Run:
    games: int
    players: int
    seed: int
    pawns: int
    variant: str


def _options(args: argparse.Namespace) -> _Run:
    variant = args.variant or Variant.STANDARD.value
    if variant not in (Variant.STANDARD.value, Variant.LONG.value):
        raise Refused(f"--variant must be standard or long, not {quote(variant)}")
    return _Run(
        games=whole("games", args.games, 1),
        players=whole("players", args.players or str(MAX_PLAYERS), MIN_PLAYERS, MAX_PLAYERS),
        seed=whole("seed", args.seed, -(2**63)),
        pawns=whole("pawns", args.pawns or str(MAX_PAWNS), 1, MAX_PAWNS),
        variant=variant,
    )


def run(args: argparse.Namespace) -> int:
    """Play the games; 1 when the table could not follow the engine. Refused: a bad
    argument (companion.commands.simulate says it)."""
    opts = _options(args)
    out = out_folder(args.out)
    deck = deck_profile(config_from_args(args))
    tally = Tally()
    start = time.perf_counter()
    for i in range(1, opts.games + 1):
        rng = random.Random(f"{opts.seed}/{i}")  # game i of a seed is always the same game
        try:
            game = simulate(rng, players=opts.players, pawns=opts.pawns,
                            variant=opts.variant, deck=deck)
        except SimulationError as exc:
            if out is not None:
                write_game(out, i, exc.events)
            print(f"game {i}: the table could not follow the engine {exc}", file=sys.stderr)
            return 1
        if out is not None:
            write_game(out, i, game.events)
        tally.add(game)
    print(tally.summary(time.perf_counter() - start))
    return 0


SIMULATION = RevengeSimulation()


@dataclass
class Tally:
    """Running totals, so that `--games 1000000` needs no more memory than one game."""

    setup: Setup | None = None
    games: int = 0
    rounds: int = 0
    ties: int = 0
    stalled: int = 0
    wins: Counter[int | None] = field(default_factory=Counter)

    def add(self, game: SimulatedGame) -> None:
        self.setup = self.setup or game.game.setup
        self.games += 1
        self.rounds += game.rounds
        self.ties += bool(game.stats["tied"])
        self.stalled += game.stalled
        self.wins[game.state.winner] += 1

    def summary(self, seconds: float) -> str:
        """Games, average rounds, wins per seat, ties and time, one fact per line."""
        setup = self.setup
        assert setup is not None
        seats = ", ".join(f"{name} {self.wins[i]}" for i, name in enumerate(setup.players))
        lines = [
            f"games: {self.games} ({len(setup.players)} players, {setup.pawns} pawns, "
            f"{setup.variant.value})",
            f"average rounds: {self.rounds / self.games:.1f}",
            f"wins per seat: {seats}",
            f"games with a tiebreaker: {self.ties}",
            f"seconds: {seconds:.2f} ({self.games / seconds:.0f} games/s)",
        ]
        if self.stalled:
            lines.append(f"stalled (a player with no card and none to draw): {self.stalled}")
        return "\n".join(lines)
