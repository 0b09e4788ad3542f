"""What the board screen needs of the game, as JSON-shaped facts (BOARD.md's contracts):
the screen never imports the engine, so it is built and tested against the contracts.

A door's calls either change the game (and its listeners hear of it) or raise a
CompanionError whose sentence the screen shows unchanged.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol


@dataclass(frozen=True)
class BoardSnapshot:
    """One moment of a board game, as the screen shows it.

    - `state`: the position as `replay --json` prints it (game, edition, players with name,
      colour, pawns, home; turn, card, winner, draw_pile, remaining, settings);
    - `options`: for the drawn card, the engine's options as `board options --json` lists
      them (kind, legs, pawns, bumped, text), each with `why`: {lang: sentence};
    - `last`: what the last accepted event did, for the one big sentence: {"what":
      "forfeit" | "draw_again" | "moved" | "placed" | "won" | "drew" | "undone" |
      "redone", "name", "card", "why": {lang: sentence}} or None;
    - `undo`, `redo`: the step each would take back or apply, as its event's JSON plus
      "name" (whose turn it was), or None;
    - `companion_draws`: True when the companion shuffles and draws (a Draw button),
      False when the table draws real cards (a card pad): the setup's `draws`.
    """

    state: dict[str, Any]
    options: list[dict[str, Any]] = field(default_factory=list)
    last: dict[str, Any] | None = None
    undo: dict[str, Any] | None = None
    redo: dict[str, Any] | None = None
    companion_draws: bool = False


class BoardDoor(Protocol):
    def snapshot(self) -> BoardSnapshot | None:
        """The game now, or None when no board game is open."""

    def new_game(self, setup: dict[str, Any]) -> None:
        """Start a board game from its setup event (BOARD.md "Transcripts"; its `draws`
        says who draws the cards)."""

    def play_again(self) -> None:
        """Start a new game with the open (finished) game's setup."""

    def draw(self, card: str | None) -> None:
        """The card drawn for the player whose turn it is; None: the companion draws."""

    def move(self, option: dict[str, Any]) -> None:
        """Take one of the snapshot's options (its `event` when it has one, else its legs;
        `[]` declines an 11)."""

    def no_play(self, card: str) -> None:
        """Adult variation: the player has no playable card and discards `card`."""

    def place(self, color: str, frm: str, to: str) -> None:
        """Correct the board: a `color` pawn stands on `to`, not on `frm`."""

    def undo(self) -> None: ...

    def redo(self) -> None: ...

    def subscribe(self, listener: Callable[[], None]) -> Callable[[], None]:
        """Call `listener` (from any thread) after every change; returns unsubscribe."""
