"""What a family must read on the card table is never cut with "…" (issue 35.3 and 35.4),
by touch on the real app where it was found:

- French, large text, 800x480, three players: every pawn card read "DÉP…" and the names
  "Marie-C…", "Jean-…", so who has pawns HOME could not be read;
- 480x800 (and 720x1280), French, large text: the status line was cut to "Boutons :
  aucun, …" (a table with no GPIO buttons and the LED board not plugged in).

Now a row whose name and cards cannot sit side by side puts the name over the cards, the
turn bar gives the next name the room it needs, and in portrait the status line has a
row of its own; at every display, in normal and large text.
"""

from __future__ import annotations

import pytest
from kivy.core.window import Window
from layout_helpers import SIZES, picture, problems, resize, set_text_size, shot_path, size_id
from ui_helpers import setup_by_touch

from companion.config import Config, LedBoardConfig

NAMES = ["Marie-Claire", "Jean-Baptiste", "Zoé"]
TOUCH_ONLY = "Boutons : aucun, tactile seulement  ·  Panneau LED : introuvable"


@pytest.fixture
def window_back():
    yield
    Window.size = (800, 480)


def cut(d) -> list[str]:
    """The names, pawn cards, turn bar and status line cut with "…", allowed or not."""
    ids = d.app.screen("table").ids
    labels = [ids.turn_label, ids.next_label, ids.status_label, ids.status_row]
    for row in ids.players_grid.children:
        labels += [row.ids.name_label, row.ids.hand_label, *row.ids.pawns.children]
    return [f"{label.text!r} in {[round(v) for v in label.size]}"
            for label in labels if d.visible(label) and label.clipped]


def test_names_pawn_cards_and_the_status_line_are_whole_in_french_large_text(
    driver, window_back
):
    d = driver(language="fr", config=Config(ledboard=LedBoardConfig(enabled=True)),
               start_hardware=True)  # no GPIO here: touch only, and no LED board
    d.wait_for(lambda: d.app.status == TOUCH_ONLY, f"{TOUCH_ONLY!r}, not {d.app.status!r}")
    setup_by_touch(d, NAMES, pawns=4, variant="standard")
    for card in ("10", "5"):
        d.tap_code(card)
    set_text_size(d, "large")
    found = []
    for text_size in ("large", "normal"):
        set_text_size(d, text_size)
        for size in SIZES:
            resize(d, size)
            found += [f"{size_id(size)} {text_size}: {c}" for c in cut(d)]
            found += [f"{size_id(size)} {text_size}: {p}" for p in problems(d)]
            if text_size == "large" and size in ((800, 480), (480, 800), (720, 1280)):
                picture(d, shot_path(size, "table-3-players", "fr", "large"), settled=True)
    assert not found, "\n".join(found)
    cards = [c.text for row in d.app.screen("table").ids.players_grid.children
             for c in row.ids.pawns.children]
    assert cards == ["DÉPART"] * 12
