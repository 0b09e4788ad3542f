"""The wiring diagram and tables come from the pin plan, and the committed copies are what
the code draws today: a changed pin that nobody redrew fails here."""

from __future__ import annotations

import dataclasses
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from companion.config import GpioConfig
from hardware import wiring, wiring_diagram
from hardware.header import FIVE_VOLT, GROUND, PIN_COUNT, THREE_VOLT, bcm_of, header_pin, pin_name

ROOT = Path(__file__).resolve().parents[2]
REDRAW = "run .venv/bin/python -m hardware.wiring_diagram and commit what it writes"


def test_the_committed_diagram_is_the_one_the_pin_plan_draws():
    assert wiring_diagram.SVG_FILE.read_text(encoding="utf-8") == wiring_diagram.draw(), REDRAW


@pytest.mark.parametrize("path", wiring_diagram.TABLE_FILES,
                         ids=[p.name for p in wiring_diagram.TABLE_FILES])
def test_the_wiring_tables_in_the_guides_are_the_ones_the_pin_plan_gives(path: Path):
    document = path.read_text(encoding="utf-8")
    assert document.count("<!-- wiring:") >= 2, f"{path.name} has lost its wiring tables"
    assert wiring_diagram.with_tables(document) == document, REDRAW


def test_a_stale_table_is_seen_and_rewritten():
    stale = "intro\n<!-- wiring:buttons -->\n| old | table |\n<!-- /wiring -->\nend\n"
    fresh = wiring_diagram.with_tables(stale)
    assert "| old | table |" not in fresh
    assert wiring.button_table() in fresh and fresh.startswith("intro\n")
    assert fresh.endswith("\n<!-- /wiring -->\nend\n")


def test_the_header_map_has_every_pin_once():
    kinds = [pin_name(p) for p in range(1, PIN_COUNT + 1)]
    assert kinds.count("GND") == 8 and kinds.count("5V") == 2 and kinds.count("3V3") == 2
    gpio = [bcm_of(p) for p in range(1, PIN_COUNT + 1) if bcm_of(p) is not None]
    assert sorted(gpio) == list(range(28))  # BCM 0-27, each on one pin
    assert all(header_pin(bcm) == pin for pin in range(1, 41)
               if (bcm := bcm_of(pin)) is not None)
    assert not set(GROUND) & set(FIVE_VOLT) and not set(GROUND) & set(THREE_VOLT)
    # pinout.xyz's well-known corners: pin 11 is GPIO17, pin 40 GPIO21, pin 3 GPIO2
    assert (header_pin(17), header_pin(21), header_pin(2)) == (11, 40, 3)


def test_every_lead_has_a_pin_of_its_own_and_ends_at_the_right_kind_of_pin():
    leads = wiring.wires()
    pins = [w.pin for w in leads if w.part != "lamps"]
    assert len(pins) == len(set(pins)), "two leads on one header pin"
    for lead in leads:
        if lead.terminal == "COM" or "GND" in lead.terminal:
            assert lead.pin in GROUND, lead
        elif lead.terminal.startswith(("5 V", "+")):
            assert lead.pin in FIVE_VOLT, lead
        else:
            assert bcm_of(lead.pin) is not None, lead


def test_the_buttons_follow_the_apps_default_pins():
    default = GpioConfig()
    signals = [w.pin for w in wiring.wires() if w.terminal == "NO"][:len(default.pins)]
    assert signals == [header_pin(p) for p in default.pins]


def test_the_lamps_driver_pins_are_the_uln2803as():
    # input n on pin n, its output on pin 19 - n (ULN2803A datasheet, DIP-18)
    assert [(wiring.uln_input(s), wiring.uln_output(s)) for s in range(4)] == [
        (1, 18), (2, 17), (3, 16), (4, 15)]
    assert "| seat 4 lamp | GPIO19 | 35 | pin 4 | pin 15 |" in wiring.lamp_table()


def test_the_drawing_is_well_formed_and_labels_every_lead():
    svg = wiring_diagram.draw()
    root = ET.fromstring(svg)
    words = [t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}text")]
    for lead in wiring.wires():
        assert f"pin {lead.pin}" in words, lead
    assert {"COM", "NO", "NC", "ULN2803A"} <= set(words)


def test_moving_a_pin_in_the_plan_moves_it_in_the_drawing_and_the_table():
    moved = dataclasses.replace(wiring.GUIDE_GPIO, pins=(26, 27, 22, 23))
    svg = wiring_diagram.draw(moved)
    assert svg != wiring_diagram.SVG_FILE.read_text(encoding="utf-8")
    assert "pin 37" in svg and "pin 11" not in svg  # GPIO26 is header pin 37
    assert "| seat 1 button | GPIO26 | 37 |" in wiring.button_table(moved)
