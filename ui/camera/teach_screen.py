"""Menu > Teach the camera: each face of the chosen game in turn, photographed on the pile.

The screen says which face to lay ("Lay a 7 on the pile"), shows the camera's view with
the pile spot framed (ui.camera.preview, read on its own thread), and a tap takes the
newest frame as that face's photo once a card is found in it; then it asks for the card
moved a little and turned, and takes PHOTOS_A_FACE photos a face (camera.cards says why).
Photos are kept in the data folder (camera-photos-<game>/<face>/, the folder layout
`camera teach` reads), so one face can be taught again alone (a deck saved without a
face asks for that face first when chosen again); when every face has its photos the
deck is taught with the same code as the command line, saved where the app looks
(camera-<game>.npz), and the faces too alike to tell apart are named with how to fix it.
"""

from __future__ import annotations

import logging
import shutil
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.metrics import sp
from kivy.properties import (
    BooleanProperty,
    ListProperty,
    NumericProperty,
    ObjectProperty,
    StringProperty,
)
from kivy.uix.screenmanager import Screen

from camera.cards import PHOTOS_A_FACE
from ui.camera_link import seen_card_name
from ui.i18n import tr

DEFAULT_SPOT = (0.25, 0.2, 0.75, 0.8)  # framed before any deck is taught: the middle
log = logging.getLogger(__name__)


def teach_screens() -> list[str]:
    """The screens games bring to teach their camera more than a deck (a slice's
    optional `teach_screen`), in the registry's order."""
    from ui import games

    screens = (getattr(games.get(name), "teach_screen", None) for name in games.names())
    return [s for s in screens if s]


def photo_folder(data_dir: Path, game: str) -> Path:
    return Path(data_dir) / f"camera-photos-{game}"


class TeachScreen(Screen):
    game = StringProperty("")  # "" : choosing the game
    faces = ListProperty([])  # the game's card names, in teaching order
    index = NumericProperty(0)  # the face asked for; len(faces): all taken
    shot = NumericProperty(0)  # that face's photos taken so far
    prompt = StringProperty("")
    message = StringProperty("")
    view = ObjectProperty(None, allownone=True)  # the preview's texture
    no_camera = BooleanProperty(False)  # no camera answers: what to plug in, and no more

    preview: Any = None

    def on_kv_post(self, *_: Any) -> None:
        """One button a game with a camera deck, in the registry's order: its id
        `teach_<game>`, its words the catalogue's `teach_<game>`."""
        from kivy.factory import Factory

        from camera.cards import games

        app = App.get_running_app()
        for game in games():
            button = Factory.TapButton(code=f"teach:{game}")
            button.bind(on_release=lambda b: self.choose(b.code.split(":", 1)[1]))
            self.ids[f"teach_{game}"] = button
            self.ids.teach_games.add_widget(button)
        for screen in teach_screens():  # a game's own teach screen (its board): a link
            link = Factory.TapButton(code=f"screen:{screen}")
            link.bind(on_release=lambda b: app.show(b.code.split(":", 1)[1]))
            self.ids[f"teach_{screen}"] = link
            self.ids.teach_games.add_widget(link)
        self.bind(game=self._light_game)
        app.bind(lang=self._word_games)
        self._light_game()
        self._word_games()

    def _game_buttons(self) -> list[Any]:
        return list(reversed(self.ids.teach_games.children))

    def _light_game(self, *_: Any) -> None:
        for button in self._game_buttons():
            button.selected = button.code == f"teach:{self.game}"

    def _word_games(self, *_: Any) -> None:
        lang = App.get_running_app().lang
        for button in self._game_buttons():
            button.text = tr(button.code.replace(":", "_", 1), lang)

    def on_leave(self, *_: Any) -> None:
        self._stop_preview()

    def on_faces(self, *_: Any) -> None:
        """One small button a face, to teach that face again."""
        from kivy.factory import Factory

        grid = self.ids.teach_faces
        grid.clear_widgets()
        for card in self.faces:
            button = Factory.TapButton(code=card, text=self._name(card), max_font_size=sp(18))
            button.bind(on_release=lambda b: self.again(b.code))
            grid.add_widget(button)

    # --- choosing the game, opening the camera ---

    def choose(self, game: str) -> None:
        from camera.cards import card_names
        from camera.extra import MissingExtra, require

        self.message = ""
        try:
            require()
        except MissingExtra as exc:
            self._say_no_camera(str(exc))
            return
        if self.preview is None and not self.open_camera():
            return
        self.game, self.faces = game, list(card_names(game))
        self._next_face()
        untaught = self._untaught() if self.index >= len(self.faces) else None
        if untaught is not None:  # every photo kept, the deck saved without this face
            self.again(untaught)
            return
        self._say_prompt()

    def open_camera(self, source: Any = None) -> bool:
        """Show the camera of `[camera] source` (or `source`, a FrameSource: tests);
        False when none answers (then the screen says what to plug in, and no more)."""
        from camera.sources import SourceError
        from ui.camera.preview import Preview, camera_source

        self._stop_preview()
        app = App.get_running_app()
        try:
            source = source or camera_source(app)
        except SourceError as exc:
            self._say_no_camera(str(exc))
            return False
        self.no_camera = False
        self.preview = Preview(source, self._spot(), shown=self._shown).start()
        return True

    def _say_no_camera(self, why: str) -> None:
        """No camera to teach with: which one to plug in, in a family's words; the
        engineer's reason goes to the log (Menu > Hardware and `doctor` say it too)."""
        from ui.camera.preview import camera_config

        log.warning("teach the camera: no camera: %s", why)
        self._stop_preview()
        lang = App.get_running_app().lang
        source = str(camera_config(App.get_running_app()).source)
        kind = "usb" if source.startswith("usb") else "picamera"
        self.game, self.faces, self.view, self.no_camera = "", [], None, True
        self.prompt = tr("teach_no_camera", lang)
        self.message = tr(f"teach_plug_{kind}", lang)

    def _shown(self) -> None:
        preview = self.preview
        if preview is None:
            return
        if self.view is not preview.texture:
            self.view = preview.texture
        self.ids.teach_view.canvas.ask_update()  # the same texture, new pixels
        if preview.error:
            self._say_no_camera(str(preview.error))

    def _stop_preview(self) -> None:
        if self.preview is not None:
            self.preview.stop()
            self.preview = None

    def _spot(self) -> tuple[float, float, float, float]:
        from ui.camera.preview import camera_config

        spot = camera_config(App.get_running_app()).spot
        return (spot[0], spot[1], spot[2], spot[3]) if spot else DEFAULT_SPOT

    # --- photos ---

    def take(self) -> None:
        """The newest frame as the asked face's photo, if a card lies in it."""
        import cv2

        from camera.cards import folder_name
        from camera.locate import find_card

        lang = App.get_running_app().lang
        frame = None if self.preview is None else self.preview.frame()
        if self.index >= len(self.faces):
            return
        card = self.faces[self.index]
        if frame is None:
            self.message = tr("teach_no_frame", lang)
            return
        if find_card(frame) is None:
            self.message = tr("teach_no_card", lang)  # retaken at once: never a lost deck
            return
        folder = photo_folder(self._data_dir(), self.game) / folder_name(card)
        if self.shot == 0:  # taught (again): the new photos replace the old
            shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True, exist_ok=True)
        cv2.imwrite(str(folder / f"photo{self.shot + 1}.png"), frame)
        self.message = tr("teach_taken", lang, card=self._name(card))
        if self.shot + 1 < PHOTOS_A_FACE:
            self.shot += 1
            self._say_prompt()
            return
        self._next_face()
        if self.index >= len(self.faces):
            self.finish()
        else:
            self._say_prompt()

    def again(self, card: str) -> None:
        """Teach one face again: its photo is taken anew, then the deck is taught again."""
        if card in self.faces:
            self.index, self.shot = self.faces.index(card), 0
            self._say_prompt()

    def finish(self) -> list[str]:
        """Teach the deck from the kept photos and save it; the report's lines are shown."""
        from camera.model import save
        from camera.teach import TeachError, photos_in, teach
        from companion.config import CameraConfig

        lang = App.get_running_app().lang
        try:
            taught = teach(photos_in(photo_folder(self._data_dir(), self.game), self.game),
                           self.game)
        except TeachError as exc:
            self.message = str(exc)
            return []
        save(taught.model, CameraConfig.model_file(self._data_dir(), self.game))
        retake = self._retake(taught.missing, taught.unseen)
        if retake is not None:  # its card found here, not by teaching: asked again at once
            self.again(retake)
            self.message = tr("teach_no_card", lang)
            return [self.message]
        lines = [tr("teach_done", lang, n=len(taught.model.cards()))]
        if taught.alike:
            pairs = ", ".join(tr("teach_pair", lang, first=self._name(a), second=self._name(b))
                              for a, b, _score in taught.alike)
            lines.append(tr("teach_alike", lang, pairs=pairs))
        self.prompt = lines[0]
        self.message = " ".join(lines[1:])
        return lines

    def _untaught(self) -> str | None:
        """The first face the saved deck lacks (taught partly: a family coming back to
        finish the deck is asked for it), or None."""
        from camera.model import ModelError, load
        from companion.config import CameraConfig

        try:
            missing = load(CameraConfig.model_file(self._data_dir(), self.game)).missing()
        except ModelError:  # none saved yet (or unusable): the faces in order, as before
            return None
        return missing[0] if missing else None

    def _retake(self, missing: Iterable[str], unseen: Iterable[str]) -> str | None:
        """The first face (in teaching order) left out of the deck or with a photo left
        out (camera.teach: the screen's quick look found a card there, teaching's finer
        one did not), or None."""
        from camera.cards import card_from_folder

        again = set(missing) | {card_from_folder(Path(name).parent.name) for name in unseen}
        return next((card for card in self.faces if card in again), None)

    # --- words ---

    def _say_prompt(self) -> None:
        lang = App.get_running_app().lang
        if self.index >= len(self.faces):  # every face has its photo: a tap re-teaches one
            self.prompt = tr("teach_done", lang, n=len(self.faces))
            return
        card = self.faces[self.index]
        if self.shot:
            self.prompt = tr("teach_move", lang, card=self._name(card), k=self.shot + 1,
                             m=PHOTOS_A_FACE)
            return
        self.prompt = tr("teach_lay", lang, card=self._name(card), n=self.index + 1,
                         total=len(self.faces))

    def _name(self, card: str) -> str:
        return seen_card_name(card, App.get_running_app().lang)

    def _next_face(self) -> None:
        """Ask for the first face with fewer than PHOTOS_A_FACE photos kept, from its next
        photo (a deck taught with fewer photos a face, or left half way, goes on there)."""
        from camera.cards import folder_name

        root = photo_folder(self._data_dir(), self.game)
        for i, card in enumerate(self.faces):
            folder = root / folder_name(card)
            kept = sum(1 for _ in folder.iterdir()) if folder.is_dir() else 0
            if kept < PHOTOS_A_FACE:
                self.index, self.shot = i, kept
                return
        self.index, self.shot = len(self.faces), 0

    def _data_dir(self) -> Path:
        return Path(App.get_running_app().data_dir)
