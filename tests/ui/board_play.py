"""A scorekeeper at the board screen, by touch only: taps the card drawn (or Draw), then
picks an option the way a person does, tapping the pawn and where it goes (each leg of a
split, the opponent of a switch or Sorry!), or its row in the list, or "Move".

The choice of option is the test's (seeded); each choice is then made by real touches on
the real app, and the test checks the engine received exactly that option.
"""

from __future__ import annotations

import random
from typing import Any

from games.board.screens.layout import key

PREFERRED = ("split", "switch", "decline", "sorry", "backward", "start")


def tap_at(d: Any, x: float, y: float, frames: int = 2) -> None:
    d.tap_at(x, y, frames=frames)  # at a human pace: the touch guard lets it through


def key_window(d: Any, board_key: str) -> tuple[float, float]:
    board = d.app.screen("board").ids.board
    return board.to_window(*board.key_px(board_key))


def tap_key(d: Any, board_key: str, frames: int = 2) -> None:
    tap_at(d, *key_window(d, board_key), frames=frames)


def drag_pawn(d: Any, frm: str, to: str) -> None:
    """Correcting the board: a finger takes the pawn on board key `frm` to `to`."""
    from kivy.tests.common import UnitTestTouch

    (x0, y0), (x1, y1) = key_window(d, frm), key_window(d, to)
    touch = UnitTestTouch(x0, y0)
    touch.touch_down()
    touch.touch_move((x0 + x1) / 2, (y0 + y1) / 2)
    touch.touch_move(x1, y1)
    touch.touch_up()
    d.frames(2)


def open_list(d: Any) -> int:
    """Portrait: the moves are listed behind one button (games.board.screens.board_screen
    `list_folded`); a finger opens the list to pick a row. The taps it took (0 or 1)."""
    if not d.buttons(code="list"):
        return 0
    d.tap_code("list")
    return 1


class Scorekeeper:
    """`ways`: how a move is picked, as often as a person might (board, list, "Move");
    `on_board_only`: always on the board, as the README counts the taps."""

    def __init__(self, d: Any, seed: int, *, on_board_only: bool = False) -> None:
        self.d = d
        self.rng = random.Random(seed)
        self.on_board_only = on_board_only
        self.kinds: dict[str, int] = {}
        self.taps = {"board": 0, "list": 0, "move": 0}
        self.touches = {"draw": 0, "move": 0}  # every tap the scorekeeper made, per kind
        self.moves = 0

    @property
    def model(self) -> Any:
        return self.d.app.models["board"]

    def draw(self) -> str | None:
        """Tap the card: one the deck still holds (real cards), or the Draw button."""
        m = self.model
        self.touches["draw"] += 1  # the card tapped, or Draw (the test's tries: not a tap)
        if m.phase == "draw":
            self.d.tap_code("draw")
            return None
        left = sorted(c for c, n in m.state["remaining"].items() if n > 0)
        if not left:  # the pile is empty: the discards are shuffled in by this draw
            left = sorted(m.state["remaining"])
        steps = len(self.d.app.session.update.steps)
        order = self.rng.sample(left, len(left))
        wanted = self.wanted_card(left)
        if wanted is not None and self.rng.random() < 0.5:
            order.insert(0, wanted)  # a card that shows the table something not seen yet
        for card in order:
            self.d.tap_code(f"card:{card}")
            if len(self.d.app.session.update.steps) != steps:
                return card
        raise AssertionError("no card could be drawn")

    def wanted_card(self, left: list[str]) -> str | None:
        """A card whose options include a kind this game has not had yet (the engine is
        asked what the card would allow, as a player looks at the board)."""
        from games.board.rules import RULES, options

        state = self.d.app.session.state
        for card in left:
            try:
                after = RULES.apply(state, RULES.parse_event({"type": "draw", "card": card}))
            except Exception:  # a card the deck cannot give now
                continue
            kinds = {o.kind for o in options(after.state)}
            if kinds & (set(PREFERRED) - set(self.kinds)):
                return card
        return None

    def choose(self) -> dict[str, Any]:
        """The option to take: one that wins, else a kind not seen yet, else any."""
        options = self.model.snap.options
        wins = [o for o in options if o["option"].wins]
        if wins:
            return wins[0]
        fresh = [o for o in options if o["kind"] in PREFERRED and o["kind"] not in self.kinds]
        if fresh and self.rng.random() < 0.9:
            return fresh[0]
        forward = [o for o in options if o["kind"] in ("forward", "start", "split", "sorry")]
        pool = forward if forward and self.rng.random() < 0.8 else options
        return self.rng.choice(pool)

    def take(self, option: dict[str, Any]) -> None:
        """Pick `option` by touch: on the board, from the list, or with "Move"."""
        d, m = self.d, self.model
        index = m.snap.options.index(option)
        steps = len(d.app.session.update.steps)
        way = 0.5 if self.on_board_only else self.rng.random()
        self.moves += 1

        def moved() -> bool:
            d.frames(2)  # the move's update reaches the screen
            return len(d.app.session.update.steps) != steps

        if m.single and way < 0.3:
            self.taps["move"] += 1
            self.touches["move"] += 1
            d.tap_code("move")
        elif option["legs"] and way < 0.75:
            self.taps["board"] += 1
            mover = m.turn_color
            legs = list(zip(option["legs"], option["landed"], strict=True))
            for leg, ((frm, to), land) in enumerate(legs, 1):
                # a tap that moved() follows draws no frames of its own: moved() draws
                # the two the check waits for (four a tap before, the same checks)
                tap_key(d, key(frm, mover), frames=0)
                self.touches["move"] += 1
                if moved():  # one destination: the pawn's tap made the move
                    break
                target = land if option["kind"] in ("switch", "sorry") else to
                tap_key(d, key(target, mover), frames=0 if leg == len(legs) else 2)
                self.touches["move"] += 1
            if not moved():
                # the taps fit several options (an 11 forward onto a pawn and the switch
                # with it): the list shows them, and the row is tapped
                self.touches["move"] += open_list(d)
                scroll_to(d, f"opt{index}")
                d.tap_code(f"opt{index}")
                self.touches["move"] += 1
        else:
            self.taps["list"] += 1
            self.touches["move"] += 1
            self.touches["move"] += open_list(d)
            scroll_to(d, f"opt{index}")
            d.tap_code(f"opt{index}")
        self.kinds[option["kind"]] = self.kinds.get(option["kind"], 0) + 1


def scroll_to(d: Any, code: str) -> None:
    """Scroll the option list until the row is in view (a finger scrolls too). Rows are as
    tall as their words, so the list's height settles over a few frames: scroll again until
    the row's centre is inside the list."""
    from kivy.uix.scrollview import ScrollView

    for _ in range(6):
        d.frames(2)
        button = next(w for w in d.widgets() if getattr(w, "code", None) == code)
        node = button.parent
        while node is not None and not isinstance(node, ScrollView):
            node = node.parent
        if node is None:
            return
        _x, y = button.to_window(*button.center)
        _sx, sy = node.to_window(node.x, node.y)
        if sy <= y <= sy + node.height:
            return
        node.scroll_to(button, padding=0, animate=False)
    raise AssertionError(f"{code} could not be scrolled into view")
