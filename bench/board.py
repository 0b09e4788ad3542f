"""Board-game benchmarks: the option generator, whole simulated games, resuming a long game.

- positions/s: `generate` on random legal positions (both editions, 2-4 colours, random
  card and colour), every position new, so nothing comes from the engine's cache; the
  positions worked out per second (every option built), and the options built beside.
- simulated games/s: whole 4-player games of bots through the rules, per edition.
- resume: a 2,000-move classic game (its draws and corrections too), unfinished, from
  `Journal.open` through `unfinished()` to `Session.open_game`, as after a power cut.
"""

from __future__ import annotations

import random
import tempfile
import time
from typing import Any

from bench import Row, figures, measure, met, percentile
from companion.journal import Journal
from companion.session import Session
from games.board.rules import RULES, draw_card, options
from games.board.rules.cards import CARDS
from games.board.rules.events import Draw, Place
from games.board.rules.geometry import COLORS
from games.board.rules.moves import _analyse, generate
from games.board.rules.position import Position
from games.board.rules.simulate import choose, simulate_board

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


def options_per_second(count: int = POSITIONS, repeats: int = 3
                       ) -> tuple[float, float, float]:
    """Best of `repeats`: (options built per second, positions worked out per second, the
    share of a CPU the timed pass got: under the Pi model's quota it says whether a slow
    figure is the code's or the quota's)."""
    rng = random.Random("bench/board/options")
    cases = [(p, rng.choice(CARDS), rng.choice(p.colors))
             for p in (random_position(rng) for _ in range(count))]
    best, built, share = float("inf"), 0, 0.0
    for _ in range(repeats):
        _analyse.cache_clear()
        start, cpu = time.perf_counter(), time.process_time()
        built = sum(len(generate(p, card, color)) for p, card, color in cases)
        took = time.perf_counter() - start
        if took < best:
            best, share = took, (time.process_time() - cpu) / took
    return built / best, count / best, share


def games_per_second(edition: str, games: int = SIM_GAMES) -> float:
    start = time.perf_counter()
    for n in range(games):
        simulate_board(random.Random(f"bench/board/{edition}/{n}"), edition=edition, players=4)
    return games / (time.perf_counter() - start)


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
        assert not update.state.over
    return percentile(times, 50)


def child(mode: str, data_dir: str = "") -> dict[str, Any]:
    """One measurement, in a child process under one of bench.pi's conditions."""
    if mode == "options":
        per_option, per_position, share = options_per_second(POSITIONS, repeats=1)
        return {"options": per_option, "positions": per_position, "cpu_share": share,
                "positions_per_cpu_s": per_position / share}
    if mode == "sim":
        return {"classic": games_per_second("classic"), "2016": games_per_second("2016")}
    if mode == "resume":
        return {"s": resume_seconds(data_dir)}
    raise SystemExit(f"unknown mode {mode!r}")


def rows() -> list[Row]:
    opts = measure("bench.board", "options")
    sims = measure("bench.board", "sim")
    game = long_game()
    with tempfile.TemporaryDirectory(prefix="sorry-bench-board-") as data_dir:
        write_journal(data_dir, game)
        resume = measure("bench.board", "resume", data_dir)

    positions = figures(opts, lambda c: (
        f"{opts.cell(c, 'positions', '{:,.0f}')} positions/s "
        f"({opts.cell(c, 'options', '{:,.0f}')} options/s; "
        f"{opts.cell(c, lambda r: r['cpu_share'] * 100, '{:.0f}')} % of a core, "
        f"{opts.cell(c, 'positions_per_cpu_s', '{:,.0f}')} positions per CPU-second)"))
    games = figures(sims, lambda c: (
        f"classic {sims.cell(c, 'classic')}, 2016 {sims.cell(c, '2016')} games/s"))
    return [
        Row(f"board positions worked out per second ({POSITIONS:,} random positions and "
            "cards: every option built)", *positions,
            f">= {POSITIONS_GOAL:,} positions/s (Pi model too)",
            met(opts, "positions", lambda r: r >= POSITIONS_GOAL), opts.load),
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
