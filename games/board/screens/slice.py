"""The board game's slice for ui.games: its screens, its model, starting and showing a
game, its resume line and its leaderboard rows."""

from __future__ import annotations

from typing import Any

from ui.games import kv_beside

# The board game's columns in the history's leaderboard (games.board.rules.stats).
BOARD_COLUMNS = ("bumps", "sorrys", "pawns_home")
# Each screen: its .kv file (beside this module), module and class (ui.games.GameSlice.screens).

SCREENS = {
    "board": (kv_beside(__file__, "board.kv"), "games.board.screens.board_screen",
              "BoardScreen"),
    "board_menu": (kv_beside(__file__, "board_menu.kv"), "games.board.screens.board_screen",
                   "BoardMenuScreen"),
    "board_rules": (kv_beside(__file__, "board_rules.kv"), "games.board.screens.board_screen",
                    "BoardRulesScreen"),
    "board_setup": (kv_beside(__file__, "board_setup.kv"), "games.board.screens.setup_screen",
                    "BoardSetupScreen"),
    "board_teach": (kv_beside(__file__, "teach_board.kv"), "games.board.screens.teach_board",
                    "BoardTeachScreen"),
}


class BoardSlice:
    screens = SCREENS
    prewarm: tuple[str, ...] = ()
    options = (kv_beside(__file__, "options.kv"), "games.board.screens.options", "BoardOptions")
    rules_screen = "board_rules"
    teach_screen = "board_teach"  # Menu > Teach the camera's button to teach the board

    def title(self, lang: str) -> str:
        from games.board.screens.texts import bt

        return bt("s_board_game", lang)

    def make_model(self, app: Any) -> Any:
        from games.board.screens.model import BoardModel

        script = app.scripts.get("board")  # the screen's tests: a scripted game
        if script is None:
            from companion.session import Live
            from games.board.rules import RULES

            model = BoardModel(Live(app.session, RULES), speak=app.voice.say, lang=app.lang)
        else:
            model = BoardModel(script, view=script.snapshot, speak=app.voice.say,
                               lang=app.lang)
        return model

    def start(self, app: Any, setup: Any) -> str | None:
        """Start a board game (its setup's `draws`: who draws the cards); None, or the one
        sentence saying why it cannot start."""
        model = app.models["board"]
        if not model.new_game(setup):
            return str(model.message)
        self.show(app)
        return None

    def show(self, app: Any) -> None:
        app.models["board"].refresh()
        app.show("board")

    def describe_stored(self, state: Any, lang: str) -> str:
        from games.board.rules import RULES
        from games.board.screens.texts import bt

        position = RULES.state_json(state)  # BOARD.md's, as `replay --json` prints it
        players = ", ".join(state.names)  # its players' names, in seat order
        turn, winner = position.get("turn"), position.get("winner")
        if turn is None and winner:
            return bt("b_resume_over", lang, players=players, name=winner)
        return bt("b_resume", lang, players=players, name=turn or "")

    def leaderboard(self, grid: Any, leaders: list[Any], lang: str) -> None:
        from kivy.factory import Factory

        from games.board.screens.texts import bt
        from ui.i18n import number, tr

        heads = (bt("b_title", lang), tr("lb_games", lang), tr("lb_wins", lang),
                 *(bt(f"st_{c}", lang) for c in BOARD_COLUMNS))
        for text in heads:
            grid.add_widget(Factory.StatHead(text=text))
        for p in leaders:
            for value in (p.name, p.games, p.wins, *(p.counters.get(c, 0) for c in BOARD_COLUMNS)):
                shown = value if isinstance(value, str) else number(value, lang)
                grid.add_widget(Factory.StatCell(text=shown))


SLICE = BoardSlice()


def open_board_setup(app: Any, players: list[str], colors: list[str], first: str) -> None:
    app.screen("board_setup").offer(players, colors, first)
    app.show("board_setup")
