"""The process test_crash.py kills: a seeded random game played through Session(Journal).

    python crash_child.py DATA_DIR SEED [board] [writer]
    python crash_child.py serve          (the fork server test_crash.py uses, below)

It resumes the journal's unfinished game (or starts one) and plays random events for
ever, one stdout line per step, flushed at once, so the parent knows exactly what was
acknowledged when its SIGKILL lands:

    G <game_id> <events> <hash>   a game is open (resumed or new): events after the setup
    N <setup json>                about to start a new game
    W <event json>                about to submit this event
    A <events> <hash>             the event is journalled and applied (acknowledged)
    R                             the event was refused (nothing was written)
    F <game_id> <winner>          a won game's result, written on resume (see below)

With `writer` the session has a journal writer thread (companion.journal_writer): "A"
then means shown (applied), not durable, and the writer's thread adds

    D <game_id> <seq>             events 0..seq of the game are durable

and a game is resumed through its snapshot (companion.snapshots.load_unfinished).

`serve` imports everything once, then reads one line of arguments (DATA_DIR SEED ...)
per child from stdin and forks a child for it, which first says `P <pid>` (the process
to kill) and then plays as above; when the child is gone (killed or not), the server
says `X <exit code>` (-9 after SIGKILL). Forking from an imported, single-threaded
server saves the 0.2 s of imports of a fresh interpreter per child; what is killed
(opening the journal, resuming, playing) is the same.

<hash> is state_hash() of the session's state. A kill between the journal's append of
a winning event and its set_result leaves a won game without a result: on resume the
child writes it, as the app must, and starts a new game.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import sys
import threading
import traceback
from typing import Any

from companion import games
from companion.errors import CompanionError
from companion.game import Redo, Undo
from companion.journal import Journal
from companion.session import Session
from companion.snapshots import load_unfinished
from games.board import rules as board
from games.board.rules import BoardState
from games.revenge.rules import flip_targets, legal_cards
from games.revenge.rules.cards import Card
from games.revenge.rules.events import Close, EndPlay2, Event, Play, Press, Setup, Tiebreak
from games.revenge.rules.state import GameState

NAMES = ("Ana", "Ben", "Cleo", "Dev")
MAX_EVENTS = 20_000  # a runaway child stops by itself


def state_hash(state: GameState | BoardState) -> str:
    data = board.RULES.state_json(state) if isinstance(state, BoardState) else state.to_json()
    text = json.dumps(data, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


_say_lock = threading.Lock()  # the writer's thread says "D" lines too


def say(*parts: Any) -> None:
    with _say_lock:
        sys.stdout.write(" ".join(str(p) for p in parts) + "\n")
        sys.stdout.flush()


def new_setup(rng: random.Random) -> Setup:
    players = list(NAMES[: rng.randint(2, 4)])
    return Setup.create(players, first=rng.choice(players), pawns=rng.randint(1, 2),
                        variant=rng.choice(("standard", "long")))


def next_event(session: Session, rng: random.Random, clock: list[float]) -> Event:
    """One random event a table could produce now; sometimes one the rules refuse."""
    update = session.update
    assert update is not None
    state = update.state
    players = state.setup.players
    clock[0] += rng.uniform(0.001, 0.5)
    r = rng.random()
    if state.tiebreak is not None:
        open_seats = [s for s, t in zip(state.tiebreak.tied, state.tiebreak.totals,
                                        strict=True) if t is None]
        return Tiebreak(state.name(rng.choice(open_seats)), rng.randint(12, 23))
    if r < 0.05 and update.undo is not None:
        return Undo()
    if r < 0.08 and update.redo is not None:
        return Redo()
    if state.winner is not None:
        return Undo()
    if r < 0.10:  # a wrong tap: any card at all, maybe refused
        return Play(Card.parse(rng.choice(("switch", "play2", "sorry", "slide:21", "7"))))
    if state.window is not None:
        if r < 0.55:
            return Press(rng.choice(players), clock[0] - rng.uniform(0, 0.2))
        if r < 0.85:
            return Close()
    elif state.owed and r < 0.25:
        return EndPlay2()
    elif r < 0.16:
        return Press(rng.choice(players), clock[0])  # "no SORRY! now": journalled, ignored
    legal = sorted(legal_cards(update.options))
    if not legal:  # e.g. the open window decides the game: only closing it goes on
        return Close() if state.window is not None else EndPlay2() if state.owed else Undo()
    code = rng.choice(legal)
    target = None
    if code == "sorry":
        targets = flip_targets(update.options)
        target = rng.choice(targets) if targets else None
    return Play(Card.parse(code), None, target)


def new_board_setup(rng: random.Random) -> dict[str, Any]:
    players = list(NAMES[: rng.randint(2, 4)])
    edition = rng.choice(("classic", "2016"))
    return {"type": "setup", "game": "board", "edition": edition, "players": players,
            "first": rng.choice(players),
            "settings": {"adult": edition == "classic" and rng.random() < 0.3,
                         "play_on": rng.random() < 0.3, "faster_start": rng.random() < 0.5}}


def next_board_event(session: Session, rng: random.Random) -> Any:
    """One random board event: a draw or an option, a correction, undo, redo, or a wrong
    tap the rules refuse."""
    update = session.update
    assert update is not None
    state: BoardState = update.state
    r = rng.random()
    if r < 0.05 and update.undo is not None:
        return Undo()
    if r < 0.08 and update.redo is not None:
        return Redo()
    if state.over:
        return Undo()
    if r < 0.12:  # a correction, sometimes onto a taken square (refused)
        color = rng.choice(state.position.colors)
        return board.Place(color, rng.choice(state.position.pawns_json()[color]),
                           rng.choice(board.geometry.LOCATIONS))
    if r < 0.15:  # a wrong tap: a move nobody can make, or a draw while a card waits
        return board.Move((("HOME", "T1"),)) if state.card is None else board.Draw("1")
    if state.card is not None:
        return board.RULES.parse_event(rng.choice(board.options(state)).event)
    if state.position.settings.adult:
        return rng.choice(tuple(update.options))
    return board.Draw(board.draw_card(state, rng))


def open_game(journal: Journal, session: Session, rng: random.Random,
              game: str = "revenge") -> int:
    if session.writer is not None:
        session.writer.flush()  # after a win: the won game is all in the journal first
        found = load_unfinished(journal)
        if found is not None and hasattr(found, "replay"):
            update = session.open_game(found.game_id, (), replayed=found.replay())
            summary = games.get(update.game).summary(update.state)
            count = found.event_count - 1
            if not summary.over:
                say("G", found.game_id, count, state_hash(update.state))
                return count
            journal.set_result(found.game_id, summary.winner)
            say("F", found.game_id, summary.winner)
            found = None
        stored = found
    else:
        stored = journal.unfinished()
    if stored is not None:
        update = session.open_game(stored.game_id, stored.events)
        summary = games.get(update.game).summary(update.state)
        if not summary.over:
            say("G", stored.game_id, len(stored.events) - 1, state_hash(update.state))
            return len(stored.events) - 1
        journal.set_result(stored.game_id, summary.winner)
        say("F", stored.game_id, summary.winner)
    if game == "board":
        board_setup = Session.setup(new_board_setup(rng))
        say("N", json.dumps(board_setup.to_json(), ensure_ascii=False))
        state = session.new_game(board_setup).state
        say("G", session.game_id, 0, state_hash(state))
        return 0
    setup = new_setup(rng)
    say("N", json.dumps(setup.to_json(), ensure_ascii=False))
    state = session.new_game(setup).state
    say("G", session.game_id, 0, state_hash(state))
    return 0


def main(argv: list[str]) -> int:
    data, seed = argv[0], int(argv[1])
    game = "board" if "board" in argv[2:] else "revenge"
    rng = random.Random(seed)
    clock = [0.0]
    journal = Journal.open(data)
    session = Session(journal, background="writer" in argv[2:])
    if session.writer is not None:
        session.writer.subscribe(durable=lambda game_id, seq: say("D", game_id, seq))
    count = open_game(journal, session, rng, game)
    for _ in range(MAX_EVENTS):
        event = (next_board_event(session, rng) if game == "board"
                 else next_event(session, rng, clock))
        say("W", json.dumps(event.to_json(), ensure_ascii=False))
        try:
            session.submit(event)
        except CompanionError:
            say("R")
            continue
        count += 1
        state = session.state
        assert state is not None
        say("A", count, state_hash(state))
        if games.get(session.update.game).summary(state).over and rng.random() < 0.7:
            count = open_game(journal, session, rng, game)
    return 0


def serve() -> int:
    """Fork one child per line of arguments on stdin; say how each one ended."""
    while line := sys.stdin.readline():
        sys.stdout.flush()
        pid = os.fork()
        if pid == 0:  # the child: play until killed
            code = 1
            try:
                say("P", os.getpid())
                code = main(line.split())
            except BaseException:  # a child that stops by itself says why on stderr
                traceback.print_exc()
            finally:
                sys.stdout.flush()
                sys.stderr.flush()
                os._exit(code)
        _, status = os.waitpid(pid, 0)
        say("X", os.waitstatus_to_exitcode(status))
    return 0


if __name__ == "__main__":
    sys.exit(serve() if sys.argv[1:] == ["serve"] else main(sys.argv[1:]))
