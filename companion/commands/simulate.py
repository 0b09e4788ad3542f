"""`sorry-companion simulate [--game G]`: bots play whole games against the rules.

It plays N seeded games of one game (game i of seed S is always the same game),
optionally writes each transcript (DIR/game-0001.jsonl, ...) for `replay`, and prints a
summary. The options every game shares are here; each game adds its own and plays its
bots from its folder (its manifest's `simulate`: a simulate_tools.Simulation), so this
module names no game. Bad arguments get one sentence and exit status 2.
"""

from __future__ import annotations

import argparse
import sys

from companion import games, plugins
from companion.commands.simulate_tools import Refused, Simulation
from companion.safe_text import quote


def simulations() -> dict[str, Simulation]:
    """Each game's part of the command, in the registry's order (games without bots: none)."""
    found = {}
    for name in plugins.names():
        module = plugins.layer(name, "simulate")
        if module is not None:
            found[name] = module.SIMULATION
    return found


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("simulate",
                       help="bots play whole games with real cards against the rules engine")
    # Values are checked in `run`, so a bad one gets one sentence, not argparse's usage.
    p.add_argument("--games", default="100", metavar="N", help="games to play (default 100)")
    p.add_argument("--players", metavar="P", help="2 to 4 (default 4)")
    p.add_argument("--seed", default="1", metavar="S", help="whole number (default 1)")
    p.add_argument("--out", metavar="DIR", help="write each game's transcript into DIR")
    bots = simulations()
    p.add_argument("--game", default=games.DEFAULT, metavar="G",
                   help=f"{_choices(bots)} (default {games.DEFAULT})")
    for simulation in bots.values():
        simulation.add_options(p)
    p.set_defaults(run=run)


def _choices(bots: dict[str, Simulation]) -> str:
    return " or ".join(bots)


def run(args: argparse.Namespace) -> int:
    bots = simulations()
    try:
        simulation = bots.get(args.game)
        if simulation is None:
            raise Refused(f"--game must be {_choices(bots)}, not {quote(args.game)}")
        for name, other in bots.items():
            for option in other.options:
                if other is not simulation and getattr(args, option, None) is not None:
                    raise Refused(f"--{option} applies to --game {name} only")
        return simulation.run(args)
    except Refused as exc:
        print(f"sorry-companion simulate: {exc}", file=sys.stderr)
        return 2
