"""A label shows a text it rendered before without rendering it again, and never draws
into a texture it keeps (ui.texturecache)."""

from __future__ import annotations

from kivy.core.window import Window  # noqa: F401  (the GL context the textures need)

from ui.texturecache import KEPT
from ui.widgets import FitLabel


def _rendered(label: FitLabel) -> list[str]:
    """Make `label` record the texts its core label renders from now on."""
    seen: list[str] = []
    core = label._label
    real = core.refresh

    def refresh() -> None:
        seen.append(core.text)
        real()

    core.refresh = refresh
    return seen


def _show(label: FitLabel, text: str) -> object:
    label.text = text
    label.texture_update()
    return label.texture


def test_a_text_shown_again_takes_its_texture_without_rendering():
    label = FitLabel(size=(300, 60), max_font_size=22)
    seen = _rendered(label)
    first = _show(label, "Draw pile 17")
    pixels = bytes(first.pixels)
    second = _show(label, "Draw pile 18")  # as large: Kivy would refill the first in place
    assert second is not first and second.size == first.size
    assert _show(label, "Draw pile 17") is first
    assert seen == ["Draw pile 17", "Draw pile 18"]
    assert bytes(first.pixels) == pixels, "a kept texture was drawn into"
    assert label.texture_size == list(first.size)


def test_the_same_text_in_another_size_is_rendered_again():
    label = FitLabel(size=(300, 60), max_font_size=22)
    seen = _rendered(label)
    small = _show(label, "7")
    label.font_size = 30
    label.texture_update()
    assert label.texture is not small
    assert seen == ["7", "7"]


def test_a_label_keeps_its_last_few_texts_only():
    label = FitLabel(size=(300, 60), max_font_size=22)
    seen = _rendered(label)
    texts = [str(n) for n in range(KEPT + 1)]
    for text in texts:
        _show(label, text)
    _show(label, texts[-1])  # kept: not rendered again
    _show(label, texts[0])  # the oldest was let go: rendered again
    assert seen == [*texts, texts[0]]


def test_a_text_shown_again_after_a_bold_one_takes_its_texture():
    """The message line turns bold for a message and back for the hint: the hint's
    texture is found again (the key leaves out the font file Kivy resolves while
    rendering, which was the bold one's until the next render)."""
    label = FitLabel(size=(300, 60), max_font_size=22)
    seen = _rendered(label)
    hint = _show(label, "Tap a pawn")
    label.bold = True
    _show(label, "Ana moved")
    label.bold = False
    assert _show(label, "Tap a pawn") is hint
    assert seen == ["Tap a pawn", "Ana moved"]
