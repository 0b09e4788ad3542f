"""A label keeps the textures of its last few texts.

The same words come back to the same label all game long: the hint line ("Tap a
highlighted pawn…"), "Nothing to redo", the card on the pad, "Undo: Ana drew 7". Laying
a text out and rendering it costs a tap about 0.2 ms a label (four a card tap), so a
label whose text, font and box come back shows the texture it rendered for them before.

Only the label's own textures: Kivy's text measuring (SDL_ttf) keeps state between
labels, so the same text and options rendered by another label after other texts can
come out a pixel wider or narrower, and the screens' pictures must not change. A kept
texture is never drawn into again: a label about to render a text it does not keep gets
a new texture (Kivy would otherwise refill its old one in place when the size is the
same). Markup labels are not cached.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from kivy.core.text import Label as CoreLabel
from kivy.uix.label import Label

KEPT = 4  # textures a label keeps: a button's or a line's few texts of a turn

Key = tuple[str, str, str]
# Not in a key's options: the text, its first part already; and the font file Kivy
# resolves from the font's name, bold and italic while rendering, so before a render it
# is the last text's (a label turned bold for a message looked for its hint's texture
# under the bold font's file, and rendered it again).
UNKEYED = frozenset(("text", "font_name_r"))


def _key(core: Any) -> Key:
    """The text and everything it is rendered with (repr: quick and hashable)."""
    options = [value for name, value in core.options.items() if name not in UNKEYED]
    return (core.text, repr(core.usersize), repr(options))


class CachedLabel(Label):
    """A Label that shows a text, font and box it rendered before from its texture."""

    def __init__(self, **kwargs: Any) -> None:
        self._kept: OrderedDict[Key, tuple[Any, bool]] = OrderedDict()
        super().__init__(**kwargs)

    def texture_update(self, *largs: Any) -> None:
        core = self._label
        if type(core) is not CoreLabel or not core.text:
            super().texture_update(*largs)  # markup, or nothing to draw: Kivy's own way
            return
        kept = self._kept
        key = _key(core)
        hit = kept.get(key)
        if hit is not None:
            kept.move_to_end(key)
            texture, shortened = hit
            self.texture = texture
            self.texture_size = list(texture.size)
            self.is_shortened = shortened
            return
        core.texture = None  # a new texture: a kept one is never refilled
        super().texture_update(*largs)
        texture = self.texture
        if texture is not None and texture is not core.texture_1px:
            texture.bind()  # filled now from this text (its fill reads the core label later)
            kept[key] = (texture, bool(self.is_shortened))
            while len(kept) > KEPT:
                kept.popitem(last=False)
