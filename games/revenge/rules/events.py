"""The card game's events, exactly the transcript lines of TRANSCRIPT.md, typed.

`parse_event` turns one JSON object into an event (or raises BadEvent with a plain
sentence); `Event.to_json` gives back the object that `parse_event` accepts. Undo and
redo are the core's (companion.game), the same for every game.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, ClassVar

from companion.errors import BadEvent, BadSetup
from companion.safe_text import name_problem, quote
from companion.seats import MAX_SEATS, MIN_SEATS, check_seats
from games.revenge.rules.cards import Card

MIN_PLAYERS, MAX_PLAYERS = MIN_SEATS, MAX_SEATS
MAX_PAWNS = 4


class Color(StrEnum):
    RED = "red"
    BLUE = "blue"
    YELLOW = "yellow"
    GREEN = "green"


class Variant(StrEnum):
    STANDARD = "standard"
    LONG = "long"


COLORS = (Color.RED, Color.BLUE, Color.YELLOW, Color.GREEN)  # seats clockwise, as the board game's


@dataclass(frozen=True, slots=True)
class Setup:
    """A new game: who plays, in which seats and colours, with how many pawn cards."""

    game: ClassVar[str] = "revenge"  # the setup's "game" key (companion.games)
    players: tuple[str, ...]
    first: str
    colors: tuple[Color, ...]
    pawns: int = MAX_PAWNS
    variant: Variant = Variant.STANDARD

    @staticmethod
    def create(
        players: list[str] | tuple[str, ...],
        *,
        first: str | None = None,
        colors: list[str] | tuple[str, ...] | None = None,
        pawns: int = MAX_PAWNS,
        variant: str = Variant.STANDARD,
    ) -> Setup:
        """Validate and build a setup; every refusal is a BadSetup sentence."""
        names, first, seated = check_seats(players, first=first, colors=colors)
        cols = tuple(Color(c) for c in seated)
        if isinstance(pawns, bool) or not isinstance(pawns, int) or not 1 <= pawns <= MAX_PAWNS:
            raise BadSetup(f"pawns must be a whole number from 1 to {MAX_PAWNS}, "
                           f"not {quote(pawns)}",
                           code="bad_pawns", pawns=pawns)
        if variant not in (Variant.STANDARD.value, Variant.LONG.value):
            raise BadSetup(f"variant must be 'standard' or 'long', not {quote(variant)}",
                           code="bad_variant", variant=variant)
        return Setup(names, first, cols, pawns, Variant(variant))

    def to_json(self) -> dict[str, Any]:
        return {
            "type": "setup",
            "game": self.game,
            "players": list(self.players),
            "first": self.first,
            "colors": [c.value for c in self.colors],
            "pawns": self.pawns,
            "variant": self.variant.value,
        }


@dataclass(frozen=True, slots=True)
class Play:
    """A card played on a turn; `target` names the flip-back SORRY!'s victim."""

    card: Card
    player: str | None = None
    target: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "play", "card": self.card.code}
        if self.player is not None:
            out["player"] = self.player
        if self.target is not None:
            out["target"] = self.target
        return out


@dataclass(frozen=True, slots=True)
class Press:
    """A player's SORRY! button (or name tapped); `t` is the edge time in seconds."""

    player: str
    t: float | None = None

    def __post_init__(self) -> None:
        """Built by a button or a screen, a press keeps to what a transcript may say, so
        what is accepted live always replays."""
        if self.t is not None and not math.isfinite(self.t):
            raise BadEvent(f"press 't' must be a number of seconds, not {self.t!r}")

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "press", "player": self.player}
        if self.t is not None:
            out["t"] = self.t
        return out


@dataclass(frozen=True, slots=True)
class Close:
    """The open steal or block window closes."""

    def to_json(self) -> dict[str, Any]:
        return {"type": "close"}


@dataclass(frozen=True, slots=True)
class EndPlay2:
    """The scorekeeper ends an owed Play 2 early."""

    def to_json(self) -> dict[str, Any]:
        return {"type": "end_play2"}


@dataclass(frozen=True, slots=True)
class Tiebreak:
    """A tied player's tiebreaker pile total."""

    player: str
    total: int

    def __post_init__(self) -> None:
        if isinstance(self.total, bool) or not isinstance(self.total, int) or self.total < 0:
            raise BadEvent("tiebreak 'total' must be a whole number, 0 or more, "
                           f"not {quote(self.total)}")

    def to_json(self) -> dict[str, Any]:
        return {"type": "tiebreak", "player": self.player, "total": self.total}


Event = Play | Press | Close | EndPlay2 | Tiebreak  # what the rules apply
EVENT_TYPES = ("setup", "play", "press", "close", "end_play2", "tiebreak", "undo", "redo")


def _name(obj: dict[str, Any], key: str, *, required: bool) -> str | None:
    value = obj.get(key)
    if value is None and not required:
        return None
    if not isinstance(value, str) or not value.strip() or name_problem(value.strip()):
        raise BadEvent(f"{obj.get('type')} needs {key!r} with a player's name"
                       + (f", not {quote(value)}" if isinstance(value, str) else ""))
    return value.strip()


def _player(obj: dict[str, Any]) -> str:
    """The event's required "player"."""
    name = _name(obj, "player", required=True)
    assert name is not None  # _name refuses a missing required name
    return name


def _seconds(t: object) -> float:
    """A press's edge time: a finite number of seconds (JSON ints may be huge)."""
    try:
        seconds = math.nan if isinstance(t, bool) else float(t)  # type: ignore[arg-type]
    except (TypeError, ValueError, OverflowError):
        seconds = math.nan
    if not math.isfinite(seconds):
        shown = repr(t)[:40] if not isinstance(t, int) or t.bit_length() < 256 else "a huge number"
        raise BadEvent(f"press 't' must be a number of seconds, not {shown}")
    return seconds


def parse_setup(obj: dict[str, Any]) -> Setup:
    """The setup line; its "game" key was read by the core. Unknown keys are ignored."""
    return Setup.create(
        obj.get("players"),  # type: ignore[arg-type]
        first=obj.get("first"),
        colors=obj.get("colors"),
        pawns=obj.get("pawns", MAX_PAWNS),
        variant=obj.get("variant", Variant.STANDARD.value),
    )


def parse_event(obj: object) -> Event:
    """One transcript object (not setup, undo or redo: the core's) to an event.
    Unknown keys are ignored, as the spec says."""
    if not isinstance(obj, dict):
        raise BadEvent('each line must be a JSON object such as {"type": "play", "card": "7"}')
    kind = obj.get("type")
    if kind == "play":
        return Play(
            Card.parse(obj.get("card")),
            _name(obj, "player", required=False),
            _name(obj, "target", required=False),
        )
    if kind == "press":
        t = obj.get("t")
        return Press(_player(obj), None if t is None else _seconds(t))
    if kind == "close":
        return Close()
    if kind == "end_play2":
        return EndPlay2()
    if kind == "tiebreak":
        return Tiebreak(_player(obj), obj.get("total"))  # type: ignore[arg-type]  # checked
    if kind is None:
        raise BadEvent("the event has no 'type'")
    raise BadEvent(f"unknown event type {quote(kind)}; known types are {', '.join(EVENT_TYPES)}")
