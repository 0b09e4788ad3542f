"""Issue 13: names up to 16 letters on the on-screen keyboard, with shift, caps lock and
every accented letter French names need; the limit is shown ("7/16"); nothing is lowered
behind the scorekeeper's back ("JB" stays "JB"). By touch on the real app."""

from __future__ import annotations

import pytest
from ui_helpers import setup_by_touch, type_exact, type_name

from companion.games import MAX_NAME
from ui.widgets import TapButton

ACCENTED = "éèêëàâçîïôûùüœæñ"
MIN_TARGET_PX = 48


def open_name(d, slot: str = "slot0"):
    d.tap(d.app.screen("start").ids[slot].ids.name_button)
    assert d.screen == "name"
    return d.app.screen("name")


def keys(d) -> list[TapButton]:
    return [b for b in d.app.screen("name").ids.keyboard.walk() if isinstance(b, TapButton)]


def test_shift_and_caps_give_capitals_that_stay(driver):
    d = driver()
    name = open_name(d)
    for code in ("J", "SHIFT", "B"):  # a capital by itself first, then shift for the second
        d.tap_code(code)
    assert name.text == "JB"
    assert d.label("name", "name_count") == "2/16"
    d.tap_id("name", "name_ok")
    assert d.app.screen("start").names[0] == "JB"

    open_name(d, "slot1")
    d.tap_id("name", "clear_button")
    for code in ("CAPS", "A", "N", "A", "SPACE", "L"):  # caps lock: every letter
        d.tap_code(code)
    assert name.text == "ANA L"
    d.tap_code("CAPS")
    d.tap_code("U")
    assert name.text == "ANA Lu"  # caps off: small letters again
    d.tap_code("BACK")
    d.tap_code("BACK")
    d.tap_code("E")  # after a space the capital comes back by itself
    assert name.text == "ANA E"


def test_the_limit_is_sixteen_letters_and_is_shown(driver):
    d = driver()
    name = open_name(d)
    type_exact(d, "Marie-Éléonore B")  # 16 letters
    assert name.text == "Marie-Éléonore B" and len(name.text) == MAX_NAME == 16
    assert d.label("name", "name_count") == "16/16"
    letters = [b for b in keys(d) if len(b.code) == 1]
    assert letters and all(b.dim for b in letters)  # shown as full
    d.tap_code("X")
    assert name.text == "Marie-Éléonore B"  # no 17th letter
    d.tap_id("name", "name_ok")
    d.tap(d.app.screen("start").ids.slot1.ids.name_button)
    type_exact(d, "Ben")
    d.tap_id("name", "name_ok")
    d.tap_id("start", "start_button")
    assert d.screen == "table"
    assert d.app.session.state.setup.players == ("Marie-Éléonore B", "Ben")


def test_every_accented_letter_french_names_need(driver):
    d = driver(language="fr")
    name = open_name(d)
    rows = [[b.code for b in reversed(row.children)]
            for row in reversed(name.ids.keyboard.children)]
    assert "".join(rows[0]) == "AZERTYUIOP"  # AZERTY in French
    type_exact(d, ACCENTED)
    assert name.text == ACCENTED
    d.tap_id("name", "clear_button")
    type_exact(d, ACCENTED.upper())
    assert name.text == ACCENTED.upper()
    d.tap_id("name", "clear_button")
    type_exact(d, "Œdipe Ñuño Zoë")
    assert name.text == "Œdipe Ñuño Zoë"
    assert not name.ids.keyboard.accents  # back to the letters after an accented letter


@pytest.mark.parametrize("language", ["en", "fr"])
def test_every_key_is_at_least_48_px_with_known_names_shown(driver, language):
    d = driver(language=language)
    setup_by_touch(d, ["Ana", "Ben", "Cy"], pawns=4, variant="standard")
    d.app.new_game_form()
    d.frames(2)
    open_name(d)
    assert d.app.screen("name").known  # earlier names take room above the keyboard
    for accents in (False, True):
        d.app.screen("name").ids.keyboard.accents = accents
        d.frames(2)
        small = [(b.code, tuple(b.size)) for b in keys(d)
                 if b.width < MIN_TARGET_PX or b.height < MIN_TARGET_PX]
        assert small == []


def test_type_name_still_types_capitalised_names(driver):
    d = driver()
    type_name(d, "slot0", "Zoé")
    type_name(d, "slot1", "Ben")
    assert d.app.screen("start").names[:2] == ["Zoé", "Ben"]


def test_every_key_is_at_least_48_px_on_a_portrait_480x800_screen(driver):
    from kivy.core.window import Window

    d = driver(language="fr")
    size = tuple(Window.size)
    try:
        Window.size = (480, 800)
        d.wait_for(lambda: tuple(Window.size) == (480, 800), "the portrait window")
        name = open_name(d)
        for accents in (False, True):
            name.ids.keyboard.accents = accents
            d.frames(3)
            # the rows too wide for 48 px keys across 480 px are split in two
            assert name.ids.keyboard.units <= 10
            assert len(name.ids.keyboard.children) > 4 or accents
            small = [(b.code, tuple(b.size)) for b in keys(d)
                     if b.width < MIN_TARGET_PX or b.height < MIN_TARGET_PX]
            assert small == []
        name.ids.keyboard.accents = False
        d.frames(2)
        type_exact(d, "Zoé")
        assert name.text == "Zoé"
    finally:
        Window.size = size
        d.wait_for(lambda: tuple(Window.size) == size, "the window back to its size")


def test_a_fast_second_tap_on_the_accents_key_types_nothing(driver):
    """The accents' page replaces the letters under the finger: a tap 0.15 s later, on
    the key now there, is what the touch guard swallows (ui.touchguard)."""
    d = driver()
    name = open_name(d)
    accents = d.button(code="ACCENTS")
    d.tap(accents)
    assert name.ids.keyboard.accents
    d.tap(d.button(code="É"), after=0.15)  # the finger was already on its way
    assert name.text == ""
    d.tap(d.button(code="É"))  # at a human pace it types
    assert name.text == "É" and not name.ids.keyboard.accents
