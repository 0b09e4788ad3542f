"""Colour-blind players (issue 20): every pair of seat colours, as the screens draw them
(ui/theme.py; the board's pictures are checked to hold them, tests/ui/test_ui_board_layouts.py),
and each seat colour against the board's highlights, seen with normal vision and through
a simulated protanopia, deuteranopia and tritanopia, differ by at least MIN_DELTA_E.

The simulation is Machado, Oliveira and Fernandes (2009) at severity 1 (a missing cone
type, the worst case), applied to linear RGB, from colour-science; the difference is
CIEDE2000 (ΔE00) in CIELAB under D65. Least differences of the palette (severity 1):

    seat colours (pawns, tiles, buttons, chart lines): normal 42.2, protan 12.7,
      deutan 19.6, tritan 19.1
    names on the dark table (lighter shades): normal 38.0, protan 11.8, deutan 16.1,
      tritan 13.4
    a seat colour against a highlight's white or black: normal 30.2, protan 27.9,
      deutan 23.9, tritan 23.6; against the cyan of the move under the finger: normal
      30.5, protan 21.9, deutan 20.5, tritan 20.3 (all with the blue)

Machado's tritan matrices are an approximation (the paper's own caveat, which
colour-science repeats as a warning, silenced here); protan and deutan are its core.

ΔE00 of 10 or more reads as clearly different colours; the old palette's red and green
were 6.0 apart for a deuteranope (and a red pawn's highlight was a green ring). Colour
is never the only cue anyway: the shapes of ui/theme.SEAT_MARK go with every colour.
"""

from __future__ import annotations

import itertools
import warnings

import pytest

with warnings.catch_warnings():  # colour-science warns that matplotlib (its plots) is absent
    warnings.simplefilter("ignore")
    import colour
    import numpy as np
    from colour.blindness import matrix_cvd_Machado2009

from ui import theme

MIN_DELTA_E = 11.0  # the least ΔE00 every pair keeps, under every simulated deficiency
MIN_AGAINST_HIGHLIGHT = 20.0  # a seat colour against a highlight (white, black, cyan)
DEFICIENCIES = {"protan": "Protanomaly", "deutan": "Deuteranomaly", "tritan": "Tritanomaly"}
VISIONS = ["normal", *DEFICIENCIES]


def seen(rgba: tuple[float, ...], vision: str) -> np.ndarray:
    """The CIELAB colour of an sRGB colour as `vision` sees it."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        linear = colour.models.eotf_sRGB(np.array(rgba[:3], dtype=float))
        if vision != "normal":
            matrix = matrix_cvd_Machado2009(DEFICIENCIES[vision], 1)
            linear = np.clip(matrix @ linear, 0, 1)
        srgb = colour.models.eotf_inverse_sRGB(linear)
        return colour.XYZ_to_Lab(colour.sRGB_to_XYZ(srgb))


def delta_e(a: tuple[float, ...], b: tuple[float, ...], vision: str) -> float:
    return float(colour.delta_E(seen(a, vision), seen(b, vision), method="CIE 2000"))


def least_pair(palette: dict[str, tuple[float, ...]], vision: str) -> tuple[float, str]:
    return min((delta_e(palette[a], palette[b], vision), f"{a}/{b}")
               for a, b in itertools.combinations(palette, 2))


@pytest.mark.parametrize("vision", VISIONS)
@pytest.mark.parametrize("palette", ["PLAYER_RGBA", "NAME_RGBA"])
def test_every_pair_of_seat_colours_differs_in_every_vision(palette, vision):
    least, pair = least_pair(getattr(theme, palette), vision)
    print(f"{palette} {vision}: least ΔE00 {least:.1f} ({pair})")
    assert least >= MIN_DELTA_E, (
        f"{pair} of {palette} are only {least:.1f} apart (ΔE00) for {vision} vision")


@pytest.mark.parametrize("vision", VISIONS)
def test_highlights_stand_out_on_every_seat_colour(vision):
    for color, rgba in theme.PLAYER_RGBA.items():
        for highlight in (theme.HIGHLIGHT_LIGHT, theme.HIGHLIGHT_DARK, theme.PREVIEW_RGBA):
            diff = delta_e(rgba, highlight, vision)
            assert diff >= MIN_AGAINST_HIGHLIGHT, (color, highlight, vision, diff)


def test_highlights_are_neither_red_nor_green():
    for highlight in (theme.HIGHLIGHT_LIGHT, theme.HIGHLIGHT_DARK, theme.TARGET_FILL):
        _l, a, b = seen(highlight, "normal")
        assert (a * a + b * b) ** 0.5 < 2, f"{highlight} has a hue (CIELAB a={a:.1f})"


def test_every_seat_has_its_own_shape():
    assert set(theme.SEAT_MARK) == set(theme.PLAYER_RGBA) == set(theme.NAME_RGBA)
    assert len(set(theme.SEAT_MARK.values())) == len(theme.SEAT_MARK)
    assert theme.marked("red", "Ana") == "▲ Ana" and theme.marked("", "Ana") == "Ana"
