"""Draw the HOME LED board in a terminal: ANSI colours, one row per seat."""

from __future__ import annotations

from collections.abc import Sequence

from hardware.firmware import pawnled
from hardware.firmware.ledboard import TURN_LED0

RGB = tuple[int, int, int]
LIT, UNLIT = "\u25cf", "\u25cb"  # ● ○
RESET = "\x1b[0m"


def over(previous: str) -> str:
    """The escape codes that put the cursor back over `previous` and clear it."""
    lines = previous.count("\n") + 1
    return f"\x1b[{lines}F\x1b[J"


def visible(rgb: RGB) -> RGB:
    """A dim LED colour raised to full brightness: the hue is what a terminal can show."""
    peak = max(rgb)
    return rgb if peak == 0 else (rgb[0] * 255 // peak, rgb[1] * 255 // peak, rgb[2] * 255 // peak)


def led(rgb: RGB, *, color: bool) -> str:
    if not color:
        return LIT if any(rgb) else UNLIT
    if not any(rgb):
        return f"\x1b[38;5;240m{UNLIT}{RESET}"
    r, g, b = visible(rgb)
    return f"\x1b[38;2;{r};{g};{b}m{LIT}{RESET}"


def draw(pixels: Sequence[RGB], state: pawnled.LedBoardState | None, *, waiting: bool,
         color: bool = True) -> str:
    """The board as text: a header, then per seat its 4 pawn LEDs and its turn LED."""
    if state is None:
        head = "waiting for the table: no =STATE yet"
    elif waiting:
        head = "waiting for the table: no valid =STATE for 6 s"
    else:
        head = f"seq {state.seq}  players {state.players}  alert {state.alert}  bri {state.bri}"
    rows = [head]
    for seat in range(pawnled.SEATS):
        pawns = " ".join(led(pixels[seat * pawnled.PAWNS + p], color=color)
                         for p in range(pawnled.PAWNS))
        code = state.colors[seat] if state and seat < state.players else "-"
        rows.append(f"  seat {seat + 1} ({code})  HOME {pawns}   turn "
                    f"{led(pixels[TURN_LED0 + seat], color=color)}")
    return "\n".join(rows)
