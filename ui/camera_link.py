"""Where ui/ and camera/ meet (as ui.hardware_link for the buttons and LED board).

When a game's screen is shown and `[camera] enabled`, the camera's worker is started for
that game on its own thread; what it reports reaches the screen only through Kivy's Clock,
as a sentence on the open game's message line: a card logged "seen by the camera" (its undo
label says so too: its step is `by` the camera), a card it is not sure of (which two: the pad lights
them and one tap answers), a SORRY! steal / Don't Be SORRY! face seen (a check: the buttons
decide), or why the camera is not working. A game with a watcher of its own in the app
(its manifest's `camera_watch`: the board camera) has it started beside the card camera,
its sentences handed to the open game's model on the UI thread. Without the extra, or
with the camera off, nothing is imported and nothing changes.
"""

from __future__ import annotations

import logging
from typing import Any

from kivy.clock import Clock

from companion import plugins
from companion.games import DEFAULT
from ui.i18n import tr

log = logging.getLogger(__name__)


class CameraLink:
    def __init__(self, app: Any, config: Any) -> None:
        self.app, self.config = app, config
        self.worker: Any = None
        self.watcher: Any = None  # the game's own camera watcher (the board camera)
        self.game: str | None = None

    def follow(self, game: str) -> None:
        """The open game is `game`: watch for its cards (once; again after a change)."""
        camera = getattr(self.config, "camera", None)
        if camera is None or not camera.enabled or game == self.game:
            return
        self.close()
        self.game = game
        from camera.extra import MissingExtra, require

        try:
            require()
            from camera.model import ModelError
            from camera.sources import SourceError
            from camera.worker import Listener, start_from_config

            config = self.config.with_data_dir(self.app.data_dir)
            if self._watch(game, config):
                return
            self.worker = start_from_config(self.app.session, config, game, Listener(
                logged=self._logged,
                asked=self._asked,
                check=lambda card: self._say("camera_check", card=card),
                refused=lambda why: self._say("camera_refused", why=why),
                stopped=self._stopped))
        except (MissingExtra, ModelError, SourceError) as exc:
            self._say("camera_stopped", why=str(exc))

    def _watch(self, game: str, config: Any) -> bool:
        """Start the game's own watcher when it has one and it was taught (True: started,
        the card camera's frames are its: one camera, one reader)."""
        own = plugins.layer(game, "camera_watch")
        if own is None:
            return False
        self.watcher = own.start(self.app.session, config, self._show)
        return self.watcher is not None

    def _show(self, change: Any) -> None:
        """Run `change(model)` on the open game's model, on the UI's thread."""
        def show(_dt: float) -> None:
            model = self.app.open_model()
            if model is not None:
                change(model)

        Clock.schedule_once(show)

    def _logged(self, seen: Any, result: Any) -> None:
        self._say("camera_logged", asked=frozenset(), card=seen.card)

    def _asked(self, seen: Any) -> None:
        self._say("camera_asked", asked=frozenset(seen.candidates), first=seen.candidates[0],
                  second=seen.candidates[-1])

    def _stopped(self, why: str | None) -> None:
        if why is not None:  # None: a folder of frames came to its end
            self._say("camera_stopped", why=why)

    def _say(self, key: str, asked: frozenset[str] | None = None, **values: Any) -> None:
        """Show a sentence on the open game's message line, from any thread; `asked`: the
        cards to light on the pad (empty: none), None: leave them."""
        def say(model: Any) -> None:
            if asked is not None:
                model.asked = asked
            words = {k: seen_card_name(v, model.lang, self.game)
                     if k in ("card", "first", "second") else v for k, v in values.items()}
            model.message = tr(key, model.lang, **words)

        self._show(say)

    def close(self) -> None:
        for worker in (self.worker, self.watcher):
            if worker is not None:
                worker.stop()
        self.worker = self.watcher = None
        self.game = None


def seen_card_name(code: str, lang: str, game: str | None = None) -> str:
    """A card's name in its game's words (its folder's; the default game's when `game` is
    not said); a game without words of its own names its cards by their codes."""
    own = plugins.words(DEFAULT if game is None else game)
    return code if own is None else str(own.card_words(code, lang))
