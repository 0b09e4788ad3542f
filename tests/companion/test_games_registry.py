"""The setup's "game" picks the rules: the card game by default (every journal and
transcript from before the board game), and one sentence for a game that is not here."""

from __future__ import annotations

import json

import pytest

from companion import games
from companion.cli import main
from companion.errors import BadSetup
from companion.game import Game, read_setup
from companion.rules import Rules
from companion.transcript import replay_lines
from games.revenge.rules import RULES, Setup

PLAYERS = {"type": "setup", "players": ["Ana", "Ben"]}


def test_a_setup_without_game_is_the_card_game_and_new_setups_say_so():
    assert games.DEFAULT == "revenge" and games.get() is RULES
    assert isinstance(RULES, Rules)
    old = read_setup(PLAYERS)
    assert isinstance(old, Setup) and old.to_json()["game"] == "revenge"
    assert read_setup({**PLAYERS, "game": "revenge"}) == old
    assert Game(old).rules is RULES


@pytest.mark.parametrize("game", ["chess", 5, None, ["revenge"]])
def test_a_game_that_is_not_here_is_one_sentence(game):
    with pytest.raises(BadSetup, match="there is no game") as refused:
        read_setup({**PLAYERS, "game": game})
    assert refused.value.code == "unknown_game"


def test_replay_says_which_line_names_an_unknown_game(tmp_path, capsys):
    path = tmp_path / "t.jsonl"
    path.write_text(json.dumps({**PLAYERS, "game": "chess"}) + "\n", "utf-8")
    assert main(["replay", str(path)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("line 1: there is no game 'chess' here") and err.count("\n") == 1


def test_undo_and_redo_are_the_cores_for_every_game():
    replay = replay_lines([json.dumps(PLAYERS), '{"type": "play", "card": "7"}',
                           '{"type": "undo"}', '{"type": "redo"}', '{"type": "undo"}'])
    assert replay.error is None and replay.game is not None
    assert replay.game.state.total == 0 and replay.game.redo_step is not None
    second = replay_lines([json.dumps(PLAYERS), json.dumps(PLAYERS)])
    assert second.error is not None and "one setup" in str(second.error)
