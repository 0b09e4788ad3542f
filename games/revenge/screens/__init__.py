"""The card game (Sorry! Revenge) on the touchscreen: its slice for ui.games.

- `model`: the table as Kivy properties (TableModel), what every screen here binds to;
- `table`: the table screen (total, card pad, players, SORRY! windows, undo/redo);
- `endgame`: the tiebreaker and the game-over screens;
- `widgets`: the player panel, pawn cards and the game-over chart.
Each screen's layout is in its .kv file beside it.
"""

from __future__ import annotations

from typing import Any

from kivy.factory import Factory

from games.revenge.prefs import section
from ui.games import kv_beside
from ui.i18n import number, tr

# The screens that follow the game's phase: a table that goes to a tiebreak or game over
# follows it there; other screens (a page, the menu) stay put.
PHASE_SCREENS = {"table": "table", "tiebreak": "tiebreak", "over": "over"}


# Each screen: its .kv file (beside this module), module and class (ui.games.GameSlice.screens).

SCREENS = {
    "table": (kv_beside(__file__, "table.kv"), "games.revenge.screens.table", "TableScreen"),
    "tiebreak": (kv_beside(__file__, "tiebreak.kv"), "games.revenge.screens.endgame",
                 "TiebreakScreen"),
    "over": (kv_beside(__file__, "over.kv"), "games.revenge.screens.endgame", "GameOverScreen"),
}


# The names' column of the leaderboard, against 1 for each figure's: the heads ("Dépassés")
# keep their least size at 480 px in large text; a long name may end in "…" anyway.
NAME_SHARE = 0.6

class RevengeSlice:
    screens = SCREENS
    prewarm = ("table", "over", "tiebreak")
    options = (kv_beside(__file__, "options.kv"), "games.revenge.screens.options", "RevengeOptions")
    rules_screen = "rules"

    def title(self, lang: str) -> str:
        return tr("s_card_game", lang)

    def make_model(self, app: Any) -> Any:
        from games.revenge.screens.model import TableModel

        model = TableModel(app.session, remaining=app.session.remaining, speak=app.voice.say,
                           lang=app.lang)

        def follow_phase(_model: Any, phase: str) -> None:
            root = app.root
            if root is not None and root.current in PHASE_SCREENS and phase in PHASE_SCREENS:
                app.show(PHASE_SCREENS[phase])

        model.bind(phase=follow_phase)
        return model

    def start(self, app: Any, setup: Any) -> str | None:
        """Start a card game from the start screen's setup; its choices are kept for next
        time. A refusal is the table's message (app.submit)."""
        if not app.submit(lambda: app.session.new_game(setup, abandon=True)):
            return None
        app.choices.remember(list(setup.players), [c.value for c in setup.colors],
                             setup.first, game="revenge",
                             own=section(setup.pawns, setup.variant.value))
        app.keep(app.choices)
        app.show("table")
        app.models["revenge"].refresh()
        return None

    def show(self, app: Any) -> None:
        model = app.models["revenge"]
        model.refresh()
        app.show(PHASE_SCREENS.get(model.phase, "table"))

    def describe_stored(self, state: Any, lang: str) -> str:
        players = ", ".join(state.setup.players)
        if state.running:
            return tr("resume_desc", lang, players=players, round=state.round,
                      turn=state.name(state.turn))
        return tr("resume_desc_over", lang, players=players, round=state.round)

    def leaderboard(self, grid: Any, leaders: list[Any], lang: str) -> None:
        heads = ("", tr("lb_games", lang), tr("lb_wins", lang), tr("go_rounds_won", lang),
                 tr("go_busts", lang), tr("go_steals", lang))
        for text in heads:
            grid.add_widget(Factory.StatHead(text=text, size_hint_x=1 if text else NAME_SHARE))
        for p in leaders:
            for value in (p.name, p.games, p.wins, p.rounds_won, p.busts, p.steals):
                # a long name may end in "…"; a figure never
                shown = value if isinstance(value, str) else number(value, lang)
                grid.add_widget(Factory.StatCell(text=shown, ellipsis_ok=value is p.name,
                                                 size_hint_x=NAME_SHARE if value is p.name
                                                 else 1))


SLICE = RevengeSlice()


def play_again(app: Any) -> None:
    """The same players, colours and options; the next player in seating order starts."""
    from games.revenge.rules import Setup

    state = app.session.state
    if state is None:
        app.new_game_form()
        return
    s = state.setup
    first = s.players[(s.players.index(s.first) + 1) % len(s.players)]
    app.start_game(Setup.create(list(s.players), first=first,
                                colors=[c.value for c in s.colors], pawns=s.pawns,
                                variant=s.variant.value))
