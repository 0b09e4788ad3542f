"""The longer game on the table, by touch on the real app: each pawn card shows both laps
(START, HOME, then START with a lap mark) and each player's bar shows progress 0..2P."""

from __future__ import annotations

from ui_helpers import setup_by_touch

from games.revenge.screens.model import pawn_laps

# Ana busts each round, so only Ben advances; "0"s keep Ana the one who reaches 25.
ANA_BUSTS = {1: ("10", "10", "5"), 2: ("10", "10", "0", "5"), 3: ("10", "10", "0", "5")}


def panels(d) -> list:
    return list(reversed(d.app.screen("table").ids.players_grid.children))


def cards(panel) -> list[str]:
    return [c.text for c in reversed(panel.ids.pawns.children)]


def test_the_laps_follow_the_rules_progress():
    assert pawn_laps(0, 2) == [0, 0]
    assert pawn_laps(1, 2) == [1, 0]
    assert pawn_laps(3, 2) == [2, 1]
    assert pawn_laps(4, 2) == [2, 2]
    assert [sum(lap == 1 for lap in pawn_laps(p, 4)) for p in range(9)] == [
        0, 1, 2, 3, 4, 3, 2, 1, 0]  # GameState.home: HOME cards rise to P, then fall


def test_progress_1_and_3_of_2_pawns_look_different(driver):
    d = driver()
    setup_by_touch(d, ["Ana", "Ben"], pawns=2, variant="long")
    ana, ben = panels(d)
    bar = ben.ids.progress_bar
    assert bar.height > 0 and bar.opacity == 1  # the longer game shows the bar
    assert (bar.value, bar.goal) == (0, 4) and bar.fill.size[0] == 0
    shown = {}
    for round_, cards_played in ANA_BUSTS.items():
        for card in cards_played:
            d.tap_code(card)
        assert d.app.session.state.progress == (0, round_)
        shown[round_] = cards(ben)
    assert shown[1] == ["HOME", "START"]
    assert shown[2] == ["HOME", "HOME"]
    assert shown[3] == ["START ✓", "HOME"]  # one card back on START after its second lap
    assert shown[1] != shown[3]
    back = ben.ids.pawns.children[-1]  # the first card
    assert back.lap == 2 and not back.home
    assert cards(ana) == ["START", "START"]
    assert (bar.value, bar.goal) == (3, 4)
    assert abs(bar.fill.size[0] - bar.width * 3 / 4) < 1  # three quarters of the way
    assert abs(bar.mark.pos[0] + 1 - (bar.x + bar.width / 2)) < 1  # the lap mark at P
    assert ana.ids.progress_bar.fill.size[0] == 0
    assert not [t for t in d.overflowing_labels() if "START" in t or "HOME" in t]
    d.app.set_language("fr")
    d.frames(2)
    assert cards(ben) == ["DÉPART ✓", "ARRIVÉE"]
    d.tap_id("table", "undo_button")  # Ana's bust undone: Ben back to progress 2
    assert cards(ben) == ["ARRIVÉE", "ARRIVÉE"] and bar.value == 2


def test_the_standard_game_needs_no_bar(driver):
    d = driver()
    setup_by_touch(d, ["Ana", "Ben"], pawns=2, variant="standard")
    for card in ANA_BUSTS[1]:
        d.tap_code(card)
    ben = panels(d)[1]
    assert cards(ben) == ["HOME", "START"]
    assert ben.ids.progress_bar.height == 0 and ben.ids.progress_bar.opacity == 0
