"""Transcripts (TRANSCRIPT.md): JSON Lines in, a game out; events out, JSON Lines back.

Replay stops at the first line that breaks the rules or the format and says which line
and why; everything before it is kept (the `Game` it returns holds that state). The
setup's `"game"` picks the rules (default the card game).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, TextIO

from companion import games
from companion.errors import CompanionError, TranscriptError
from companion.game import Game, SomeGame, read_event, read_setup
from companion.safe_text import json_text


@dataclass
class Replay:
    """The game as far as it went, and the error that stopped it (None: all applied)."""

    game: SomeGame | None
    error: TranscriptError | None
    events: int  # events applied (including ignored presses), setup included


def replay_lines(lines: Iterable[str | bytes]) -> Replay:
    """Apply a transcript line by line; blank lines are skipped (1-based line numbers).

    Lines may be bytes straight from a file: one that is not UTF-8 is that line's error,
    after every line before it has been applied.
    """
    game: SomeGame | None = None
    applied = 0
    number = 0
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            obj = _parse_line(line)
            if game is None:
                game = Game(_first(number, obj))
            else:
                game.push(read_event(game.rules, obj))
        except TranscriptError as exc:
            return Replay(game, exc, applied)
        except CompanionError as exc:
            return Replay(game, TranscriptError(number, str(exc)), applied)
        applied += 1
    if game is None:
        return Replay(None, TranscriptError(max(number, 1), "the transcript has no setup"), 0)
    return Replay(game, None, applied)


def _first(number: int, obj: Any) -> Any:
    """The setup; any other first line is read (its own faults first), then refused."""
    if isinstance(obj, dict) and obj.get("type") != "setup":
        read_event(games.get(), obj)
        raise TranscriptError(number, "the first event must be a setup")
    return read_setup(obj)


def _parse_line(line: str | bytes) -> Any:
    if isinstance(line, bytes):
        try:
            line = line.decode("utf-8")
        except UnicodeDecodeError:
            raise CompanionError("not UTF-8 text; a transcript is UTF-8 JSON Lines") from None
    try:
        return json.loads(line)
    except json.JSONDecodeError as exc:
        raise CompanionError(f"not valid JSON ({exc.msg} at column {exc.colno})") from None
    except ValueError as exc:  # e.g. an integer longer than Python converts
        raise CompanionError(f"not a usable JSON line ({exc})") from None
    except RecursionError:
        raise CompanionError("not a usable JSON line (nested too deeply)") from None


def write_transcript(out: TextIO, events: Iterable[Any]) -> int:
    """Write events (typed, or the JSON objects the journal stores) as JSON Lines."""
    count = 0
    for event in events:
        obj = event if isinstance(event, dict) else event.to_json()
        out.write(json_text(obj, separators=(",", ":")) + "\n")
        count += 1
    return count
