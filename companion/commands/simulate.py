"""`sorry-companion simulate`: bots play whole games with real cards against the engine.

It plays N seeded games (game i of seed S is always the same game), optionally writes
each transcript (DIR/game-0001.jsonl, ...) for `replay`, and prints a summary. The bots'
real cards follow the engine's card movements (companion/games/revenge/simulate.py); a
table that cannot follow them (or a wrong tap the engine accepts) stops the run with exit
status 1 and, with --out, its transcript so far. The rules are cross-checked in the tests.
Bad arguments get one sentence and exit status 2.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.config import config_from_args
from companion.games.revenge.events import (
    MAX_PAWNS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    Setup,
    Variant,
)
from companion.games.revenge.simulate import SimulatedGame, SimulationError, simulate
from companion.safe_text import quote
from companion.transcript import write_transcript


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("simulate",
                       help="bots play whole games with real cards against the rules engine")
    # Values are checked in `run`, so a bad one gets one sentence, not argparse's usage.
    p.add_argument("--games", default="100", metavar="N", help="games to play (default 100)")
    p.add_argument("--players", default=str(MAX_PLAYERS), metavar="P",
                   help=f"{MIN_PLAYERS} to {MAX_PLAYERS} (default {MAX_PLAYERS})")
    p.add_argument("--seed", default="1", metavar="S", help="whole number (default 1)")
    p.add_argument("--pawns", default=str(MAX_PAWNS), metavar="K",
                   help=f"1 to {MAX_PAWNS} (default {MAX_PAWNS})")
    p.add_argument("--variant", default=Variant.STANDARD.value, metavar="V",
                   help="standard or long (default standard)")
    p.add_argument("--out", metavar="DIR", help="write each game's transcript into DIR")
    p.add_argument("--game", default="revenge", metavar="G",
                   help="revenge (the card game, default) or board")
    p.add_argument("--edition", metavar="E", help="board game: classic (default) or 2016")
    p.set_defaults(run=run)


class _Refused(Exception):
    """A bad argument; the message is the one sentence to print."""


def _whole(name: str, text: str, low: int, high: int | None = None) -> int:
    try:
        value = int(text)
    except ValueError:
        value = None
    if value is None or value < low or (high is not None and value > high):
        allowed = f"from {low} to {high}" if high is not None else f"{low} or more"
        raise _Refused(f"--{name} must be a whole number {allowed}, not {quote(text)}")
    return value


@dataclass(frozen=True)
class _Run:
    games: int
    players: int
    seed: int
    pawns: int
    variant: str


def _options(args: argparse.Namespace) -> _Run:
    if args.variant not in (Variant.STANDARD.value, Variant.LONG.value):
        raise _Refused(f"--variant must be standard or long, not {quote(args.variant)}")
    return _Run(
        games=_whole("games", args.games, 1),
        players=_whole("players", args.players, MIN_PLAYERS, MAX_PLAYERS),
        seed=_whole("seed", args.seed, -(2**63)),
        pawns=_whole("pawns", args.pawns, 1, MAX_PAWNS),
        variant=args.variant,
    )


def out_folder(out: str | None) -> Path | None:
    """The --out folder, made if missing; one that cannot be made is refused."""
    if out is None:
        return None
    try:
        Path(out).mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise _Refused(f"cannot write into {quote(out)} ({exc.strerror or exc})") from exc
    return Path(out)


def _write(out: Path, index: int, events: list[Any]) -> None:
    with open(out / f"game-{index:04d}.jsonl", "w", encoding="utf-8") as f:
        write_transcript(f, events)


def run(args: argparse.Namespace) -> int:
    if args.game != "revenge" or args.edition is not None:
        from companion.commands.simulate_board import run_board
        return run_board(args)
    try:
        opts = _options(args)
        out = out_folder(args.out)
    except _Refused as exc:
        print(f"sorry-companion simulate: {exc}", file=sys.stderr)
        return 2
    deck = config_from_args(args).deck
    tally = Tally()
    start = time.perf_counter()
    for i in range(1, opts.games + 1):
        rng = random.Random(f"{opts.seed}/{i}")  # game i of a seed is always the same game
        try:
            game = simulate(rng, players=opts.players, pawns=opts.pawns,
                            variant=opts.variant, deck=deck)
        except SimulationError as exc:
            if out is not None:
                _write(out, i, exc.events)
            print(f"game {i}: the table could not follow the engine {exc}", file=sys.stderr)
            return 1
        if out is not None:
            _write(out, i, game.events)
        tally.add(game)
    print(tally.summary(time.perf_counter() - start))
    return 0


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
