"""The board game's own table in the configuration file, [board] (companion.config.Section):
its new-game defaults, its edition and the Settings of BOARD.md, checked by the board
rules themselves (one place for them). Its commented defaults are config.toml, beside
this file, which the app's default configuration is composed from."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.config import Refused, Section, boolean, choice
from companion.errors import BadSetup
from games.board.rules.settings import Settings


@dataclass(frozen=True, slots=True)
class BoardConfig:
    """The board game's new-game defaults: its edition and the Settings of BOARD.md."""

    edition: str = "classic"
    start_move: str = "count"
    deck: str = "standard"
    faster_start: bool = False
    adult: bool = False
    play_on: bool = False
    slide_colors: tuple[tuple[str, str], ...] = ()  # (triangle, colour) that differ

    def settings(self) -> dict[str, Any]:
        """The setup's `settings` object (games.board.rules.settings)."""
        return {"start_move": self.start_move, "deck": self.deck,
                "faster_start": self.faster_start, "adult": self.adult,
                "play_on": self.play_on, "slide_colors": dict(self.slide_colors)}


def _settings_problem(edition: str, obj: dict[str, Any]) -> None:
    """Refused with the board rules' own sentence when `obj` is no setup's settings."""
    try:
        Settings.parse(obj, edition)
    except BadSetup as exc:
        raise Refused(str(exc)) from None


def _slide_colors(v: object) -> tuple[tuple[str, str], ...]:
    if not isinstance(v, dict):
        raise Refused('use a table such as { T1 = "blue" } (triangle = colour)')
    _settings_problem("classic", {"slide_colors": v})
    return tuple(sorted(v.items()))


def _whole_table(board: BoardConfig) -> None:
    """The settings together (adult play is a classic-edition rule)."""
    _settings_problem(board.edition, board.settings())


SECTION = Section(BoardConfig, {
    "edition": choice("classic", "2016"), "start_move": choice("count", "circle"),
    "deck": choice("standard", "1939"), "faster_start": boolean, "adult": boolean,
    "play_on": boolean, "slide_colors": _slide_colors,
}, together=("adult", _whole_table))


def board_config(config: object) -> BoardConfig:
    """The [board] table of a companion.config.Config (its defaults for anything else)."""
    section = getattr(config, "section", None)
    found = section("board") if callable(section) else None
    return found if isinstance(found, BoardConfig) else BoardConfig()
