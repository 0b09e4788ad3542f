"""The board screen at every display size of the table-screen issue, in both languages:
nothing overlaps, no text is larger than its box, every button is at least 48 px.
The 800x480 and 720x1280 pictures go to docs/screenshots/ for the README."""

from __future__ import annotations

import shutil

import pytest
from board_screen_helpers import ScriptDoor, position
from kivy.core.window import Window
from kivy.uix.label import Label
from kivy.uix.scrollview import ScrollView
from ui_helpers import REPO, SCREENSHOTS, image_size, pixel_spread

from ui.board.board_view import BoardView
from ui.board.door import BoardSnapshot
from ui.widgets import TapButton

SIZES = [(800, 480), (1024, 600), (1280, 720), (480, 800), (720, 1280)]
README_SIZES = {(800, 480), (720, 1280)}
MIN_TARGET = 48
PAWNS = {"red": ["START", "T10", "T22", "S2"], "blue": ["START", "T14", "T30", "HOME"],
         "yellow": ["START", "START", "T36", "HOME"], "green": ["T50", "S5", "HOME", "HOME"]}
SEVEN = [
    {"kind": "forward", "legs": [["T10", "T17"]], "bumped": []},
    {"kind": "forward", "legs": [["T22", "T29"]], "bumped": []},
    {"kind": "split", "legs": [["T10", "T16"], ["S2", "S3"]], "bumped": []},
    {"kind": "split", "legs": [["T10", "T14"], ["S2", "S5"]], "bumped": ["blue"]},
    {"kind": "split", "legs": [["T10", "T13"], ["S2", "HOME"]], "bumped": []},
]


def window_rect(w):
    x, y = w.to_window(w.x, w.y)
    rect = [x, y, x + w.width, y + w.height]
    node = w.parent
    while node is not None and node is not Window:
        if isinstance(node, ScrollView):  # what scrolls is seen through its view only
            sx, sy = node.to_window(node.x, node.y)
            rect = [max(rect[0], sx), max(rect[1], sy), min(rect[2], sx + node.width),
                    min(rect[3], sy + node.height)]
        node = node.parent
    return rect


def overlaps(d):
    """Pairs of visible texts, buttons and the board that cover each other."""
    items = []
    for w in d.widgets():
        if not d.visible(w):
            continue
        if isinstance(w, TapButton | BoardView) or (isinstance(w, Label) and w.text.strip()):
            r = window_rect(w)
            if r[2] - r[0] > 1 and r[3] - r[1] > 1:
                items.append((w, r))
    bad = []
    for i, (a, ra) in enumerate(items):
        for b, rb in items[i + 1:]:
            if a in b.walk_reverse() or b in a.walk_reverse():
                continue
            if a.parent is b or b.parent is a:
                continue
            dx = min(ra[2], rb[2]) - max(ra[0], rb[0])
            dy = min(ra[3], rb[3]) - max(ra[1], rb[1])
            if dx > 1 and dy > 1:
                bad.append(f"{type(a).__name__} {getattr(a, 'text', '')!r} over "
                           f"{type(b).__name__} {getattr(b, 'text', '')!r}")
    return bad


def small_targets(d):
    return [f"{b.text!r} {b.size}" for b in d.buttons()
            if min(window_rect(b)[2] - window_rect(b)[0],
                   window_rect(b)[3] - window_rect(b)[1]) >= 1
            and (b.width < MIN_TARGET or b.height < MIN_TARGET)]


@pytest.fixture
def sized(driver):
    made = []

    def make(size, lang, snap):
        Window.size = size
        door = ScriptDoor(snap)
        d = driver(board_door=door, language=lang)
        d.app.show("board")
        d.app.board.refresh()
        d.wait_for(lambda: tuple(Window.size) == size, f"the window at {size}")
        d.frames(4)
        made.append(d)
        return d, door

    yield make
    Window.size = (800, 480)


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_board_screen_fits_every_display(sized, size, lang):
    snap = BoardSnapshot(position(PAWNS, card="7", draw_pile=31), SEVEN, companion_draws=True,
                         undo={"type": "draw", "card": "7", "name": "Ana"})
    d, _door = sized(size, lang, snap)
    d.tap(d.button(code="why0"))
    assert d.label("board", "why_label") != ""
    board = d.app.screen("board").ids.board
    assert min(board.size) >= min(size) * 0.5, "the board is drawn large"
    assert not d.overflowing_labels(), d.overflowing_labels()
    assert not overlaps(d), overlaps(d)
    assert not small_targets(d), small_targets(d)
    name = f"board-{size[0]}x{size[1]}-{lang}"
    # the offscreen window keeps the surface it was opened with: draw the screen itself
    d.frames(2)
    path = SCREENSHOTS / f"{name}.png"
    SCREENSHOTS.mkdir(exist_ok=True)
    d.app.root.current_screen.export_to_png(str(path))
    assert image_size(path) == size
    assert pixel_spread(path) > 12
    if size in README_SIZES:
        shutil.copy(path, REPO / "docs" / "screenshots" / f"{name}.png")


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_board_setup_fits_every_display(sized, size, lang):
    d, _door = sized(size, lang, None)
    d.app.screen("board_setup").offer(["Ana", "Ben", "Chloé"], ["red", "blue", "yellow"],
                                      "Ana")
    d.app.show("board_setup")
    d.frames(4)
    assert not d.overflowing_labels(), d.overflowing_labels()
    assert not overlaps(d), overlaps(d)
    assert not small_targets(d), small_targets(d)
    path = SCREENSHOTS / f"board-setup-{size[0]}x{size[1]}-{lang}.png"
    d.app.root.current_screen.export_to_png(str(path))
    assert pixel_spread(path) > 12
