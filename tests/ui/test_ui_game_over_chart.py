"""The game-over chart, by touch on the real app: it plots each player's progress per
round (0..2P in the longer game), has a round axis, a legend of names in the players'
colours, and its title says what it plots, in English and French."""

from __future__ import annotations

from ui_helpers import setup_by_touch

from ui.theme import name_rgba


def texts(labels) -> list[str]:
    return [label.text for label in labels]


def assert_axis_word_clear(chart, word: str) -> None:
    """The axis's name and round 0's number are drawn side by side, not over each other."""
    label = next(c for c in chart.children if c.text == word)
    zero = chart.round_labels[0]
    label.texture_update()
    zero.texture_update()
    word_right = label.center_x + label.texture_size[0] / 2
    gap = zero.center_x - zero.texture_size[0] / 2 - word_right
    assert gap >= zero.texture_size[0], (word, gap)  # more than a digit apart: not "Round 0"


def test_the_chart_plots_progress_per_round_with_axis_and_legend(driver):
    d = driver()
    setup_by_touch(d, ["Ana", "Ben"], pawns=1, variant="long")  # goal 2P = 2
    for card in ("10", "10", "5", "10", "10", "0", "5"):  # Ana busts twice: Ben wins
        d.tap_code(card)
    d.wait_for(lambda: d.screen == "over", "the game-over screen")
    d.frames(2)
    over = d.app.screen("over")
    chart = over.ids.chart
    assert d.label("over", "chart_title") == "Progress per round (goal 2)"
    assert chart.history == [[0, 0], [0, 1], [0, 2]]  # progress, past HOME to the goal
    assert (chart.goal, chart.pawns) == (2, 1)
    assert texts(chart.legend) == ["▲ Ana", "■ Ben"]  # each name after its seat's shape
    assert chart.legend[0].color == list(name_rgba("red"))
    assert texts(chart.round_labels) == ["0", "1", "2"]
    assert texts(chart.level_labels) == ["0", "1", "2"]
    assert "Round" in texts(chart.children)
    assert_axis_word_clear(chart, "Round")
    xs = [label.center_x for label in chart.round_labels]
    assert xs == sorted(xs) and xs[-1] - xs[0] > chart.width / 2  # an axis, left to right
    assert all(chart.collide_widget(label) for label in chart.children)  # inside the chart
    assert d.overflowing_labels() == []
    d.app.set_language("fr")
    d.frames(2)
    assert d.label("over", "chart_title") == "Progression par manche (objectif 2)"
    assert "Manche" in texts(chart.children)
    assert_axis_word_clear(chart, "Manche")


def test_a_long_game_keeps_the_round_axis_readable(driver):
    d = driver()
    setup_by_touch(d, ["Ana", "Ben", "Cy", "Dee"], pawns=4, variant="long")
    d.app.show("over")
    chart = d.app.screen("over").ids.chart
    chart.names = ["Ana", "Ben", "Cy", "Dee"]
    chart.colors = ["red", "blue", "yellow", "green"]
    chart.goal, chart.pawns = 8, 4
    chart.history = [[r % 9, r // 4, 0, 8 * (r == 30)] for r in range(31)]
    d.frames(3)
    rounds = texts(chart.round_labels)
    assert rounds[0] == "0" and rounds[-1] == "30" and len(rounds) <= 11
    assert texts(chart.level_labels) == ["0", "4", "8"]  # the start, P (lap mark), 2P
    assert texts(chart.legend) == ["▲ Ana", "■ Ben", "● Cy", "◆ Dee"]
    assert d.overflowing_labels() == []
