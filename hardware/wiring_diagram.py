"""The wiring diagram, drawn as SVG from the wires the pin plan gives (hardware/wiring.py).

`python -m hardware.wiring_diagram` writes docs/wiring.svg and refreshes the wiring tables
in the guide and in hardware/README.md (between their `<!-- wiring:NAME -->` marks), so the
picture, the tables and the app's pins come from one place; a test runs the same code and
fails when a committed copy differs. Standard library only, no network.

The header is drawn as it lies on the board seen from above with the USB ports to the
right: pin 1 at the left, odd pins in the lower row. Each lead drops from its pin to a
track of its own, runs along it and drops to its part, and ends at a label with the pin's
number, so nothing rests on telling colours apart.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from xml.sax.saxutils import escape

from companion.config import GpioConfig
from hardware.header import FIVE_VOLT, GROUND, PIN_COUNT, THREE_VOLT, pin_name
from hardware.wiring import (
    BUTTON_COLOURS,
    GUIDE_GPIO,
    ULN_COM,
    ULN_GND,
    Wire,
    button_table,
    lamp_table,
    plan,
    power_table,
    uln_output,
    wires,
)

ROOT = Path(__file__).resolve().parent.parent
SVG_FILE = ROOT / "docs" / "wiring.svg"
TABLE_FILES = (ROOT / "docs" / "GUIDE.md", ROOT / "hardware" / "README.md")

WIDTH, HEIGHT = 1400, 800
PITCH = 40  # between header pins
HEADER_X = (WIDTH - 19 * PITCH) // 2  # pin 1's column
TOP_ROW, BOTTOM_ROW = 110, 150  # even pins, odd pins
FIRST_TRACK, TRACK_GAP = 235, 12
PARTS_Y = 500  # the tabs of the parts
PART_GAP, TAB_GAP = 150, 46  # between two buttons, between a switch's tabs
CHIP_PITCH, CHIP_HEIGHT = 22, 64  # the ULN2803A's drawing
INK, GND_INK, FIVE_V_INK = "#222222", "#111111", "#d40000"
SEAT_INK = {"red": "#d40000", "blue": "#1f5fd6", "yellow": "#c79a00", "green": "#138a36"}
EXTRA_INK = {"undo button": "#7b3fa0", "close button": "#d9730d"}
FONT = "DejaVu Sans, Arial, Helvetica, sans-serif"


def pin_xy(pin: int) -> tuple[int, int]:
    """Where header pin `pin` is drawn."""
    return HEADER_X + (pin - 1) // 2 * PITCH, TOP_ROW if pin % 2 == 0 else BOTTOM_ROW


def drop_x(pin: int) -> int:
    """Where a lead leaves the header going down: under its pin for the lower row, between
    two lower pins for the upper row (so it passes no other pin)."""
    x, _ = pin_xy(pin)
    return x + PITCH // 2 if pin % 2 == 0 else x


def _text(x: float, y: float, words: str, *, size: int = 12, anchor: str = "middle",
          weight: str = "normal", fill: str = INK, rotate: int = 0) -> str:
    turn = f' transform="rotate({rotate} {x:g} {y:g})"' if rotate else ""
    return (f'<text x="{x:g}" y="{y:g}" font-size="{size}" text-anchor="{anchor}" '
            f'font-weight="{weight}" fill="{fill}"{turn}>{escape(words)}</text>')


def _line(points: Iterable[tuple[float, float]], ink: str, *, width: float = 2.5,
          dash: str = "") -> str:
    path = " ".join(f"{x:g},{y:g}" for x, y in points)
    dashed = f' stroke-dasharray="{dash}"' if dash else ""
    return (f'<polyline points="{path}" fill="none" stroke="{ink}" stroke-width="{width:g}" '
            f'stroke-linejoin="round"{dashed}/>')


def _ink(wire: Wire) -> tuple[str, str]:
    """A lead's colour and dash: ground black, 5 V red, a seat's signal its colour (a lamp's
    dashed), the extra buttons their own."""
    if wire.pin in GROUND:
        return GND_INK, ""
    if wire.pin in FIVE_VOLT:
        return FIVE_V_INK, ""
    seat = (wire.note or wire.part).split(" ")
    if seat[0] == "seat":
        return SEAT_INK[BUTTON_COLOURS[int(seat[1]) - 1]], "7 4" if wire.note else ""
    return EXTRA_INK.get(wire.part, INK), ""


def header(leads: Sequence[Wire]) -> list[str]:
    """The 40-pin header: every pin with its number and what it carries, in bold when used."""
    used = {w.pin for w in leads}
    left, right = HEADER_X - 24, HEADER_X + 19 * PITCH + 24
    out = [f'<rect x="{left}" y="{TOP_ROW - 22}" width="{right - left}" height="84" rx="6" '
           'fill="#f4f4f4" stroke="#888888"/>',
           _text(left - 8, BOTTOM_ROW + 4, "pin 1", anchor="end", weight="bold")]
    for pin in range(1, PIN_COUNT + 1):
        x, y = pin_xy(pin)
        fill = (GND_INK if pin in GROUND else FIVE_V_INK if pin in FIVE_VOLT
                else "#e08a00" if pin in THREE_VOLT else "#ffffff")
        shape = (f'<rect x="{x - 10}" y="{y - 10}" width="20" height="20" fill="{fill}" '
                 f'stroke="{INK}" stroke-width="{2 if pin in used else 1}"/>' if pin == 1 else
                 f'<circle cx="{x}" cy="{y}" r="10" fill="{fill}" stroke="{INK}" '
                 f'stroke-width="{2 if pin in used else 1}"/>')
        number_ink = "#ffffff" if pin in GROUND or pin in FIVE_VOLT else INK
        out += [shape, _text(x, y + 4, str(pin), size=10, fill=number_ink, weight="bold")]
        name, weight = pin_name(pin), "bold" if pin in used else "normal"
        if pin % 2 == 0:
            out.append(_text(x + 3, y - 16, name, size=10, anchor="start", weight=weight,
                             rotate=-50))
        else:
            out.append(_text(x - 14, y + 16, name, size=10, anchor="start", weight=weight,
                             rotate=90))
    return out


def _tab(x: float, y: float, label: str, pin: int | None) -> list[str]:
    """A part's terminal: a tab to solder or crimp on, its name, the header pin it takes."""
    out = [f'<rect x="{x - 7:g}" y="{y:g}" width="14" height="10" fill="#c0c0c0" '
           f'stroke="{INK}"/>', _text(x, y + 24, label, size=11, weight="bold")]
    if pin is not None:
        out.append(_text(x, y - 6, f"pin {pin}", size=11, weight="bold"))
    return out


def _button(x: float, role: str, leads: dict[str, int], lamp_out: int | None) -> list[str]:
    """An arcade button from below: its microswitch (COM, NO, NC), its cap, its lamp's tabs."""
    seat = role.split(" ")
    ink = (SEAT_INK[BUTTON_COLOURS[int(seat[1]) - 1]] if seat[0] == "seat"
           else EXTRA_INK.get(role, INK))
    y = PARTS_Y
    out = [f'<rect x="{x - 70:g}" y="{y + 10}" width="140" height="34" rx="3" fill="#ffffff" '
           f'stroke="{INK}"/>', _text(x, y + 58, "microswitch", size=10)]
    for dx, name in ((-TAB_GAP, "COM"), (0, "NO"), (TAB_GAP, "NC")):
        out += _tab(x + dx, y, name, leads.get(name))
    out += [f'<circle cx="{x:g}" cy="{y + 100}" r="30" fill="{ink}" stroke="{INK}" '
            'stroke-width="2"/>',
            _text(x, y + 150, role, size=13, weight="bold")]
    if seat[0] == "seat":
        out.append(_text(x, y + 166, f"({BUTTON_COLOURS[int(seat[1]) - 1]})", size=12))
    if lamp_out is not None:
        out += [_text(x, y + 186, "lamp +: 5 V", size=11),
                _text(x, y + 201, f"lamp −: ULN2803A {lamp_out}", size=11)]
    return out


def _chip(x: float, leads: dict[int, int], lamps: list[str]) -> list[str]:
    """The ULN2803A from above, notch to the right: pins 9 … 1 along the top, 10 … 18 along
    the bottom, each lamp under its output and its + on the 5 V rail."""
    y = PARTS_Y + 40
    step = CHIP_PITCH
    left = x - 4 * step - 18
    out = [f'<rect x="{left:g}" y="{y:g}" width="{8 * step + 36}" height="{CHIP_HEIGHT}" rx="4" '
           'fill="#333333"/>',
           f'<path d="M {left + 8 * step + 36:g} {y + 22:g} a 10 10 0 0 0 0 20" fill="#ffffff"/>',
           _text(x, y + 37, "ULN2803A", size=13, weight="bold", fill="#ffffff")]
    for i in range(9):
        px = x - 4 * step + i * step
        for tab_y, number_y, number in ((y - 12, y + 14, 9 - i),
                                        (y + CHIP_HEIGHT, y + CHIP_HEIGHT - 6, 10 + i)):
            out += [f'<rect x="{px - 4:g}" y="{tab_y:g}" width="8" height="12" '
                    f'fill="#c0c0c0" stroke="{INK}"/>',
                    _text(px, number_y, str(number), size=10, weight="bold", fill="#ffffff")]
    rail = y + 160
    for seat, name in enumerate(lamps):
        px = x - 4 * step + (uln_output(seat) - 10) * step
        out += [_line([(px, y + CHIP_HEIGHT + 12), (px, y + 110)], INK, width=1.5),
                f'<circle cx="{px:g}" cy="{y + 122:g}" r="11" fill="#fff6b0" stroke="{INK}"/>',
                _line([(px - 7, y + 115), (px + 7, y + 129)], INK, width=1.2),
                _line([(px + 7, y + 115), (px - 7, y + 129)], INK, width=1.2),
                _line([(px, y + 133), (px, rail)], FIVE_V_INK, width=1.5),
                _text(px + 13, y + 104, "−", size=12, anchor="start", weight="bold"),
                _text(px + 13, y + 148, "+", size=12, anchor="start", weight="bold"),
                _text(px, rail + 16, name.split(" ")[1], size=11, weight="bold")]
    com_x = x - 4 * step
    out += [_line([(left - 40, rail), (x + 4 * step, rail)], FIVE_V_INK),
            _line([(com_x, y + CHIP_HEIGHT + 12), (com_x, y + 100), (left - 40, y + 100),
                   (left - 40, rail)], FIVE_V_INK, width=1.5),
            _text(x + 2 * step, rail + 34, "the lamps of seats 4, 3, 2, 1", size=11),
            _text(x + 2 * step, rail + 48, "(each inside its button)", size=11),
            _text(left - 40, rail + 18, "5 V", size=11, weight="bold", fill=FIVE_V_INK)]
    if leads.get(ULN_COM) is None:
        out.append(_text(com_x, y + 94, "COM", size=9, anchor="start"))
    return out


def _screen(x: float, leads: dict[str, int]) -> list[str]:
    y = PARTS_Y
    out = [f'<rect x="{x - 60:g}" y="{y + 10}" width="120" height="70" rx="4" fill="#e8eef8" '
           f'stroke="{INK}"/>',
           _text(x, y + 100, "the screen's power lead", size=12, weight="bold"),
           _text(x, y + 116, "(none for an HDMI screen)", size=10)]
    for dx, (terminal, name) in zip((-25, 25), (("5 V (red)", "5 V"), ("GND (black)", "GND")),
                                    strict=True):
        out += _tab(x + dx, y, name, leads.get(terminal))
    return out


def terminal_x(positions: dict[str, float]) -> dict[tuple[str, str], float]:
    """Where each lead ends, by (part, terminal): the tab it is crimped or soldered to."""
    ends: dict[tuple[str, str], float] = {}
    step = CHIP_PITCH
    for part, x in positions.items():
        if part == "ULN2803A":
            for pin in range(1, 10):
                ends[part, f"pin {pin}"] = x - 4 * step + (9 - pin) * step
            ends[part, f"pin {ULN_GND} (GND)"] = x - 4 * step
        elif part == "screen":
            ends[part, "5 V (red)"], ends[part, "GND (black)"] = x - 25, x + 25
        elif part == "lamps":
            ends[part, "+ (and ULN2803A pin 10, COM)"] = x
        else:
            ends[part, "COM"], ends[part, "NO"] = x - TAB_GAP, x
    return ends


def draw(gpio: GpioConfig = GUIDE_GPIO) -> str:
    """The whole diagram as one SVG document (the same bytes for the same pin plan)."""
    uses = plan(gpio)
    buttons = [u.role for u in uses if u.kind == "button"]
    lamps = [u.role for u in uses if u.kind == "lamp"]
    positions: dict[str, float] = {role: 80 + i * PART_GAP for i, role in enumerate(buttons)}
    chip_x = 80 + len(buttons) * PART_GAP + 80
    positions["ULN2803A"] = chip_x
    positions["lamps"] = chip_x - 4 * CHIP_PITCH - 18 - 40
    positions["screen"] = WIDTH - 110
    ends = terminal_x(positions)
    leads = wires(gpio)
    by_part: dict[str, dict[str, int]] = {}
    for wire in leads:
        by_part.setdefault(wire.part, {})[wire.terminal] = wire.pin
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
           f'viewBox="0 0 {WIDTH} {HEIGHT}" font-family="{FONT}">',
           f'<rect width="{WIDTH}" height="{HEIGHT}" fill="#ffffff"/>',
           _text(WIDTH / 2, 28, "Sorry! Table Companion: wiring the Raspberry Pi's header",
                 size=20, weight="bold"),
           _text(WIDTH / 2, 48, "the header seen from above, USB ports to the right; "
                 "black: GND, red: 5 V; drawn from hardware/pinplan.py", size=12)]
    out += header(leads)
    order = sorted(leads, key=lambda w: ends[w.part, w.terminal])
    for track, wire in enumerate(order):
        ink, dash = _ink(wire)
        x0, y0 = drop_x(wire.pin), pin_xy(wire.pin)[1]
        x1, y1 = ends[wire.part, wire.terminal], FIRST_TRACK + track * TRACK_GAP
        end_y = {"lamps": PARTS_Y + 200, "ULN2803A": PARTS_Y + 28}.get(wire.part, PARTS_Y)
        x, edge = pin_xy(wire.pin)[0], 7 if wire.pin % 2 == 0 else 10  # from the pin's rim
        start = [(x + 7, y0 + edge), (x0, y0 + 14)] if wire.pin % 2 == 0 else [(x0, y0 + edge)]
        points = [*start, (x0, y1), (x1, y1), (x1, end_y)]
        out.append(_line(points, ink, dash=dash))
    for role in buttons:
        seat = next(u.seat for u in uses if u.role == role)
        lamp_out = uln_output(seat) if seat is not None and seat < len(lamps) else None
        out += _button(positions[role], role, by_part[role], lamp_out)
    if lamps:
        chip_leads = {int(t.split()[1]): p for t, p in by_part["ULN2803A"].items()}
        out += _chip(chip_x, chip_leads, lamps)
        out += [_text(ends[part, terminal] - 4, PARTS_Y + 8, f"pin {pin}", size=11,
                      weight="bold", anchor="start", rotate=-90)
                for part, terminal_pins in by_part.items() if part in ("ULN2803A", "lamps")
                for terminal, pin in terminal_pins.items()]
    out += _screen(positions["screen"], by_part["screen"])
    out.append(_text(WIDTH / 2, HEIGHT - 16, "A button: its switch's NO to the GPIO pin, COM "
                     "to the GND pin beside it; NC stays free. Every GND pin is the same "
                     "ground.", size=12))
    out.append("</svg>")
    return "\n".join(out) + "\n"


TABLES = {"buttons": button_table, "lamps": lamp_table, "power": power_table}
_MARKED = re.compile(r"(<!-- wiring:(\w+) -->\n)(?:(?!<!--).*\n)*?(<!-- /wiring -->)")


def with_tables(document: str) -> str:
    """`document` with each marked wiring table made afresh from the pin plan."""
    return _MARKED.sub(lambda m: f"{m.group(1)}{TABLES[m.group(2)](GUIDE_GPIO)}\n{m.group(3)}",
                       document)


def main() -> int:
    SVG_FILE.write_text(draw(), encoding="utf-8")
    written = [SVG_FILE]
    for path in TABLE_FILES:
        if path.exists():
            path.write_text(with_tables(path.read_text(encoding="utf-8")), encoding="utf-8")
            written.append(path)
    print("wrote " + ", ".join(str(p.relative_to(ROOT)) for p in written))
    return 0


if __name__ == "__main__":
    sys.exit(main())
