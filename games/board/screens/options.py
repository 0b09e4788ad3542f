"""The board game's own options on the first screen: the edition and who draws the cards,
and the way to the rest of its choices (games.board.screens.setup_screen). What is chosen here is
kept in its own remembered choices at once (app.choices.own("board")), so the setup screen
and the next visit show it."""

from __future__ import annotations

from typing import Any

from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.gridlayout import GridLayout

from games.board.screens.slice import open_board_setup


class BoardOptions(GridLayout):
    """ui.games.OptionsForm of the board game (its layout: board/options.kv)."""

    edition = StringProperty("classic")
    companion_draws = BooleanProperty(True)

    def load(self, app: Any) -> None:
        kept = app.choices.own("board")
        self.edition = kept["edition"] if kept.get("edition") in ("classic", "2016") else "classic"
        draws = kept.get("companion_draws")
        self.companion_draws = draws if isinstance(draws, bool) else True

    def keep(self, app: Any) -> None:
        """What is shown becomes the remembered choice (in memory until a game starts)."""
        app.choices.keep_own("board", {**app.choices.own("board"), "edition": self.edition,
                                       "companion_draws": self.companion_draws})

    def more(self, app: Any, players: list[str], colors: list[str], first: str) -> None:
        """Every other choice of the board game, on its own screen."""
        self.keep(app)
        open_board_setup(app, players, colors, first)

    def start(self, app: Any, players: list[str], colors: list[str], first: str) -> str | None:
        from ui.abandon import start_after_asking  # a running game is given up only if told

        self.keep(app)
        setup = app.screen("board_setup")
        setup.offer(players, colors, first)  # its remembered settings, with these seats

        def start_now() -> None:  # a setting the rules refuse is said on the first screen
            setup.start_now()
            app.screen("start").message = setup.message

        start_after_asking(app, start_now)
        return None
