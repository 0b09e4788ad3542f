"""The journal's per-event checksum chain (journal format 3).

Each event row's `chain` is the CRC32 of its JSON text continued from the chain of the
event before it in its game (the setup's continues from the game's number). So a row is
event `seq` of game `game_id` only when its chain follows from event seq-1's: a row whose
position or game a damaged file changed no longer fits anywhere but where it belongs, a
copy of a row is the same event (the same chain), and the rows of a damaged journal fall
into place one by one from each game's setup. What cannot be placed is counted exactly.
Cost: one CRC32 of the text per append, as for the row's own `crc`.
"""

from __future__ import annotations

import zlib

__all__ = ["link", "start"]


def start(game_id: int) -> int:
    """The value the chain of a game's setup continues from."""
    return game_id & 0xFFFFFFFF


def link(before: int, raw: bytes) -> int:
    """The chain of an event whose text is `raw`, after an event whose chain is `before`."""
    return zlib.crc32(raw, before & 0xFFFFFFFF)
