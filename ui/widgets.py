"""Reusable widgets; their looks are in widgets.kv.

FitLabel shrinks its font until its text fits (French names are longer than English
ones), so no text ever spills out of its box whatever the language or player names.
"""

from __future__ import annotations

import math
import weakref
from collections.abc import Iterable
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.factory import Factory
from kivy.metrics import dp, sp
from kivy.properties import (
    BooleanProperty,
    ColorProperty,
    ListProperty,
    NumericProperty,
    StringProperty,
)
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.modalview import ModalView
from kivy.uix.screenmanager import Screen, ScreenManager
from kivy.uix.widget import Widget

from ui.layout import MIN_TEXT_PX
from ui.textfit import fit_size, fits, measured
from ui.texturecache import CachedLabel
from ui.theme import ink_on, marked, player_rgba
from ui.touchguard import app_guard

MIN_FONT = sp(MIN_TEXT_PX)  # 14 px on the 800x480 display: readable at arm's length


def text_scale_now() -> float:
    """The Large text setting's factor (ui/layout.py TEXT_SCALES): 1 outside the app."""
    return float(getattr(App.get_running_app(), "text_scale", 1.0))


def rescale_all(widgets: Iterable[Widget]) -> None:
    """After the text size changed: every widget (in `widgets`' trees) that sizes its own
    text from the setting (a `rescale` method) does so again, shown or not."""
    for top in widgets:
        for w in top.walk(restrict=True):
            rescale = getattr(w, "rescale", None)
            if rescale is not None:
                rescale()


def on_hidden_screen(widget: Widget) -> bool:
    """Whether `widget` is on a screen its manager does not show now (a screen made ahead,
    or one left: the game-over screen all through a game)."""
    w: Any = widget
    while w is not None:
        if isinstance(w, Screen) and w.manager is not None and w.manager.current_screen is not w:
            return True
        w, up = w.parent, w
        if w is up:  # the window is its own parent
            return False
    return False


# Labels whose new text waits for their screen to be shown (FitLabel.texture_update).
_WAITING: weakref.WeakSet[FitLabel] = weakref.WeakSet()


def render_waiting() -> None:
    """Render the waiting labels whose screen is shown now, before its frame is drawn."""
    for label in list(_WAITING):
        if not on_hidden_screen(label):
            label.texture_update()


class FitLabel(CachedLabel):
    """A label that wraps and shrinks its text (down to MIN_FONT) to fit its size; both
    bounds are times the Large text setting's factor. A text that does not fit even at
    the least size is cut to one line ending in "…", never
    drawn over its neighbours; `clipped` says so (the screen checks fail on it unless
    `ellipsis_ok`, as for long player names)."""

    max_font_size = NumericProperty(sp(20))
    fit_padding = NumericProperty(sp(4))
    clipped = BooleanProperty(False)
    ellipsis_ok = BooleanProperty(False)

    def __init__(self, **kwargs: object) -> None:
        self._fit_trigger = Clock.create_trigger(self._fit, -1)
        self.rescale = self._fit_trigger  # the text size changed (rescale_all)
        super().__init__(**kwargs)
        self.fbind("size", self._fit_trigger)
        self.fbind("text", self._fit_trigger)
        self.fbind("max_font_size", self._fit_trigger)
        self.fbind("font_name", self._fit_trigger)
        self._fit_trigger()

    def on_texture(self, _label: object, texture: Any) -> None:
        """Fill a new text texture now, before the frame is drawn: filled lazily in the
        middle of drawing, each upload makes a software renderer (llvmpipe) flush the
        half-drawn frame, which costs more than the whole frame."""
        if texture is not None and self.get_root_window() is not None:
            texture.bind()

    def texture_update(self, *largs: object) -> None:
        """Render once per change: a new text wakes Kivy's texture trigger before ours
        (Label binds first), so the font size is settled here first; without this, the text
        was rendered at the old size and again at the new one.

        A label already drawn once on a screen not shown now waits until its screen is
        shown (GuardedScreenManager): the undo button and the message line of the
        tiebreak and game-over screens no longer render again at every tap on the table."""
        if self._fit_trigger.is_triggered:
            self._fit_trigger.cancel()
            self._fit()
            self._trigger_texture.cancel()  # what _fit changed is rendered now, once
        if self.texture is not None and on_hidden_screen(self):
            _WAITING.add(self)
            return
        _WAITING.discard(self)
        super().texture_update(*largs)

    def _fit(self, *_: object) -> None:
        """Pick the font size once, then let Kivy render the texture once. Text that fits
        on one line keeps a tight texture (fewer pixels to blend on every frame)."""
        if self.width <= 1 or self.height <= 1 or not self.text:
            return
        room = max(1.0, self.width - 2 * self.fit_padding)
        text = self.text.strip()
        scale = text_scale_now()
        font, bold, top = self.font_name, self.bold, float(self.max_font_size) * scale
        least = MIN_FONT * scale

        def measure(s: str) -> tuple[float, float]:
            return measured(font, bold, top, s)

        one_line = fit_size(text, room, self.height, top, least, measure, wrap=False)
        whole = fits(text, room, self.height, one_line, top, measure, wrap=False)
        # paragraphs ("\n") keep their lines unless one line each would be cut
        wrap = " " in text and (one_line < top or not whole) and (
            "\n" not in text or not fits(text, room, self.height, least, top, measure,
                                         wrap=False))
        size = (
            fit_size(text, room, self.height, top, least, measure, wrap=True)
            if wrap
            else one_line
        )
        if wrap and size <= one_line and whole:
            wrap, size = False, one_line
        # Whole pixels only: each new size opens the font file again, which costs a frame.
        size = max(least, math.floor(size))
        self.clipped = not fits(text, room, self.height, size, top, measure, wrap=wrap)
        if self.clipped:  # one line, cut at the right with an ellipsis
            self.shorten, self.shorten_from, self.split_str = True, "right", ""
            self.text_size = (room, None)
        else:
            self.shorten = False
            self.text_size = (room, None) if wrap else (None, None)
        self.font_size = size


class GuardedScreenManager(ScreenManager):
    """A ScreenManager whose every switch of screen tells the app's touch guard (only a
    manager on the window: one built in the background changes nothing under a finger),
    and renders the labels of the screen shown that changed while it was not
    (FitLabel.texture_update)."""

    def on_current(self, instance: Any, value: Any) -> Any:
        if self.get_root_window() is not None:
            app_guard().changed()
        shown = super().on_current(instance, value)
        if _WAITING:
            render_waiting()  # what changed on the screen while it was not shown
        return shown


class GuardedView(ModalView):
    """A ModalView (popup) whose opening and closing tell the app's touch guard."""

    def open(self, *args: Any, **kwargs: Any) -> Any:
        app_guard().changed()
        return super().open(*args, **kwargs)

    def dismiss(self, *args: Any, **kwargs: Any) -> Any:
        app_guard().changed()
        return super().dismiss(*args, **kwargs)


class TapButton(ButtonBehavior, FitLabel):
    """One big touch target. `dim` shows a tap the rules would refuse right now; the tap
    still goes through, so the refusal can say why in words."""

    bg = ColorProperty((0.27, 0.29, 0.34, 1))
    dim = BooleanProperty(False)
    selected = BooleanProperty(False)
    code = StringProperty("")  # what the button stands for: a card code, a name, a key
    __events__ = ("on_bounce",)

    def on_bounce(self) -> None:
        """A second contact taken as a bounce: a key that must not lose a deliberate
        second tap without a word says so (the card pad: "10 again? Tap once more")."""

    def on_touch_down(self, touch: Any) -> bool:
        """A touch that began before, or just after, the layer under it changed is
        swallowed where a target stood before: the finger aimed at that; a second
        contact on this button just after a tap is a bounce, also swallowed
        (ui.touchguard)."""
        if (self.collide_point(*touch.pos) and not touch.is_mouse_scrolling
                and not self.disabled):
            guard = app_guard()
            if guard.blocks(touch):
                return True
            if guard.bounces(touch, self):
                self.dispatch("on_bounce")
                return True
            taken = bool(super().on_touch_down(touch))
            if taken:
                guard.tapped(touch, self)
            return taken
        return bool(super().on_touch_down(touch))

    def on_touch_up(self, touch: Any) -> bool:
        """A touch that came down on this button and is lifted after a change (the
        window timer closed the window under the finger) releases without acting."""
        if touch.grab_current is self and app_guard().blocks(touch):
            touch.ungrab(self)
            self.last_touch = touch
            self._do_release()
            return True
        return bool(super().on_touch_up(touch))


class ChoiceGrid(GridLayout):
    """A grid of TapButtons made from `choices` (dicts: text, code, optional seat color
    or other bg);
    a tap dispatches on_choice(code). Used wherever the choices depend on the game:
    SORRY! buttons per player, flip-back targets, Slide totals, earlier names."""

    choices = ListProperty([])
    font = NumericProperty(sp(24))
    __events__ = ("on_choice",)

    def on_choices(self, *_: object) -> None:
        if self.get_root_window() is not None:  # new buttons where others were
            app_guard().changed()
        self.clear_widgets()
        for choice in self.choices:
            button = TapButton(text=choice["text"], code=choice["code"], max_font_size=self.font)
            if choice.get("color"):  # a seat: its colour and its shape
                button.bg = player_rgba(choice["color"])
                button.color = ink_on(choice["color"])
                button.text = marked(choice["color"], choice["text"])
                button.font_name = "Symbols"
            elif choice.get("bg"):
                button.bg = choice["bg"]
            button.bind(on_release=self._tapped)
            self.add_widget(button)

    def _tapped(self, button: TapButton) -> None:
        self.dispatch("on_choice", button.code)

    def on_choice(self, code: str) -> None:
        pass


# The letter keys, by their code (the capital letter): shown in lower case unless shifted.
KEY_ROWS = {
    "en": ("QWERTYUIOP", "ASDFGHJKL'", "ZXCVBNM-"),
    "fr": ("AZERTYUIOP", "QSDFGHJKLM", "WXCVBN'-"),
}
# Every accented letter French names need (issue 13), on their own page of the keyboard.
ACCENT_ROWS = ("ÉÈÊËÀÂÇŒ", "ÎÏÔÛÙÜÆÑ", "'-")
QUICK_ACCENTS = "ÉÈÇ"  # the commonest, also beside the space bar of the letters' page
# Keys that are not letters: their labels (in the Symbols font) and widths in key units.
KEY_LABELS = {"SPACE": "␣", "BACK": "⌫", "SHIFT": "⇧", "CAPS": "⇪", "ACCENTS": "àé",
              "LETTERS": "abc"}
KEY_WIDTHS = {"SPACE": 3.0, "BACK": 1.5, "SHIFT": 1.5, "CAPS": 1.5, "ACCENTS": 1.5,
              "LETTERS": 1.5}


KEY_MIN = dp(48)  # the smallest key, either way


def _split(row: list[str], units: int) -> list[list[str]]:
    """`row` as it is when its keys fit in `units` key units, else in as few rows of
    about equal length as do."""
    width = sum(KEY_WIDTHS.get(key, 1.0) for key in row)
    if width <= units:
        return [row]
    parts = math.ceil(width / units)
    size = math.ceil(len(row) / parts)
    return [row[i:i + size] for i in range(0, len(row), size)]


class OnScreenKeyboard(BoxLayout):
    """Letters for names (no physical keyboard on the table): QWERTY in English, AZERTY in
    French, shift (one capital) and caps lock (all capitals), and a page with every
    accented letter French names need. Built of TapButtons, so the touch guard covers
    every key; each key is at least 48 px at 800x480.

    Kivy's own VKeyboard was not used: its azerty layout is 15 keys wide (53 px keys at
    800 px, 32 px at 480) and has é è ç à ù only, with ^ and ¨ as plain keys, not dead
    keys (docs/DECISIONS.md).

    A key's `code` is its letter in capitals ("A", "É") whatever it shows; on_key(code)
    leaves the case to the name screen, which knows whether shift or caps is on."""

    lang = StringProperty("en")
    upper = BooleanProperty(True)  # letters shown (and typed) as capitals
    shift = BooleanProperty(False)
    caps = BooleanProperty(False)
    accents = BooleanProperty(False)  # the accented letters' page is shown
    full = BooleanProperty(False)  # the name has its most letters: letter keys are dim
    units = NumericProperty(12)  # key units of 48 px that fit across, 12 at most (on_size)
    __events__ = ("on_key",)

    def on_kv_post(self, *_: object) -> None:
        self.fbind("lang", self._build)
        self.fbind("accents", self._build)
        for prop in ("upper", "shift", "caps", "full"):
            self.fbind(prop, self._restyle)
        self._build()

    def _rows(self) -> list[list[str]]:
        letters = ACCENT_ROWS if self.accents else KEY_ROWS.get(self.lang, KEY_ROWS["en"])
        top, middle, bottom = letters
        rows = [
            list(top),
            list(middle),
            ["SHIFT", *bottom, "BACK"],
            ["CAPS", "LETTERS", "SPACE"] if self.accents
            else ["CAPS", "ACCENTS", *QUICK_ACCENTS, "SPACE"],
        ]
        return [part for row in rows for part in _split(row, self.units)]

    def on_size(self, *_: object) -> None:
        """How many key units of 48 px fit across; fewer than a row needs (a portrait
        screen, 480 px wide) splits the longer rows in two, and the keys grow taller."""
        gap = float(self.children[0].spacing) if self.children else dp(4)  # KeyRow's
        fit = int((self.width + gap) / (KEY_MIN + gap)) if self.width > 1 else 12
        units = max(5, min(12, fit))
        if units != self.units:
            self.units = units
            if self.children:
                self._build()

    def _build(self, *_: object) -> None:
        if self.children:
            app_guard().changed()  # other keys where the finger aimed (the accents' page)
        self.clear_widgets()
        for row in self._rows():
            line = Factory.KeyRow()
            for key in row:
                button = Factory.KeyButton(code=key, size_hint_x=KEY_WIDTHS.get(key, 1.0))
                button.bind(on_release=self._tapped)
                line.add_widget(button)
            self.add_widget(line)
        self._restyle()

    def _restyle(self, *_: object) -> None:
        for line in self.children:
            for button in line.children:
                code = button.code
                if code in KEY_LABELS:
                    button.text = KEY_LABELS[code]
                    button.selected = (code == "SHIFT" and self.shift) or (
                        code == "CAPS" and self.caps)
                else:
                    button.text = code if self.upper else code.lower()
                    button.dim = self.full

    def _tapped(self, button: TapButton) -> None:
        if button.code == "ACCENTS":
            self.accents = True
        elif button.code == "LETTERS":
            self.accents = False
        else:
            self.dispatch("on_key", button.code)
            if self.accents and button.code.isalpha():
                self.accents = False  # one accented letter, then back to the letters

    def on_key(self, key: str) -> None:
        pass
