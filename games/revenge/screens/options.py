"""The card game's own options on the first screen: pawn cards per player and the
variant (standard or long). The seats come from the first screen."""

from __future__ import annotations

from typing import Any

from kivy.properties import NumericProperty, StringProperty
from kivy.uix.gridlayout import GridLayout

from companion.errors import CompanionError
from games.revenge.config import game_config
from games.revenge.prefs import recall
from games.revenge.rules import Setup
from ui.wording import refusal


class RevengeOptions(GridLayout):
    """ui.games.OptionsForm of the card game (its layout: revenge/options.kv)."""

    pawns = NumericProperty(4)
    variant = StringProperty("standard")

    def load(self, app: Any) -> None:
        c, defaults = app.choices, game_config(app.link.config)  # the config's [game]
        kept = recall(c.own("revenge"), {})
        self.pawns = kept["pawns"] if c.players else defaults.pawns
        self.variant = kept["variant"] if c.players else defaults.variant

    def start(self, app: Any, players: list[str], colors: list[str], first: str) -> str | None:
        try:
            setup = Setup.create(players, first=first, colors=colors, pawns=int(self.pawns),
                                 variant=self.variant)
        except CompanionError as exc:
            return refusal(exc, app.lang)
        from ui.abandon import start_after_asking  # a running game is given up only if told

        start_after_asking(app, lambda: app.start_game(setup))
        return None
