"""Geometry checks on the widget tree at any window size, and pictures of a screen.

Kivy has one window per process; the offscreen SDL window takes a new `Window.size` in
process (its layout follows at the next frames), but its drawing surface keeps the size
it was opened with, so pictures are drawn into an Fbo of the window's size instead of
read back from the window. Every size runs in this one process, one after the other.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kivy.core.image import Image as CoreImage
from kivy.core.window import Window
from kivy.graphics import ClearBuffers, ClearColor, Fbo, Scale, Translate
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView
from kivy.uix.scrollview import ScrollView
from kivy.uix.widget import Widget
from ui_helpers import REPO

from companion.config import WINDOW_SECONDS
from companion.windows import DEFAULT_SECONDS
from ui.app import BACKGROUND
from ui.layout import DISPLAYS, MIN_TARGET_PX, min_text_px
from ui.widgets import FitLabel, TapButton

SIZES = list(DISPLAYS)
# Large text is checked where it is most at risk: the least height and the least width.
LARGE_TEXT_SIZES = [(800, 480), (480, 800)]
SCRATCH = REPO / "screenshots"  # what a test run draws; `make screenshots` copies it to docs


def size_id(size: tuple[int, int]) -> str:
    return f"{size[0]}x{size[1]}"


def shot_path(size: tuple[int, int], name: str, lang: str, text_size: str = "normal") -> Path:
    """Where a picture goes: screenshots/<W>x<H>/<name>-<lang>[-large].png."""
    suffix = "" if text_size == "normal" else f"-{text_size}"
    return SCRATCH / size_id(size) / f"{name}-{lang}{suffix}.png"


def set_text_size(d: Any, text_size: str) -> None:
    """The Large text setting as the settings screen sets it, and the labels refitted
    (nothing to refit when it is already set)."""
    if d.app.text_size == text_size:
        return
    d.app.text_size = text_size
    d.frames(3)


def resize(d: Any, size: tuple[int, int]) -> None:
    """Give the window `size` and let the layout and the fitted fonts settle."""
    Window.size = size
    d.wait_for(lambda: tuple(Window.size) == tuple(size), f"the window at {size}")
    d.frames(3)


def window_rect(w: Widget) -> list[float]:
    """The widget's rectangle in window coordinates, cut to any ScrollView it is seen
    through (what scrolls is seen through its view only)."""
    x, y = w.to_window(w.x, w.y)
    rect = [x, y, x + w.width, y + w.height]
    node = w.parent
    while node is not None and node is not Window:
        if isinstance(node, ScrollView):
            sx, sy = node.to_window(node.x, node.y)
            rect = [
                max(rect[0], sx),
                max(rect[1], sy),
                min(rect[2], sx + node.width),
                min(rect[3], sy + node.height),
            ]
        node = node.parent
    return rect


def _shown(d: Any, w: Widget) -> bool:
    r = window_rect(w)
    return d.visible(w) and r[2] - r[0] > 1 and r[3] - r[1] > 1


def _open_views() -> list[ModalView]:
    """The open views (a question, a notice), newest last."""
    return [w for w in reversed(Window.children) if isinstance(w, ModalView)]


def _texts_and_targets(d: Any, extra: tuple[type, ...] = ()) -> list[tuple[Widget, list[float]]]:
    """The texts and targets a finger and an eye reach: an open view's own when one is
    open (it covers the screen under it), else the screen's."""
    kinds = (TapButton, *extra)
    views = _open_views()
    return [
        (w, window_rect(w))
        for w in (views[-1].walk() if views else d.widgets())
        if (isinstance(w, kinds) or (isinstance(w, Label) and w.text.strip())) and _shown(d, w)
    ]


def _name(w: Widget) -> str:
    return f"{type(w).__name__} {getattr(w, 'text', '')!r}"


def _top(w: Widget) -> Widget:
    """The highest widget above `w`: the tree it is drawn in (the app's, a layer's)."""
    while isinstance(w.parent, Widget):
        w = w.parent
    return w


def overlaps(d: Any, extra: tuple[type, ...] = ()) -> list[str]:
    """Pairs of visible texts and buttons (and widgets of `extra` types) of two different
    trees (the screen and a layer over it) that cover each other.

    Two widgets of one tree are never compared: that is what this check always did
    (`a in b.walk_reverse()`, true for every pair of one tree, now said plainly and without
    walking the tree for each pair, a tenth of the screen test's time). Comparing them finds
    the table's own windows over the table: a check of one tree would need to know its
    layers (docs/DECISIONS.md)."""
    items = _texts_and_targets(d, extra)
    tops = [_top(w) for w, _r in items]
    bad = []
    for i, (a, ra) in enumerate(items):
        for j in range(i + 1, len(items)):
            b, rb = items[j]
            if tops[i] is tops[j]:
                continue
            dx = min(ra[2], rb[2]) - max(ra[0], rb[0])
            dy = min(ra[3], rb[3]) - max(ra[1], rb[1])
            if dx > 1 and dy > 1:
                bad.append(f"{_name(a)} over {_name(b)}")
    return bad


def outside(d: Any) -> list[str]:
    """Visible texts and buttons that reach beyond the window."""
    w, h = Window.size
    return [
        f"{_name(x)} at {[round(v) for v in r]}"
        for x, r in _texts_and_targets(d)
        if r[0] < -1 or r[1] < -1 or r[2] > w + 1 or r[3] > h + 1
    ]


def small_targets(d: Any) -> list[str]:
    """Visible buttons smaller than a fingertip (48x48 px)."""
    return [
        f"{_name(b)} {[round(v) for v in b.size]}"
        for b in d.buttons()
        if _shown(d, b) and (b.width < MIN_TARGET_PX - 0.5 or b.height < MIN_TARGET_PX - 0.5)
    ]


def small_texts(d: Any) -> list[str]:
    """Visible texts drawn below 14 px (17.5 px in large text)."""
    least = min_text_px(d.app.text_size)
    return [
        f"{_name(w)} at {w.font_size:.1f} px"
        for w, _r in _texts_and_targets(d)
        if isinstance(w, Label) and w.text.strip() and float(w.font_size) < least - 0.5
    ]


def clipped(d: Any) -> list[str]:
    """Texts cut with an ellipsis because they do not fit even at 14 px (allowed only
    where `ellipsis_ok`: player names)."""
    return [
        f"{_name(w)} in {[round(v) for v in w.size]}"
        for w, _r in _texts_and_targets(d)
        if isinstance(w, FitLabel) and w.clipped and not w.ellipsis_ok
    ]


def problems(d: Any, extra: tuple[type, ...] = ()) -> list[str]:
    """Everything wrong with the screen as drawn now, in words."""
    found = [f"overflows: {t}" for t in d.overflowing_labels()]
    found += [f"overlap: {t}" for t in overlaps(d, extra)]
    found += [f"outside the window: {t}" for t in outside(d)]
    found += [f"target under 48 px: {t}" for t in small_targets(d)]
    found += [f"text under 14 px: {t}" for t in small_texts(d)]
    found += [f"cut with an ellipsis: {t}" for t in clipped(d)]
    return found


_FBOS: dict[tuple[int, int], Fbo] = {}


def picture(d: Any, path: Path, *, settled: bool = False) -> Path:
    """The whole window as the user sees it (screens and the app's background), drawn
    into an Fbo of the window's size and saved as a PNG. `settled`: the caller has just
    let the frames render (`resize`), so two more are drawn only if a tapped button is
    still lit."""
    if not settled or any(b.state == "down" for b in d.buttons()):
        d.wait_for(
            lambda: not any(b.state == "down" for b in d.buttons()),
            "tapped buttons to be released",
        )
        d.frames(2)
    countdown = countdown_as_at_a_table(d)
    root = d.app.root
    path.parent.mkdir(parents=True, exist_ok=True)
    width, height = Window.size
    # the screens, then any open view over them (a question, a notice), as on the screen
    layers = [root.canvas, *(view.canvas for view in _open_views())]
    placed = sorted((Window.canvas.indexof(c), i) for i, c in enumerate(layers))
    for at, i in reversed(placed):
        if at > -1:
            Window.canvas.remove(layers[i])
    fbo = _FBOS.get((width, height))
    if fbo is None:  # one per display size: hundreds of pictures, never hundreds of Fbos
        fbo = _FBOS[width, height] = Fbo(size=(width, height), with_stencilbuffer=True)
    fbo.clear()
    with fbo:
        ClearColor(*BACKGROUND)
        ClearBuffers()
        Scale(1, -1, 1)
        Translate(0, -height, 0)
    for layer in layers:
        fbo.add(layer)
    fbo.draw()
    CoreImage(fbo.texture).save(str(path), flipped=False)
    for layer in layers:
        fbo.remove(layer)
    for at, i in placed:
        if at > -1:
            Window.canvas.insert(at, layers[i])
    if countdown is not None:
        d.app.model.remaining = countdown
        d.app.model._tick()
    return path


def countdown_as_at_a_table(d: Any) -> Any:
    """A test's windows last an hour (ui_helpers.LONG_WINDOW), so none closes by itself
    while it taps; a picture shows the countdown a table sees as a window opens (5 s, not
    "3 600 s"). Returns the countdown's own source, for picture() to put back (None: the
    countdown shown is already one a table may see)."""
    model = getattr(d.app, "model", None)
    left = None if model is None or not model.countdown else model.remaining()
    if left is None or left <= WINDOW_SECONDS[1]:
        return None
    real = model.remaining
    model.remaining = lambda: DEFAULT_SECONDS
    model._tick()
    d.frames(1)
    return real
