"""Helpers for the SORRY! window and touch guard tests: a three-player game started by
touch, and the game's events as the real journal file holds them."""

from __future__ import annotations

from typing import Any

from ui_helpers import setup_by_touch

from companion.journal import Journal

NAMES = ["Ana", "Ben", "Cy"]


def journal_events(d: Any) -> list[str]:
    """The game's events as the journal file holds them (read by a fresh connection once
    the writer caught up), in short: "10", "slide:21", "press Ana", "close", "undo"."""
    assert d.app.session.writer.flush(10)
    journal = Journal.open(d.app.data_dir)
    try:
        stored = journal.load(d.app.session.game_id)
    finally:
        journal.close()
    short = []
    for event in stored.events[1:]:  # the first is the setup
        kind = event["type"]
        if kind == "play":
            short.append(event["card"] + (f" on {event['target']}" if "target" in event else ""))
        elif kind == "press":
            short.append(f"press {event['player']}")
        else:
            short.append(kind)
    return short


def table(d: Any) -> Any:
    return d.app.screen("table")


def start(driver: Any, **kwargs: Any) -> Any:
    d = driver(**kwargs)
    setup_by_touch(d, NAMES, pawns=4, variant="standard")
    return d
