"""The board game's part of `sorry-companion simulate --game board --edition
classic|2016` (companion.commands.simulate): bots play board games.

Each bot draws with the electronic deck and takes one of the legal options the rules list
(games/board/rules/simulate.py); game i of a seed is always the same game. With --out,
each transcript is written for `replay`. Bad arguments: one sentence, exit 2. The rules
are imported when a board game is simulated, not when the command line is built.
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from companion.commands.simulate_tools import Refused, out_folder, whole, write_game
from companion.config import config_from_args
from companion.safe_text import quote

if TYPE_CHECKING:
    from games.board.rules.simulate import SimulatedBoardGame


PLAYERS = (2, 4)  # how many may play (the most: the default)


class BoardSimulation:
    """The board game's options and bots for `simulate`."""

    options = ("edition",)

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--edition", metavar="E",
                            help="board game: classic (default) or 2016")

    def run(self, args: argparse.Namespace) -> int:
        return run_board(args)


@dataclass
class BoardTally:
    """Running totals, so a long run needs no more memory than one game."""

    names: tuple[str, ...] = ()
    games: int = 0
    events: int = 0
    stalled: int = 0
    wins: Counter[str | None] = field(default_factory=Counter)
    figures: Counter[str] = field(default_factory=Counter)

    def add(self, game: SimulatedBoardGame, steps: list[object]) -> None:
        from games.board.rules.stats import game_counters

        self.names = self.names or game.state.names
        self.games += 1
        self.events += len(game.events) - 1
        self.stalled += game.stalled
        self.wins[game.state.winner] += 1
        for counters in game_counters(steps).values():
            self.figures.update(counters)

    def summary(self, edition: str, players: int, seconds: float) -> str:
        seats = ", ".join(f"{name} {self.wins[name]}" for name in self.names)
        f = self.figures
        lines = [
            f"games: {self.games} (board, {edition} edition, {players} players)",
            f"average events: {self.events / self.games:.1f}",
            f"wins per seat: {seats}",
            f"pawns bumped: {f['bumps']}, Sorry!s played: {f['sorrys']}, "
            f"forfeits: {f['forfeits']}",
            f"seconds: {seconds:.2f} ({self.games / seconds:.0f} games/s)",
        ]
        if self.stalled:
            lines.append(f"stalled (no winner after the event limit): {self.stalled}")
        return "\n".join(lines)


def run_board(args: argparse.Namespace) -> int:
    """Play the games. Refused: a bad argument (companion.commands.simulate says it)."""
    from games.board.config import board_config
    from games.board.rules.settings import EDITIONS

    board = board_config(config_from_args(args))  # the table's own settings, as the app uses
    edition = args.edition or board.edition
    if edition not in EDITIONS:
        raise Refused(f"--edition must be classic or 2016, not {quote(edition)}")
    games = whole("games", args.games, 1)
    low, high = PLAYERS
    players = whole("players", args.players or str(high), low, high)
    seed = whole("seed", args.seed, -(2**63))
    out = out_folder(args.out)
    tally = BoardTally()
    start = time.perf_counter()
    for i in range(1, games + 1):
        game, steps = simulate_with_steps(random.Random(f"board/{edition}/{seed}/{i}"),
                                          edition, players, board.settings())
        if out is not None:
            write_game(out, i, game.events)
        tally.add(game, steps)
    print(tally.summary(edition, players, time.perf_counter() - start))
    return 0


def simulate_with_steps(rng: random.Random, edition: str, players: int,
                        settings: dict[str, object] | None = None,
                        ) -> tuple[SimulatedBoardGame, list[object]]:
    """A simulated game and its steps (outcomes), for the tally's figures."""
    from games.board.rules.simulate import simulate_board

    steps: list[object] = []
    game = simulate_board(rng, edition=edition, players=players, settings=settings,
                          record=steps)
    return game, steps


SIMULATION = BoardSimulation()
