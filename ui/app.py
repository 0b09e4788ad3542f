"""The Kivy app: wires the session, journal, window timer, voice and hardware together
and owns the screens. The app (through ui.hardware_link) is where ui/ and hardware/ meet.

Threads: hardware callbacks and timers reach the screen only through the session's
listener (TableModel) and `Clock.schedule_once`; nothing here blocks the Kivy thread
on hardware or speech.
"""

from __future__ import annotations

import gc
import importlib
import logging
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.graphics.opengl import glFlush
from kivy.properties import BooleanProperty, NumericProperty, StringProperty
from kivy.uix.screenmanager import NoTransition, ScreenManager

from companion import plugins
from companion.config import TEXT_SIZES, on_raspberry_pi
from companion.errors import JournalError
from companion.games import DEFAULT
from companion.session import APP_WRITE_SETTLE_S, Session
from companion.system import notify_ready
from ui import games
from ui.camera_link import CameraLink
from ui.hardware_link import HardwareLink
from ui.i18n import LANGUAGES, tr
from ui.idle import ScreenRest, screen_rest
from ui.kvload import load_kv, register_fonts
from ui.layout import arrangement, text_scale
from ui.prefs import Choices, PrefsNotSaved, UiSettings
from ui.touchguard import TouchGuard, frames_drawn, window_targets
from ui.voice import Voice, voice_for
from ui.wording import sentence

log = logging.getLogger(__name__)

READY_LINE = "sorry-companion: ready"
SORRY_KEYS = "1234"
# Each screen every game shares: its .kv file, module and class; made the first time it is
# shown. Each game's own screens are its slice's (ui.games).
SCREENS = {
    "start": ("start.kv", "ui.screens.start", "StartScreen"),
    "name": ("name.kv", "ui.screens.start", "NameScreen"),
    "resume": ("resume.kv", "ui.screens.start", "ResumeScreen"),
    "menu": ("menu.kv", "ui.screens.menu", "MenuScreen"),
    "history": ("history.kv", "ui.screens.pages", "HistoryScreen"),
    "rules": ("rules.kv", "ui.screens.pages", "RulesScreen"),
    "settings": ("settings.kv", "ui.screens.pages", "SettingsScreen"),
    "hardware": ("hardware.kv", "ui.screens.pages", "HardwareScreen"),
    "camera_teach": ("camera/teach.kv", "ui.camera.teach_screen", "TeachScreen"),
}
BACKGROUND = (0.09, 0.10, 0.12, 1)
PREWARM = ("menu",)  # after each game's own (GameSlice.prewarm)
PREWARM_DELAY = 0.3
SAVING_CHECK_S = 0.1  # how often the "saving" mark looks at the journal writer's lag


def _start_rasterising(*_: Any) -> None:
    """Hand the frame just drawn to the GPU now. A software renderer (llvmpipe, as on a
    Pi without its GPU driver or under test) otherwise holds it until the next texture
    upload, and the next tap would pay for drawing the previous frame."""
    glFlush()


def _draw_again(*_: Any) -> None:
    """The first screen once more. A display that takes its copy of the picture when the
    mode is set, before the first frame's pixels are in (the emulated Pi's virtio-gpu,
    `make pi-vm`), otherwise stays black until something on the screen changes, and the
    start screen is still. On a Pi it costs one frame at start."""
    Window.canvas.ask_update()


class _Models(dict[str, Any]):
    """Each game's model, made the first time it is asked for: the board game's imports
    the whole board engine, which the first frame (and a card game) does not need."""

    def __init__(self, app: Any) -> None:
        super().__init__()
        self._app = app

    def __missing__(self, name: str) -> Any:
        model = self[name] = games.get(name).make_model(self._app)
        model.bind(in_play=self._app.note_playing)
        self._app.note_playing()
        return model


class CompanionApp(App):
    """The table companion. `journal` may be None (nothing kept: demos only)."""

    lang = StringProperty("en")
    status = StringProperty("")
    # The window is taller than wide: the .kv files lay every screen out for portrait.
    portrait = BooleanProperty(False)
    # Settings > Text (`[display] text`): "normal" or "large"; the .kv files and FitLabel
    # read its factor, `text_scale` (ui/layout.py TEXT_SCALES).
    text_size = StringProperty(TEXT_SIZES[0])
    text_scale = NumericProperty(1.0)
    # A game is open and not over (a made model's `in_play`): the first screen's "Back to
    # the game". Kept as each model changes, so the first frame makes no game's model.
    playing = BooleanProperty(False)

    def __init__(
        self,
        *,
        settings: UiSettings,
        data_dir: Path,
        journal: Any = None,
        config: Any = None,
        ledboard_port: str | None = None,
        start_hardware: bool = True,
        voice: Voice | None = None,
        on_ready: Callable[[CompanionApp], None] | None = None,
        scripts: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.title = "Sorry! Table Companion"
        self.settings = settings
        self.data_dir = Path(data_dir)
        self.journal = journal
        self.on_ready = on_ready
        self.lang = settings.language if settings.language in LANGUAGES else "en"
        self.text_size = settings.text_size
        self.text_scale = text_scale(self.text_size)
        self.choices = Choices.load(self.data_dir)
        self.session = Session(
            journal,
            window_seconds={"steal": settings.steal_seconds, "block": settings.block_seconds},
            background=True,  # the screen never waits for the disk: a writer thread saves
            write_settle=APP_WRITE_SETTLE_S,
        )
        self._saving = False
        self._saving_event: Any = None
        self.voice = (
            voice if voice is not None else voice_for(settings, pi=on_raspberry_pi())
        )
        # Touches act on what the finger saw: every screen and popup tells it of a change.
        self.guard = TouchGuard(targets=window_targets, frame=frames_drawn)
        # a game's scripted live game, by the game's name (the screens' tests); a game
        # without one plays the session
        self.scripts = scripts or {}
        self.screens = dict(SCREENS)
        self.prewarm: list[str] = []
        # Each game's model, by the rules' name: what its screens bind to.
        self.models: dict[str, Any] = _Models(self)
        for name in games.names():
            game = games.get(name)
            self.screens.update(game.screens)
            self.prewarm += game.prewarm
        self.prewarm += PREWARM
        self.link = HardwareLink(self.session, config, ledboard_port=ledboard_port,
                                 enabled=start_hardware, lang=self.lang)
        self.link.bind(status=self._show_status)
        self.link.on_refused = lambda refusal: self._game_model().say_refused(refusal.error)
        self.camera = CameraLink(self, self.link.config)
        self._ready = False
        self._shut = False
        self._prewarm_event: Any = None
        self.rest: ScreenRest | None = None  # dims and sleeps the screen (ui/idle.py)

    # --- texts, for the .kv files ---

    def t(self, key: str, _lang: str | None = None, **values: Any) -> str:
        """The text for `key` in the current language; kv passes app.lang to re-bind."""
        return tr(key, self.lang, **values)

    def card_name(self, code: str, _lang: str | None = None) -> str:
        """A card of the default game (its rules page, ui/rules.kv) in the app's words."""
        words = plugins.words(DEFAULT)
        return code if words is None else str(words.card_words(code, self.lang))

    @property
    def model(self) -> Any:
        """The default game's model (DEFAULT: the message line when no game is open,
        and its .kv files' short name)."""
        return self.models[DEFAULT]

    def note_playing(self, *_: Any) -> None:
        self.playing = any(model.in_play for model in self.models.values())

    def open_model(self) -> Any:
        """The model of the session's open game (None: no game is open)."""
        update = self.session.update
        return None if update is None else self.models[update.game]

    def _game_model(self) -> Any:
        """The model whose message line speaks now: the open game's, else the card table's."""
        return self.open_model() or self.model

    def on_lang(self, *_: Any) -> None:
        if getattr(self, "link", None) is None:
            return  # still in __init__: the models are made with this language
        for model in self.models.values():
            model.lang = self.lang
        if self.root is not None and self.root.has_screen("resume"):
            self.root.get_screen("resume").describe()
        self.link.lang = self.lang
        self._show_status()

    def _show_status(self, *_: Any) -> None:
        """The status line: "saving" while durability lags, then the hardware's status in a
        few words (the details are on the Hardware page)."""
        parts = [tr("saving", self.lang)] if self._saving else []
        parts += [self.link.status] if self.link.status else []
        self.status = "  ·  ".join(parts)

    def _check_saving(self, *_: Any) -> None:
        saving = self.session.saving()
        if saving != self._saving:
            self._saving = saving
            self._show_status()

    def toggle_language(self) -> None:
        self.set_language(LANGUAGES[(LANGUAGES.index(self.lang) + 1) % len(LANGUAGES)])

    def set_language(self, lang: str) -> None:
        from dataclasses import replace

        self.lang = lang
        self.settings = replace(self.settings, language=lang)
        self.keep(self.settings)

    def set_text_size(self, text_size: str) -> None:
        """Settings > Text: every text and the rows holding it, at once, and kept."""
        from dataclasses import replace

        self.text_size = text_size
        self.settings = replace(self.settings, text_size=text_size)
        self.keep(self.settings)

    def on_text_size(self, *_: Any) -> None:
        self.text_scale = text_scale(self.text_size)

    def on_text_scale(self, *_: Any) -> None:
        """Each label fits its text again at the new sizes, on every screen made so far and
        in any open view (the .kv rows follow `text_scale` by themselves)."""
        from ui.widgets import rescale_all

        if self.root is not None:
            rescale_all([*self.root.screens, *Window.children])

    def keep(self, prefs: UiSettings | Choices) -> bool:
        """Write settings.json or choices.json; a full disk is a sentence, never a quit."""
        try:
            prefs.save(self.data_dir)
        except PrefsNotSaved as exc:
            text = sentence(
                tr("prefs_not_saved", self.lang, file=exc.filename, why=exc.strerror)
            )
            self.model.message = text
            # again after the session's pending update, which resets the message line
            Clock.schedule_once(lambda *_: setattr(self.model, "message", text))
            return False
        return True

    # --- building and starting ---

    def build(self) -> ScreenManager:
        register_fonts()
        importlib.import_module("ui.widgets")  # its classes must exist before its rules
        load_kv("widgets.kv")
        Window.clearcolor = BACKGROUND  # one clear instead of a full-screen fill per screen
        Window.bind(size=self._follow_window)
        self._follow_window(Window, Window.size)
        from ui.widgets import GuardedScreenManager

        return GuardedScreenManager(transition=NoTransition())

    def _follow_window(self, _window: Any, size: Any) -> None:
        """Landscape or portrait, chosen again at every resize (ui/layout.py)."""
        self.portrait = arrangement(*size) == "portrait"

    def screen(self, name: str) -> Any:
        """The screen called `name`, made (with its .kv file) the first time it is needed."""
        root = self.root
        if not root.has_screen(name):
            kv, module, cls = self.screens[name]
            screen_class = getattr(importlib.import_module(module), cls)
            load_kv(kv)
            made = screen_class(name=name)
            root.add_widget(made)
            # Laid out at the window's size now, not at Kivy's default 100x100 until it is
            # first shown: its labels fit and render while the table is idle, instead of
            # all again in the frame that shows it (the Resume tap's frame).
            made.pos, made.size = root.pos, root.size
        return root.get_screen(name)

    def on_start(self) -> None:
        self._check_journal()
        stored = self.session.preview()
        if stored is not None:
            self.screen("resume").offer(stored)
            self.show("resume")
        else:
            self.new_game_form()
        self.notice_view = self._show_notices()
        Window.bind(on_key_down=self._on_key_down)
        self.rest = screen_rest(self.link.config, Window, busy=self._window_open)
        self.rest.watch(Window)  # after the keys: a key that wakes the screen does nothing
        self.link.wakes = self.rest.press_wakes
        Window.bind(on_flip=self._on_first_frame)
        Window.bind(on_flip=_start_rasterising)
        self.guard.watch(Window)  # each touch's down time, before any widget sees it
        self.link.start()
        if self.session.writer is not None:
            self._saving_event = Clock.schedule_interval(self._check_saving, SAVING_CHECK_S)

    def _check_journal(self) -> None:
        """Every stored game checked before the first screen, so what damage took from any
        of them is said on it, once (Session.check_stored)."""
        try:
            self.session.check_stored()
        except JournalError as exc:  # said over the first screen; the games are still read
            log.warning("the stored games could not all be checked: %s", exc)
            damage = getattr(self.journal, "damage", None)
            if isinstance(damage, list):
                damage.append(f"the stored games could not all be checked for damage ({exc})")

    def show_new_notices(self) -> None:
        """Notices a read found after the start (History reading a damaged game): shown
        now, over whatever screen is up, unless the notices are already on screen."""
        view = getattr(self, "notice_view", None)
        if view is not None and view.get_parent_window() is not None:
            return
        self.notice_view = self._show_notices()

    def _window_open(self) -> bool:
        """A SORRY! window waits for a press: the screen must not rest."""
        return getattr(self.session.state, "window", None) is not None

    def _show_notices(self) -> Any:
        """Every repair and set-aside of the journal, over the start screen until OK."""
        from ui.notices import NoticeView, pending

        damage = list(getattr(self.journal, "damage", []))
        shown, self._damage_shown = getattr(self, "_damage_shown", 0), len(damage)
        records = pending(self.data_dir, damage[shown:])  # dismissed ones never come back
        if not records:
            return None
        view = NoticeView(self, records)
        view.open(animation=False)
        return view

    def _on_first_frame(self, *_: Any) -> None:
        Window.unbind(on_flip=self._on_first_frame)
        if self._ready:
            return
        self._ready = True
        # Kivy, the first screens and the rules live as long as the app: keep them out of the
        # cyclic collector's scans, so a collection never costs a frame mid-game.
        gc.freeze()
        self._prewarm_event = Clock.schedule_once(self._prewarm, PREWARM_DELAY)
        # Kivy replaces sys.stderr with its logger: the deploy tests read the real one.
        stream = sys.__stderr__
        if stream is not None:
            print(READY_LINE, file=stream, flush=True)
        notify_ready()  # the service (Type=notify) keeps this version only once it gets here
        Clock.schedule_once(_draw_again)
        if self.on_ready is not None:
            self.on_ready(self)

    def _prewarm(self, *_: Any) -> None:
        """Make the next screens while the scorekeeper is still choosing players, one per
        idle moment, so that starting and ending a game change screens at once."""
        pending = [name for name in self.prewarm if not self.root.has_screen(name)]
        if pending and not self._shut:
            self.screen(pending[0])
            self._prewarm_event = Clock.schedule_once(self._prewarm, PREWARM_DELAY)

    def on_stop(self) -> None:
        self.shutdown()

    def shutdown(self) -> None:
        """Stop timers, threads and devices; safe to call twice."""
        if self._shut:
            return
        self._shut = True
        if self._ready:
            # What the first frame froze is the collector's again: the screens of an app
            # that stopped are freed (frozen, each app a test suite starts and stops kept
            # its whole widget tree, about 20 MB, until the process ended).
            gc.unfreeze()
        Window.unbind(on_key_down=self._on_key_down)
        Window.unbind(size=self._follow_window)
        Window.unbind(on_flip=self._on_first_frame)
        Window.unbind(on_flip=_start_rasterising)
        self.guard.unwatch(Window)
        if self.rest is not None:
            self.rest.close()
        if self._prewarm_event is not None:
            self._prewarm_event.cancel()
        if self._saving_event is not None:
            self._saving_event.cancel()
        self.session.close()  # what is still in flight is written before the journal closes
        for model in self.models.values():
            model.close()
        self.voice.close()
        self.link.close()
        self.camera.close()

    # --- navigation ---

    def show(self, name: str) -> None:
        """Go to a screen; a page (rules, history, settings) remembers where Back goes."""
        root = self.root
        target = self.screen(name)
        if hasattr(target, "back_to") and root.current != name:
            target.back_to = root.current
        root.current = name

    # --- acting on the game ---

    def submit(self, action: Callable[[], Any]) -> bool:
        """Run one session call; a refusal is said on the open game's screen (the card
        table's with no game open), nothing else (GameModel.attempt)."""
        return bool(self._game_model().attempt(action))

    def start_game(self, setup: Any) -> str | None:
        """Start a new game from its setup (an object or JSON; its game's slice starts it
        and shows it); None, or the one sentence saying why it cannot start."""
        game = games.game_of(setup)
        why = games.get(game).start(self, setup)
        if why is None:
            self.camera.follow(game)
        return why

    def resume_game(self, stored: Any) -> None:
        if self.submit(lambda: self.session.resume(stored.game_id)):
            self.show_game()

    def show_game(self) -> None:
        """The open game's own screen (its slice's); the new-game form when none is open."""
        update = self.session.update
        if update is None:
            self.new_game_form()
            return
        games.get(update.game).show(self)
        self.camera.follow(update.game)

    def discard_game(self, stored: Any) -> None:
        """To the new-game form; the stored game stays open (and resumable) until a new
        game really starts, so this tap can be taken back with "Back to the game"."""
        if stored is not None:
            self.submit(lambda: self.session.resume(stored.game_id))
            model = self.open_model()
            if model is not None:
                model.refresh()
        self.new_game_form()

    def new_game_form(self) -> None:
        self.screen("start").load_choices()
        self.show("start")

    # --- laptop keys 1-4: the players' SORRY! buttons ---

    def _on_key_down(
        self, _window: Any, _key: int, _scancode: int, codepoint: str | None, _modifiers: list[str]
    ) -> bool:
        """A seat's key is that seat's button: what it means is the open game's face's to
        say (hardware.faces); a refusal is the game screen's one sentence."""
        update = self.session.update
        if not codepoint or codepoint not in SORRY_KEYS or update is None:
            return False
        seat = SORRY_KEYS.index(codepoint)
        if seat >= len(update.summary.players):
            return False
        if self.root.current == "name":
            return False  # typing a name, not pressing SORRY!
        from hardware import faces

        face = faces.get(update.game)
        if face is None:
            return False
        model = self.models[update.game]
        model.attempt(lambda: face.seat_press(self.session, seat, None))
        return True
