"""The board game's events, exactly its transcript lines (BOARD.md "Transcripts"), typed.

`place` is ours (BOARD.md is silent): the board screen's "correct the board", a pawn
dragged to where it really stands. It is checked only for board validity, journalled and
undoable like any event.

>>> parse_event({"type": "move", "legs": [["T20", "T28"]]})
Move(legs=(('T20', 'T28'),), kind=None, landed=None)
>>> Draw("sorry").to_json()
{'type': 'draw', 'card': 'sorry'}
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, TypeAlias

from companion.errors import BadEvent, BadSetup
from companion.games import player_names
from companion.safe_text import quote
from games.board.rules.cards import parse_card
from games.board.rules.geometry import COLORS, LOCATIONS
from games.board.rules.moves import KINDS, Option
from games.board.rules.settings import Settings, parse_edition

__all__ = ["DRAWS", "BoardEvent", "BoardSetup", "Draw", "Draws", "Move", "NoPlay", "Place",
           "parse_event", "parse_setup"]

GAME = "board"
# Who draws the cards: the table from its real deck (the card drawn is tapped), or the
# companion's electronic deck (BOARD.md "Deck": a Draw button, a seat's button draws).
Draws: TypeAlias = Literal["table", "companion"]
DRAWS: tuple[Draws, ...] = ("table", "companion")


@dataclass(frozen=True, slots=True)
class BoardSetup:
    """A new board game: names and colours in the order given, who draws first."""

    players: tuple[str, ...]
    colors: tuple[str, ...]
    first: str
    edition: str = "classic"
    settings: Settings = field(default_factory=Settings)
    draws: Draws = "table"  # kept in the setup, so a resumed game draws as it began

    @property
    def game(self) -> str:
        """The registry's name of this game (the core finds the rules by it)."""
        return GAME

    def to_json(self) -> dict[str, Any]:
        out = {"type": "setup", "game": GAME, "edition": self.edition,
               "players": list(self.players), "colors": list(self.colors),
               "first": self.first, "settings": self.settings.to_json()}
        if self.draws != "table":  # a real deck's setup reads as every setup before it
            out["draws"] = self.draws
        return out


@dataclass(frozen=True, slots=True)
class Draw:
    """The card drawn for the player whose turn it is (adult variation: the card they play
    from their hand)."""

    card: str

    def to_json(self) -> dict[str, Any]:
        return {"type": "draw", "card": self.card}


@dataclass(frozen=True, slots=True)
class Move:
    """The option taken, named by its legs ([from, to] per pawn in play order; () declines
    an 11) and, optionally, its kind: an 11 forward onto an opponent and the switch with
    it have the same legs."""

    legs: tuple[tuple[str, str], ...]
    kind: str | None = None
    landed: tuple[str, ...] | None = None  # each leg's square before its slide
    # The option itself when the move was chosen from the rules' list (`Move.of`): the
    # rules apply it as it is. Not part of the event: not compared, not journalled.
    option: Option | None = field(default=None, compare=False, repr=False)

    @classmethod
    def of(cls, option: Option) -> Move:
        """The move that takes one of the listed options, carrying it."""
        return cls(option.legs, option.kind, option.landed, option)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "move", "legs": [list(leg) for leg in self.legs]}
        if self.kind is not None:
            out["kind"] = self.kind
        if self.landed is not None:
            out["landed"] = list(self.landed)
        return out


@dataclass(frozen=True, slots=True)
class NoPlay:
    """Adult variation: the player has no playable card and discards `discard`."""

    discard: str

    def to_json(self) -> dict[str, Any]:
        return {"type": "no_play", "discard": self.discard}


@dataclass(frozen=True, slots=True)
class Place:
    """A correction: the `color` pawn on `src` really stands on `dst`."""

    color: str
    src: str
    dst: str

    def to_json(self) -> dict[str, Any]:
        return {"type": "place", "color": self.color, "from": self.src, "to": self.dst}


BoardEvent = Draw | Move | NoPlay | Place
EVENT_TYPES = ("draw", "move", "no_play", "place")


def parse_setup(obj: dict[str, Any]) -> BoardSetup:
    """A validated board setup; BadSetup says in one sentence what is wrong."""
    names = player_names(obj.get("players"))
    folded = [n.casefold() for n in names]
    colors = obj.get("colors", list(COLORS[:len(names)]))
    if (not isinstance(colors, list) or len(colors) != len(names)
            or any(c not in COLORS for c in colors) or len(set(colors)) != len(colors)):
        raise BadSetup(f"colors must be {len(names)} different ones of red, blue, yellow, "
                       f"green, one per player, not {quote(colors, 60)}", code="bad_colors")
    first = obj.get("first", names[0])
    if not isinstance(first, str) or first.strip().casefold() not in folded:
        raise BadSetup(f"first names {quote(first, 40)}, who is not one of the players "
                       f"{list(names)}", code="first_unknown", first=str(first)[:40])
    edition = parse_edition(obj.get("edition", "classic"))
    settings = Settings.parse(obj.get("settings"), edition)
    draws = obj.get("draws", "table")
    if draws not in DRAWS:
        raise BadSetup(f'draws must be "table" (a real deck) or "companion" (the companion '
                       f"draws), not {quote(draws, 20)}", code="bad_draws")
    return BoardSetup(names, tuple(colors), names[folded.index(first.strip().casefold())],
                      edition, settings, draws)


def _square(obj: dict[str, Any], key: str) -> str:
    value = obj.get(key)
    if not isinstance(value, str) or value not in LOCATIONS:
        raise BadEvent(f"{obj.get('type')} needs {key!r} with a location (START, T0 to T59, "
                       f"S1 to S5 or HOME), not {str(value)[:20]!r}", code="bad_location",
                       location=str(value)[:20])
    return value


def _legs(value: object) -> tuple[tuple[str, str], ...]:
    if not isinstance(value, list) or len(value) > 2 or not all(
            isinstance(leg, list) and len(leg) == 2
            and all(isinstance(x, str) and x in LOCATIONS for x in leg) for leg in value):
        raise BadEvent('move needs "legs": a list of up to two [from, to] pairs of locations, '
                       'such as [["T20", "T28"]], or [] to decline an 11', code="bad_legs")
    return tuple((a, b) for a, b in value)


def parse_event(obj: dict[str, Any]) -> BoardEvent:
    """Any board event but setup, undo and redo, from its JSON object."""
    kind = obj.get("type") if isinstance(obj, dict) else None
    if kind == "draw":
        return Draw(parse_card(obj.get("card")))
    if kind == "move":
        move_kind = obj.get("kind")
        if move_kind is not None and move_kind not in KINDS:
            raise BadEvent(f"a move's kind is one of {', '.join(KINDS)}, not "
                           f"{str(move_kind)[:20]!r}", code="bad_kind")
        legs = _legs(obj.get("legs"))
        landed = obj.get("landed")
        if landed is not None and (not isinstance(landed, list) or len(landed) != len(legs)
                                   or any(x not in LOCATIONS for x in landed)):
            raise BadEvent("a move's landed lists the square each leg landed on, one per "
                           "leg", code="bad_landed")
        return Move(legs, move_kind, None if landed is None else tuple(landed))
    if kind == "no_play":
        return NoPlay(parse_card(obj.get("discard")))
    if kind == "place":
        color = obj.get("color")
        if color not in COLORS:
            raise BadEvent(f"place needs 'color': red, blue, yellow or green, not "
                           f"{str(color)[:20]!r}", code="bad_color", color=str(color)[:20])
        return Place(str(color), _square(obj, "from"), _square(obj, "to"))
    raise BadEvent(f"there is no board event {str(kind)[:30]!r}; the events are setup, draw, "
                   "move, no_play, place, undo and redo", code="unknown_event",
                   type=str(kind)[:30])
