"""Statistics of scripted games: a bust, a steal, a blocked steal, undone events."""

from __future__ import annotations

from companion.game import Game, Redo, Undo
from companion.stats import PlayerStats, aggregate, game_stats, replay_events
from games.revenge.rules import Card, Play
from games.revenge.rules.events import Close, Press, Setup
from games.revenge.rules.stats import RoundProgress
from games.revenge.rules.stats import progress_history as _progress_history


def progress_history(game: Game) -> tuple[RoundProgress, ...]:
    return _progress_history(game.steps)


def play(game: Game, *cards: str) -> None:
    for card in cards:
        game.push(Play(Card.parse(card)))


def scripted() -> Game:
    """Ana, Ben and Cleo, 3 pawn cards each; every line is one round."""
    g = Game(Setup.create(["Ana", "Ben", "Cleo"], pawns=3))
    play(g, "10", "10", "5")  # Cleo busts: Ana and Ben advance
    play(g, "10", "10", "1")  # Cleo reaches 21 ...
    g.push(Press("Ana", 1.0))  # ... Ana calls SORRY! ...
    g.push(Close())  # ... nobody blocks: Ana steals the round
    play(g, "5", "10", "6")  # Cleo reaches 21 again ...
    g.push(Press("Ben", 2.0))  # ... Ben calls ...
    g.push(Press("Cleo", 2.5))  # ... Cleo plays Don't Be SORRY!: she keeps the round
    play(g, "10", "10", "9")  # Cleo busts ...
    g.push(Undo())  # ... no: the 9 was a wrong tap
    play(g, "0", "1")  # Ana reaches 21
    g.push(Close())  # nobody calls: Ana keeps it and wins (3 pawns HOME)
    return g


def test_a_scripted_game_counts_steals_blocks_busts_and_rounds() -> None:
    g = scripted()
    stats = game_stats(g)
    assert stats.winner == "Ana"
    assert stats.players == (
        PlayerStats("Ana", games=1, wins=1, rounds_won=2, busts=0, steals=1,
                    steals_blocked=0),
        PlayerStats("Ben", games=1, wins=0, rounds_won=0, busts=0, steals=0,
                    steals_blocked=0),
        PlayerStats("Cleo", games=1, wins=0, rounds_won=1, busts=1, steals=0,
                    steals_blocked=1),
    )
    assert stats.rounds_played == 4


def test_progress_after_every_round_for_the_game_over_picture() -> None:
    assert progress_history(scripted()) == (
        RoundProgress(1, (1, 1, 0)),
        RoundProgress(2, (2, 1, 0)),
        RoundProgress(3, (2, 1, 1)),
        RoundProgress(4, (3, 1, 1)),
    )


def test_undone_events_do_not_count_and_redone_ones_do() -> None:
    g = Game(Setup.create(["Ana", "Ben"]))
    play(g, "10", "10", "5")  # Ana busts
    assert game_stats(g).players[0].busts == 1
    g.push(Undo())
    assert game_stats(g).players[0].busts == 0
    assert progress_history(g) == ()
    g.push(Redo())
    assert game_stats(g).players[0].busts == 1
    assert progress_history(g) == (RoundProgress(1, (0, 1)),)


def test_a_flip_back_moves_progress_back_in_the_history() -> None:
    g = Game(Setup.create(["Ana", "Ben"]))
    play(g, "10", "10", "5")  # Ana busts: Ben advances; Ben starts round 2
    g.push(Play(Card.parse("3")))
    g.push(Play(Card.parse("sorry"), target="Ben"))  # Ana flips Ben back ...
    g.push(Close())  # ... and Ben does not block
    assert progress_history(g) == (RoundProgress(1, (0, 1)), RoundProgress(2, (0, 0)))
    assert game_stats(g).players[1].rounds_won == 0


def test_aggregate_adds_games_and_merges_names_by_case() -> None:
    first = game_stats(scripted())
    second_game = Game(Setup.create(["ana", "Ben"], pawns=1))
    play(second_game, "10", "10", "5")  # ana busts: Ben advances and wins
    second = game_stats(second_game)
    totals = {p.name.casefold(): p for p in aggregate([first, second])}
    assert totals["ana"] == PlayerStats("Ana", games=2, wins=1, rounds_won=2, busts=1,
                                        steals=1, steals_blocked=0)
    assert totals["ben"] == PlayerStats("Ben", games=2, wins=1, rounds_won=0, busts=0,
                                        steals=0, steals_blocked=0)
    assert totals["cleo"].games == 1
    assert [p.name for p in aggregate([first, second])][:2] == ["Ana", "Ben"]


def test_replay_events_goes_as_far_as_a_stored_game_goes() -> None:
    setup = Setup.create(["Ana", "Ben"]).to_json()
    game, problem = replay_events([setup, {"type": "play", "card": "7"}])
    assert problem is None and game is not None and game.state.total == 7
    game, problem = replay_events([setup, {"type": "play", "card": "7"},
                                   {"type": "play", "card": "99"}, {"type": "close"}])
    assert game is not None and game.state.total == 7
    assert problem is not None
    assert problem.startswith("event 2 cannot be replayed (there is no card")
    assert replay_events([{"type": "play", "card": "7"}]) == (
        None, "it does not start with its setup")
    game, problem = replay_events([{"type": "setup", "players": ["Solo"]}])
    assert game is None and problem is not None and "a game needs 2 to 4 players" in problem
