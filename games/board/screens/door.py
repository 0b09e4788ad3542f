"""What the board screen needs of the live game, typed: `BoardLive` (companion.live.Live
over the board's rules is the one; the screen's tests script another), and the screen's
view of one moment of it, `BoardSnapshot` (games.board.screens.snapshot makes it from
the typed update).

A live game's calls either change the game (and its listeners hear of it) or raise a
CompanionError whose sentence the screen shows unchanged.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from companion.session import By, CoreEvent, Update
from games.board.rules import BoardEvent, BoardSetup, BoardState


@dataclass(frozen=True)
class BoardSnapshot:
    """One moment of a board game, as the screen shows it.

    - `state`: the position as `replay --json` prints it (game, edition, players with name,
      colour, pawns, home; turn, card, winner, draw_pile, remaining, settings), what the
      board view draws;
    - `options`: for the drawn card, the engine's options as `board options --json` lists
      them (kind, legs, landed, pawns, bumped), each with its engine `option` (whose words
      and why in either language the screen asks for) and its move `event`;
    - `last`: what the last accepted event did, for the one big sentence: {"what":
      "forfeit" | "draw_again" | "moved" | "placed" | "won" | "drew" | "undone" |
      "redone", "name", "card", "why": {lang: sentence}} or None;
    - `undo`, `redo`: the step each would take back or apply, as its event's fields plus
      "name" (whose turn it was), or None;
    - `companion_draws`: True when the companion shuffles and draws (a Draw button),
      False when the table draws real cards (a card pad): the setup's `draws`;
    - `setup`: the game's setup, for "play again" (None: not known).
    """

    state: dict[str, Any]
    options: list[dict[str, Any]] = field(default_factory=list)
    last: dict[str, Any] | None = None
    undo: dict[str, Any] | None = None
    redo: dict[str, Any] | None = None
    companion_draws: bool = False
    setup: BoardSetup | None = None


BoardUpdate = Update[BoardState, BoardEvent]


class BoardLive(Protocol):
    """The live board game: its typed updates in, its typed events out."""

    @property
    def update(self) -> BoardUpdate | None:
        """The latest update while a board game is open (None otherwise)."""

    @property
    def state(self) -> BoardState | None: ...

    def new_game(self, setup: BoardSetup, *, abandon: bool = False) -> object:
        """Start a board game (its setup's `draws` says who draws the cards)."""

    def submit(self, event: BoardEvent | CoreEvent, by: By = "touch") -> object:
        """One event of the open board game (NoGame when none is open)."""

    def subscribe(self, listener: Callable[[BoardUpdate], None]) -> Callable[[], None]:
        """Call `listener` (from any thread) after every change; returns unsubscribe."""
