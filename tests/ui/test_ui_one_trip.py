"""One trip per event (issue 32): how far a card tap and a board move travel from the
widget to the session, measured on the real app (tests/ui/trip_measure.py): the project
files on the stack when the event reaches Session.submit, how often the path changes file,
and how many times the state is turned into JSON for the event. The bounds may only go
down (docs/DECISIONS.md has the figures before)."""

from __future__ import annotations

from trip_measure import Trip

from games.revenge.rules import Setup

# before (main before issue 32's steps): a card tap 5 files, 5 crossings (table -> app ->
# gamemodel -> table), no state JSON; a board move 5 files, 5 crossings, the state in JSON
# twice (the screen's JSON door re-encoded it on every refresh). After: the card table's
# taps go through its own model, not the app; a board move is a typed event from the
# board's model through companion.live.Live (the seam's one check: the open game is a
# board game) to the session, and its state is in JSON once per update, for the board
# view's position (games.board.screens.snapshot).
CARD_TAP = {"files": 4, "crossings": 4, "state_json": 0}
BOARD_MOVE = {"files": 5, "crossings": 5, "state_json": 1}


def figures(trip: Trip) -> dict[str, int]:
    return {"files": len(trip.path_files), "crossings": trip.crossings,
            "state_json": trip.counts["state_json"]}


def test_a_card_tap_crosses_the_layers_once(driver):
    d = driver()
    d.app.start_game(Setup.create(["Ana", "Ben"]))
    d.frames(3)
    trip = Trip().run(lambda: d.tap_code("7"))
    assert d.app.session.state.total == 7
    assert all(figures(trip)[k] <= v for k, v in CARD_TAP.items()), (figures(trip), trip.path)


def test_a_board_move_crosses_the_layers_once(driver):
    d = driver()
    d.app.start_game({"type": "setup", "game": "board", "players": ["Ana", "Ben"]})
    d.frames(3)
    d.tap_code("card:1")
    d.frames(3)
    before = d.app.session.state
    trip = Trip().run(lambda: d.tap_code("move"))
    assert d.app.session.state != before
    assert all(figures(trip)[k] <= v for k, v in BOARD_MOVE.items()), (figures(trip), trip.path)
