"""What every game's `simulate` command shares (companion.commands.simulate): the one
sentence for a bad argument, whole numbers checked, the --out folder, a transcript
written. Each game's own options and tally are in its folder (its manifest's
`simulate`), so the shared command names no game."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any, Protocol

from companion.safe_text import quote
from companion.transcript import write_transcript

__all__ = ["Refused", "Simulation", "out_folder", "whole", "write_game"]


class Refused(Exception):
    """A bad argument; the message is the one sentence to print."""


class Simulation(Protocol):
    """A game's part of `simulate` (its folder's `simulate` module's SIMULATION)."""

    # the dests of this game's own options: another game's `simulate` refuses them
    options: tuple[str, ...]

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        """Add this game's own options (default None: a value given is this game's)."""
        ...

    def run(self, args: argparse.Namespace) -> int:
        """Play the games asked for; the exit status. A bad argument is a Refused."""
        ...


def whole(name: str, text: str, low: int, high: int | None = None) -> int:
    """The option --`name` as a whole number from `low` (to `high`), or one sentence."""
    try:
        value = int(text)
    except ValueError:
        value = None
    if value is None or value < low or (high is not None and value > high):
        allowed = f"from {low} to {high}" if high is not None else f"{low} or more"
        raise Refused(f"--{name} must be a whole number {allowed}, not {quote(text)}")
    return value


def out_folder(out: str | None) -> Path | None:
    """The --out folder, made if missing; one that cannot be made is refused."""
    if out is None:
        return None
    try:
        Path(out).mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise Refused(f"cannot write into {quote(out)} ({exc.strerror or exc})") from exc
    return Path(out)


def write_game(out: Path, index: int, events: list[Any]) -> None:
    """Game `index`'s transcript, as DIR/game-0001.jsonl, for `replay`."""
    with open(out / f"game-{index:04d}.jsonl", "w", encoding="utf-8") as f:
        write_transcript(f, events)
