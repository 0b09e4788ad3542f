"""Where the board is drawn and which taps pick which option: pure Python, no window."""

from __future__ import annotations

import doctest
import itertools

import games.board.screens.layout as layout_module
import games.board.screens.picker as picker_module
from games.board.rules import geometry as g
from games.board.screens import layout
from games.board.screens.picker import Picker

BEFORE = {"red": ["START", "T10", "T20", "S2"], "blue": ["T14", "T30", "START", "HOME"]}


def test_the_doctests():
    for module in (layout_module, picker_module):
        assert doctest.testmod(module).failed == 0


def test_every_location_has_its_own_place_on_the_grid():
    keys = layout.every_key()
    assert len(keys) == g.TRACK_LEN + 4 * (2 + g.SAFETY_LEN)
    spots = [layout.key_spot(k) for k in keys]
    assert all(0 < x < layout.GRID and 0 < y < layout.GRID for x, y in spots)
    for (a, pa), (b, pb) in itertools.combinations(zip(keys, spots, strict=True), 2):
        room = 1.0
        if layout.is_zone(layout.unkey(a)[1]) or layout.is_zone(layout.unkey(b)[1]):
            room = layout.ZONE_RADIUS + 0.5  # a circle and a square must not overlap
        if layout.is_zone(layout.unkey(a)[1]) and layout.is_zone(layout.unkey(b)[1]):
            room = 2 * layout.ZONE_RADIUS
        dist = ((pa[0] - pb[0]) ** 2 + (pa[1] - pb[1]) ** 2) ** 0.5
        assert dist >= room - 1e-9, (a, b, dist)


def test_the_track_runs_clockwise_one_cell_at_a_time():
    for n in range(g.TRACK_LEN):
        (x0, y0), (x1, y1) = layout.spot(f"T{n}"), layout.spot(f"T{(n + 1) % g.TRACK_LEN}")
        assert abs(x1 - x0) + abs(y1 - y0) == 1


def test_each_safety_zone_leaves_the_track_at_its_entry_and_ends_at_home():
    for color in g.COLORS:
        (ex, ey), (sx, sy) = layout.spot(f"T{g.entry(color)}"), layout.spot("S1", color)
        assert abs(ex - sx) + abs(ey - sy) == 1
        x5, y5 = layout.spot("S5", color)
        hx, hy = layout.spot("HOME", color)
        assert abs(((hx - x5) ** 2 + (hy - y5) ** 2) ** 0.5 - (0.5 + layout.ZONE_RADIUS)) < 0.01


def test_a_finger_near_a_highlighted_place_picks_it():
    x, y = layout.spot("T12")
    assert layout.nearest((x + 0.9, y + 0.9), ["T12", "T40"], 1.6) == "T12"
    assert layout.nearest((x + 3, y), ["T12"], 1.6) is None
    sx, sy = layout.spot("START", "red")
    assert layout.nearest((sx + 1.0, sy), ["red:START", "T4"], 1.6) == "red:START"


def test_a_split_is_picked_leg_by_leg_in_either_order():
    options = [
        {"kind": "forward", "legs": [["T10", "T17"]]},
        {"kind": "split", "legs": [["T10", "T13"], ["S2", "HOME"]]},
        {"kind": "split", "legs": [["T10", "T14"], ["S2", "S5"]]},
    ]
    p = Picker(options, "red", BEFORE)
    assert p.tap("red:S2").what == "selected"
    assert p.targets() == ["red:HOME", "red:S5"]
    assert p.tap("red:HOME").what == "leg"
    assert p.sources() == ["T10"]
    assert p.remaining() == [1]
    # the last leg has one destination left: the pawn's tap makes it (issue 35)
    assert p.tap("T10")[:2] == ("done", (1,))
    assert p.chosen == [("red:S2", "red:HOME"), ("T10", "T13")]


def test_switch_and_sorry_land_on_the_opponent_tapped():
    after = {"red": ["START", "T14", "T20", "S2"], "blue": ["T10", "T30", "START", "HOME"]}
    switch = {"kind": "switch", "legs": [["T10", "T14"]], "pawns": after}
    forward = {"kind": "forward", "legs": [["T10", "T21"]], "pawns": {}}
    p = Picker([switch, forward], "red", BEFORE)
    p.tap("T10")
    assert p.targets() == ["T14", "T21"]
    assert p.tap("T14")[:2] == ("done", (0,))
    # a Sorry! onto a triangle slides on: the pawn tapped is where it landed
    after = {"red": ["T10", "T20", "T28", "S2"], "blue": ["START", "T14", "START", "HOME"]}
    before = {"red": ["START", "T10", "T20", "S2"], "blue": ["T24", "T14", "START", "HOME"]}
    sorry = {"kind": "sorry", "legs": [["START", "T28"]], "pawns": after}
    start = {"kind": "start", "legs": [["START", "T4"]], "pawns": {}}
    p = Picker([sorry, start], "red", before)
    p.tap("red:START")
    assert p.targets() == ["T24", "T28", "T4"]
    assert p.tap("T24")[:2] == ("done", (0,))
    # the Sorry! alone: one destination (tappable at two squares), made by the pawn's tap
    p = Picker([sorry], "red", before)
    assert p.tap("red:START")[:2] == ("done", (0,))


def test_a_slide_is_named_by_its_triangle_or_its_end():
    options = [{"kind": "forward", "legs": [["T20", "T28"]]},
               {"kind": "backward", "legs": [["T20", "T16"]]}]
    p = Picker(options, "red", BEFORE)
    p.tap("T20")
    assert p.targets() == ["T16", "T28"]
    assert p.tap("T24")[:2] == ("done", (0,))  # T24 is the triangle of the T24-T28 slide


def test_taps_that_fit_two_boards_ask_which():
    options = [{"kind": "forward", "legs": [["T10", "T15"]], "pawns": {"red": ["a"]}},
               {"kind": "forward", "legs": [["T10", "T15"]], "pawns": {"red": ["b"]}}]
    p = Picker(options, "red", BEFORE)
    p.tap("T10")
    assert p.tap("T15")[:2] == ("ambiguous", (0, 1))


def test_refused_taps_name_their_reason_and_change_nothing():
    p = Picker([{"kind": "forward", "legs": [["T10", "T15"]]},
                {"kind": "backward", "legs": [["T10", "T6"]]}], "red", BEFORE)
    assert p.tap("T30").reason == "cannot_move"
    p.tap("T10")
    assert p.tap("T40").reason == "not_there"
    assert p.selected == "T10" and p.chosen == []
    assert p.tap("T10").what == "deselected"
