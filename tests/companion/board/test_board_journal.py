"""Board games through the core's real parts: a Session on a real SQLite journal (resume
after the process is gone), `history`, `stats`, `export` and `replay`, and `simulate
--game board` writing transcripts that `replay` accepts."""

from __future__ import annotations

import json
import random
from pathlib import Path

from companion.cli import main
from companion.session import Session
from games.board.rules import RULES, options
from games.board.rules.simulate import simulate_board


def _play(session: Session, events: list[object]) -> None:
    for event in events:
        session.submit(event)


def test_a_board_game_resumes_from_the_journal_and_shows_in_history_stats_export(
        tmp_path: Path, capsys):
    data = tmp_path / "data"
    game = simulate_board(random.Random(11), edition="classic", players=3)
    finished = simulate_board(random.Random(12), edition="2016", players=2)
    session = Session(Session.open_journal(data))
    session.new_game(finished.events[0])
    _play(session, finished.events[1:])
    session.new_game(game.events[0])
    half = len(game.events) // 2
    _play(session, game.events[1:half])
    session.submit(game.events[half])
    before = session.state
    session.close()  # as if the power went: nothing but the journal is left

    resumed = Session(Session.open_journal(data))
    update = resumed.resume()
    assert update is not None and update.game == "board" and update.state == before
    assert update.options == tuple(RULES.options(before))
    if before.card is not None:
        assert [e.legs for e in update.options] == [o.legs for o in options(before)]
    resumed.close()

    assert main(["--data", str(data), "history", "--json"]) == 0
    listing = json.loads(capsys.readouterr().out)
    assert [g["winner"] for g in listing] == [finished.state.winner, None]
    assert listing[0]["rounds"] > 0
    assert main(["--data", str(data), "stats", "--json"]) == 0
    figures = {p["name"]: p for p in json.loads(capsys.readouterr().out)}
    assert figures[finished.state.winner]["wins"] == 1
    assert {"bumps", "sorrys", "forfeits", "moves", "pawns_home"} <= set(figures["Ana"])
    assert sum(p["forfeits"] for p in figures.values()) > 0

    out = tmp_path / "g1.jsonl"
    assert main(["--data", str(data), "export", "1", "-o", str(out)]) == 0
    capsys.readouterr()
    assert main(["replay", str(out), "--json"]) == 0
    replayed = json.loads(capsys.readouterr().out)
    assert replayed == RULES.state_json(finished.state)
    assert main(["replay", str(out)]) == 0
    assert f"winner: {finished.state.winner}" in capsys.readouterr().out


def test_simulate_board_writes_transcripts_replay_accepts(tmp_path: Path, capsys):
    out = tmp_path / "sims"
    assert main(["simulate", "--game", "board", "--edition", "2016", "--games", "3",
                 "--players", "3", "--out", str(out)]) == 0
    summary = capsys.readouterr().out
    assert "games: 3 (board, 2016 edition, 3 players)" in summary and "Sorry!s" in summary
    files = sorted(out.glob("*.jsonl"))
    assert len(files) == 3
    for path in files:
        assert main(["replay", str(path), "--json"]) == 0
        assert json.loads(capsys.readouterr().out)["winner"] is not None


def test_simulate_board_bad_arguments_are_one_sentence(capsys):
    assert main(["simulate", "--game", "board", "--edition", "1999"]) == 2
    assert "--edition must be classic or 2016" in capsys.readouterr().err
    assert main(["simulate", "--game", "chess"]) == 2
    assert "--game must be revenge or board" in capsys.readouterr().err
    assert main(["simulate", "--game", "board", "--players", "5"]) == 2
    assert "--players" in capsys.readouterr().err


def test_who_draws_is_in_the_setup_and_journal_and_a_real_deck_setup_reads_as_before(
        tmp_path: Path):
    """A game the companion draws for resumes drawing (the journal's setup says so); a
    setup without `draws` (every journal before) is the table's real deck, written back
    exactly as it was read."""
    from companion.errors import BadSetup
    from companion.journal import Journal

    before = {"type": "setup", "game": "board", "edition": "classic", "players": ["Ana", "Ben"],
              "colors": ["red", "blue"], "first": "Ana"}
    old = RULES.parse_setup(before)
    assert old.draws == "table" and "draws" not in old.to_json()
    journal = Journal.open(tmp_path)
    try:
        session = Session(journal)
        session.new_game(session.setup({**before, "draws": "companion"}))
        session.submit(session.parse_event({"type": "draw", "card": "1"}))
        resumed = Session(journal).resume()
        assert resumed is not None and resumed.state.setup.draws == "companion"
        assert journal.load(resumed.game_id).events[0]["draws"] == "companion"
    finally:
        journal.close()
    try:
        RULES.parse_setup({**before, "draws": "bots"})
    except BadSetup as exc:
        assert str(exc).startswith('draws must be "table" (a real deck) or "companion"')
    else:
        raise AssertionError("a setup drawing by 'bots' was accepted")
