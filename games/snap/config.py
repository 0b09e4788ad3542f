"""Snap's own table in the configuration file, [snap] (companion.config.Section):

    [snap]
    target = 10   # the cards a player must win to win the game, 2 to 48
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.config import Section, whole
from games.snap.rules import TARGET, TARGETS


@dataclass(frozen=True, slots=True)
class SnapConfig:
    target: int = TARGET


SECTION = Section(SnapConfig, {"target": whole(*TARGETS, " of cards")})


def snap_config(config: object) -> SnapConfig:
    """The [snap] table of a companion.config.Config (its defaults for anything else)."""
    section = getattr(config, "section", None)
    found = section("snap") if callable(section) else None
    return found if isinstance(found, SnapConfig) else SnapConfig()
