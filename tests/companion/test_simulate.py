"""The simulator: its real cards agree with the engine's counts, the referee's reading of
the rules agrees with the engine's (tests/companion/referee.py); its bots and its CLI."""

from __future__ import annotations

import os
import random
from collections import Counter
from pathlib import Path

import pytest
from referee import Disagreement, draw
from referee import cross_checked as simulate

import games.revenge.rules.engine
from companion.cli import main
from companion.errors import ConfigError
from companion.game import Game
from companion.safe_text import quote
from companion.transcript import replay_lines
from games.revenge.rules import Card
from games.revenge.rules.deck import DEFAULT_DECK, DONT_BE_SORRY, FLIP, STEAL, Cards, build_deck
from games.revenge.rules.events import Play, Press, Setup
from games.revenge.rules.simulate import (
    best_total,
    choose_card,
    random_options,
    simulate_game,
)
from games.revenge.rules.state import DECK_SIZE

CROSS_CHECK_GAMES = int(os.environ.get("SIMULATE_GAMES", "500"))  # `make fuzz`: 1,500


@pytest.fixture(scope="module")
def mixed_games():
    """Many seeded games of every table size, pawn count and variant (about 2 s)."""
    games = []
    for seed in range(CROSS_CHECK_GAMES):
        rng = random.Random(seed)
        games.append(simulate(rng, **random_options(rng)))
    return games


# --- the deck and the real cards ---

def test_default_deck_is_the_spec_even_spread():
    assert sum(DEFAULT_DECK.values()) == DECK_SIZE == 93
    numbers = sum(DEFAULT_DECK[str(n)] for n in range(11))
    actions = sum(DEFAULT_DECK[k] for k in ("slide:10", "slide:15", "slide:21", "switch",
                                            "take2", "play2"))
    assert (numbers, actions, DEFAULT_DECK[FLIP] + DEFAULT_DECK[STEAL]
            + DEFAULT_DECK[DONT_BE_SORRY]) == (59, 26, 8)


@pytest.mark.parametrize("profile, words", [
    ({**DEFAULT_DECK, "7": 6}, "not 94"),
    ({**DEFAULT_DECK, "joker": 0}, "unknown cards ['joker']"),
    ({**DEFAULT_DECK, "7": -1, "8": 11}, "whole numbers"),
])
def test_a_deck_the_engine_cannot_count_is_refused(profile, words):
    with pytest.raises(ConfigError, match=words.replace("[", r"\[").replace("]", r"\]")):
        build_deck(profile)


def test_the_draw_pile_is_renewed_only_when_a_draw_needs_more_cards():
    cards = Cards(random.Random(0), ["a"], [["x"], []], pile=["p"], discards=["d1", "d2"])
    draw(cards, 1, 2)  # takes the last card, then the discards become the draw pile
    assert sorted(cards.hands[1]) in (["a", "d1"], ["a", "d2"])
    assert (len(cards.draw_pile), cards.discards, cards.reshuffles) == (1, [], 1)
    cards.lay(0, "x")
    cards.set_aside()
    assert (cards.pile, sorted(cards.discards)) == ([], ["p", "x"])


# --- the bots ---

def test_a_bot_makes_21_when_it_can():
    picks = {choose_card(random.Random(s), ["3", "6", "switch"], 15, 0, False)
             for s in range(40)}
    assert "6" in picks
    assert Counter(choose_card(random.Random(s), ["3", "6"], 15, 0, False)
                   for s in range(200))["6"] > 150


def test_a_bot_avoids_busting_when_it_can():
    picks = Counter(choose_card(random.Random(s), ["9", "10", "2"], 18, 0, False)
                    for s in range(200))
    assert picks["2"] > 180


def test_a_bot_owing_a_play2_plays_numbers_or_ends_it():
    assert choose_card(random.Random(0), ["switch", "slide:10", STEAL], 5, 2, True) is None
    assert choose_card(random.Random(0), ["switch", "4"], 5, 1, True) == "4"


def test_a_bot_with_only_out_of_turn_sorry_cards_plays_one_as_a_flip_back():
    assert choose_card(random.Random(1), [STEAL, DONT_BE_SORRY], 5, 0, True) in (
        STEAL, DONT_BE_SORRY)


def test_tiebreak_total_is_the_best_sum_of_number_cards_not_over_21():
    assert best_total(["10", "9", "5", "switch", "sorry"]) == 19
    assert best_total(["10", "6", "5", "3"]) == 21
    assert best_total(["switch"]) == 0


# --- whole games: the cross-check ---

def test_every_game_ends_with_a_winner_and_all_93_cards(mixed_games):
    for sim in mixed_games:
        assert not sim.stalled
        assert sim.state.winner is not None
        assert sim.state.card_count() == DECK_SIZE
        assert isinstance(sim.events[0], Setup)


def test_the_games_exercise_every_path_of_the_rules(mixed_games):
    """The cross-check is only as good as what the bots do: every path happens."""
    seen: Counter[str] = Counter()
    for sim in mixed_games:
        seen.update(sim.stats)
        for event in sim.events:
            if isinstance(event, Play):
                seen["play " + event.card.code + (" on" if event.target else "")] += 1
            else:
                seen[type(event).__name__] += 1
    for what in ("reached_21", "bust", "steal_called", "caller_replaced", "steal_blocked",
                 "stolen", "round_kept", "flip_played", "flip_blocked", "flipped_back",
                 "reshuffled", "take2_skipped", "tied", "ignored", "refused", "undo_redo",
                 "play play2", "EndPlay2", "play take2", "play switch", "play slide:15",
                 "play sorry", "play sorry on", "Close", "Tiebreak", "Undo", "Redo"):
        assert seen[what] > 0, what


def test_mixed_games_cover_every_table(mixed_games):
    tables = {(len(s.game.setup.players), s.game.setup.pawns, s.game.setup.variant.value)
              for s in mixed_games}
    assert len(tables) == 3 * 4 * 2


def test_a_seed_always_plays_the_same_game():
    one = simulate_game(random.Random(42), players=3, pawns=2)
    two = simulate_game(random.Random(42), players=3, pawns=2)
    assert [e.to_json() for e in one] == [e.to_json() for e in two]
    assert one != simulate_game(random.Random(43), players=3, pawns=2)


def test_the_cross_check_catches_an_engine_that_miscounts(monkeypatch):
    """Proof the check can fail: an engine drawing back up to 4, not 5, is caught."""
    def lazy_refill(draft, seat):
        if draft.hands[seat] < 4:
            draft.draw(seat, 4 - draft.hands[seat])

    monkeypatch.setattr(games.revenge.rules.engine._Draft, "refill", lazy_refill)
    with pytest.raises(Disagreement, match="hands") as caught:
        simulate(random.Random(0), players=2)
    assert isinstance(caught.value.events[0], Setup)


def test_the_cross_check_catches_a_take2_over_the_hand_limit(monkeypatch):
    monkeypatch.setattr(games.revenge.rules.engine, "HAND_LIMIT", 6)
    with pytest.raises(Disagreement, match="draw_pile"):
        for seed in range(200):
            simulate(random.Random(seed), players=3)


def test_a_player_left_without_cards_stalls_the_game_with_counts_still_agreeing():
    """All zeros: no round ever ends, the draw pile runs dry and hands empty out."""
    deck = {code: 0 for code in DEFAULT_DECK} | {"0": DECK_SIZE}
    sim = simulate(random.Random(1), players=3, deck=deck)
    assert sim.stalled and sim.state.winner is None
    assert sim.state.hands == (0, 0, 0) and sim.state.pile == DECK_SIZE


def test_a_callers_own_earlier_edge_keeps_them_the_first_caller():
    """R9: the first call by edge time counts. Ben's edges 1.0 and 2.0 (delivered 2.0
    first) are both before Cleo's 1.5, so Ben must stay the caller."""
    game = Game(Setup.create(["Ana", "Ben", "Cleo"]))
    game.push(Play(Card.parse("slide:21")))
    for player, t in (("Ben", 2.0), ("Ben", 1.0), ("Cleo", 1.5)):
        game.push(Press(player, t))
    assert game.state.window is not None
    assert game.state.name(game.state.window.caller) == "Ben"


# --- the CLI ---

@pytest.fixture
def no_config(monkeypatch, tmp_path):
    monkeypatch.delenv("SORRY_COMPANION_CONFIG", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))


def test_cli_plays_games_writes_transcripts_and_prints_a_summary(no_config, tmp_path, capsys):
    out = tmp_path / "games"
    status = main(["simulate", "--games", "3", "--players", "3", "--seed", "5",
                   "--pawns", "2", "--variant", "long", "--out", str(out)])
    printed = capsys.readouterr().out
    assert status == 0
    assert sorted(p.name for p in out.iterdir()) == [
        "game-0001.jsonl", "game-0002.jsonl", "game-0003.jsonl"]
    for path in out.iterdir():
        replay = replay_lines(Path(path).read_text(encoding="utf-8").splitlines())
        assert replay.error is None and replay.game is not None
        assert replay.game.state.winner is not None
        assert replay.game.setup.pawns == 2 and len(replay.game.setup.players) == 3
    assert "games: 3 (3 players, 2 pawns, long)" in printed
    for words in ("average rounds:", "wins per seat: Ana", "games with a tiebreaker:",
                  "seconds:"):
        assert words in printed
    wins = printed.split("wins per seat: ")[1].splitlines()[0]
    assert sum(int(part.split()[-1]) for part in wins.split(", ")) == 3


def test_cli_same_seed_same_games(no_config, tmp_path):
    for name in ("a", "b"):
        assert main(["simulate", "--games", "2", "--seed", "11", "--out",
                     str(tmp_path / name)]) == 0
    for n in ("game-0001.jsonl", "game-0002.jsonl"):
        assert (tmp_path / "a" / n).read_text() == (tmp_path / "b" / n).read_text()


@pytest.mark.parametrize("args, words", [
    (["--players", "5"], "--players must be a whole number from 2 to 4, not '5'"),
    (["--players", "1"], "--players must be a whole number from 2 to 4"),
    (["--games", "0"], "--games must be a whole number 1 or more, not '0'"),
    (["--games", "many"], "--games must be a whole number"),
    (["--pawns", "9"], "--pawns must be a whole number from 1 to 4"),
    (["--seed", "x"], "--seed must be a whole number"),
    (["--variant", "short"], "--variant must be standard or long, not 'short'"),
])
def test_cli_bad_arguments_get_one_sentence_and_status_2(no_config, capsys, args, words):
    assert main(["simulate", *args]) == 2
    err = capsys.readouterr().err
    assert words in err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_cli_an_output_folder_that_cannot_be_made_is_one_sentence(no_config, tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    assert main(["simulate", "--games", "1", "--out", str(blocker / "sub")]) == 2
    err = capsys.readouterr().err
    assert f"cannot write into {quote(str(blocker / 'sub'))}" in err and err.count("\n") == 1


def test_cli_reports_a_table_that_cannot_follow_the_engine_with_status_1_and_the_transcript(
        no_config, tmp_path, capsys, monkeypatch):
    def lay_unreported(draft, seat):  # an engine that forgets to report a card it lays
        draft.hands[seat] -= 1
        draft.pile += 1

    monkeypatch.setattr(games.revenge.rules.engine._Draft, "lay", lay_unreported)
    assert main(["simulate", "--games", "2", "--out", str(tmp_path)]) == 1
    assert "game 1: the table could not follow the engine after event" in \
        capsys.readouterr().err
    assert (tmp_path / "game-0001.jsonl").read_text().startswith('{"type":"setup"')
