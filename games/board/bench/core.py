"""Board-game benchmarks: the option generator, whole simulated games, resuming a long game.

- positions/s: `generate` on random legal positions (both editions, 2-4 colours, random
  card and colour), every position new, so nothing comes from the engine's cache; the
  positions worked out per wall-clock second (every option built: under the Pi model's
  quota too, as measured), the CPU each took, and the options built per second.
- simulated games/s: whole 4-player games of bots through the rules, per edition.
- resume: a 2,000-move classic game (its draws and corrections too), unfinished, from
  `Journal.open` through `unfinished()` to `Session.open_game`, as after a power cut.
"""

from __future__ import annotations

import functools
import random
import tempfile
import time
from typing import Any

from bench import Row, clocked, figures, measure, met, percentile
from companion.journal import Journal
from companion.session import Session
from games.board.rules import RULES, BoardState, draw_card, options
from games.board.rules.cards import CARDS
from games.board.rules.events import Draw, Place
from games.board.rules.geometry import COLORS
from games.board.rules.moves import _analyse, generate
from games.board.rules.position import Position
from games.board.rules.simulate import choose, simulate_board

MODULE = __spec__.name  # as `python -m bench child` names it, also when run with -m
POSITIONS_GOAL = 20_000  # positions worked out per second (every option built)
POSITIONS = 20_000
SIM_GAMES = 60
RESUME_MOVES = 2_000


def random_position(rng: random.Random) -> Position:
    """A legal position: each pawn in START, HOME, on the track or in its safety zone."""
    edition = rng.choice(("classic", "2016"))
    n = 4 if edition == "classic" else 3
    colors = sorted(rng.sample(COLORS, rng.randint(2, 4)), key=COLORS.index)
    used: set[object] = set()
    pawns = {}
    for color in colors:
        locs = []
        for _ in range(n):
            kind = rng.choice(("START", "HOME", "T", "T", "T", "S"))
            loc = {"T": f"T{rng.randrange(60)}", "S": f"S{rng.randint(1, 5)}"}.get(kind, kind)
            key = loc if kind == "T" else (color, loc)
            if kind in ("T", "S") and key in used:
                loc = "START"
            used.add(key)
            locs.append(loc)
        pawns[color] = locs
    return Position.parse({"edition": edition, "pawns": pawns})


def work_out_positions(count: int = POSITIONS) -> dict[str, float]:
    """`count` random positions and cards worked out, every option built, the engine's
    cache emptied first: positions per wall-clock second and the CPU per position
    ("position_rate", "position_cpu_us"), and the options built per second ("options")."""
    rng = random.Random("bench/board/options")
    cases = [(p, rng.choice(CARDS), rng.choice(p.colors))
             for p in (random_position(rng) for _ in range(count))]
    _analyse.cache_clear()
    built = [0]

    def work() -> int:
        built[0] = sum(len(generate(p, card, color)) for p, card, color in cases)
        return count

    figures = clocked(work)
    return {"position_rate": figures["rate"], "position_cpu_us": figures["cpu_us"],
            "options": figures["rate"] * built[0] / count}


def play_games(edition: str, games: int = SIM_GAMES) -> int:
    for n in range(games):
        simulate_board(random.Random(f"bench/board/{edition}/{n}"), edition=edition, players=4)
    return games


def long_game(moves: int = RESUME_MOVES) -> list[dict[str, Any]]:
    """A legal, unfinished 4-player classic game with `moves` move events: bots play, and
    pawns are put back to START (corrections) so no player ever has more than one HOME."""
    rng = random.Random("bench/board/long")
    setup = RULES.parse_setup({"type": "setup", "game": "board",
                               "players": ["Ana", "Ben", "Cleo", "Dev"]})
    state = RULES.initial_state(setup)
    out: list[dict[str, Any]] = [setup.to_json()]
    made = 0
    while made < moves:
        for seat, color in enumerate(state.position.colors):
            while state.home(seat) >= 2:  # a 7 split brings at most two pawns HOME
                event: Any = Place(color, "HOME", "START")
                state = RULES.apply(state, event).state
                out.append(event.to_json())
        if state.card is None:
            event = Draw(draw_card(state, rng))
        else:
            event = RULES.parse_event(choose(options(state), rng).event)
            made += 1
        state = RULES.apply(state, event).state
        out.append(event.to_json())
    assert not state.over
    return out


def write_journal(data_dir: str, events: list[dict[str, Any]]) -> None:
    with Journal.open(data_dir) as journal:
        game_id = journal.start_game(events[0])
        for event in events[1:]:
            journal.append(game_id, event)


def resume_seconds(data_dir: str, repeats: int = 5) -> float:
    """Median of `repeats`: from opening the journal to the game replayed whole."""
    times = []
    for _ in range(repeats):
        _analyse.cache_clear()
        start = time.perf_counter()
        journal = Journal.open(data_dir)
        stored = journal.unfinished()
        assert stored is not None
        update = Session(journal).open_game(stored.game_id, stored.events)
        times.append(time.perf_counter() - start)
        journal.close()
        assert isinstance(update.state, BoardState) and not update.state.over
    return percentile(times, 50)


def child(mode: str, data_dir: str = "") -> dict[str, Any]:
    """One measurement, in a child process under one of bench.pi's conditions."""
    if mode == "options":
        return work_out_positions(POSITIONS)
    if mode == "sim":
        out = {}
        for edition in ("classic", "2016"):
            figures = clocked(functools.partial(play_games, edition))
            out.update({f"{edition}_{k}": v for k, v in figures.items()})
        return out
    if mode == "resume":
        return {"s": resume_seconds(data_dir)}
    raise SystemExit(f"unknown mode {mode!r}")


def rows() -> list[Row]:
    opts = measure(MODULE, "options")
    sims = measure(MODULE, "sim")
    game = long_game()
    with tempfile.TemporaryDirectory(prefix="sorry-bench-board-") as data_dir:
        write_journal(data_dir, game)
        resume = measure(MODULE, "resume", data_dir)

    positions = figures(opts, lambda c: (
        f"{opts.rate(c, 'position', 'position')} "
        f"({opts.cell(c, 'options', '{:,.0f}')} options/s)"))
    games = figures(sims, lambda c: (
        f"classic {sims.rate(c, 'game', 'classic', '{:,.1f}')}; "
        f"2016 {sims.rate(c, 'game', '2016', '{:,.1f}')}"))
    return [
        Row(f"board positions worked out per second ({POSITIONS:,} random positions and "
            "cards: every option built)", *positions,
            f">= {POSITIONS_GOAL:,} positions/s (Pi model too)",
            met(opts, "position_rate", lambda r: r >= POSITIONS_GOAL), opts.load),
        Row(f"board simulated games per second ({SIM_GAMES} per edition, 4 players, bots "
            "through the rules)", *games, load=sims.load),
        Row(f"resume a {RESUME_MOVES:,}-move board game ({len(game):,} events: open journal "
            "+ unfinished + open_game)",
            *figures(resume, lambda c: resume.cell(c, lambda r: r["s"] * 1000, "{:,.0f}", " ms")),
            load=resume.load),
    ]


if __name__ == "__main__":
    for row in rows():
        print(row)
