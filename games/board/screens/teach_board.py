"""Menu > Teach the camera > The board: one photo of the board set up for a game, what was
found drawn over it, a corner dragged by a finger where it is wrong, and Save.

The photo is the live view's newest frame (ui.camera.preview); teaching is the command
line's (games.board.camera.model.teach), and the model is saved where the board screen's
watcher reads it (games.board.camera_watch.model_path). When the board is not found,
find's one sentence says what to change and the live view is back at once for the next
photo.
"""

from __future__ import annotations

import logging
from typing import Any

from kivy.app import App
from kivy.graphics.texture import Texture
from kivy.metrics import dp
from kivy.properties import BooleanProperty, ListProperty, ObjectProperty, StringProperty
from kivy.uix.screenmanager import Screen

from games.board.camera_watch import model_path
from games.board.rules import geometry as g
from games.board.screens.texts import bt

GRAB = 48  # dp: how near a corner a finger must come down to drag it
log = logging.getLogger(__name__)


def to_texture(image: Any) -> Texture:
    """A BGR picture as a Kivy texture, top row up."""
    h, w = image.shape[:2]
    texture = Texture.create(size=(w, h), colorfmt="rgb")
    texture.flip_vertical()
    texture.blit_buffer(image.tobytes(), colorfmt="bgr", bufferfmt="ubyte")
    return texture


def not_found(exc: Any, lang: str) -> str:
    """find's sentence (what to change) in the family's language: `bt_nf_<why>`, the
    missing colours named; a reason without words of its own as find wrote it."""
    from games.board.screens.texts import color_name
    from ui.wording import sentence

    if not exc.why:
        return sentence(str(exc))
    colors = ", ".join(color_name(c, lang) for c in exc.missing)
    return bt(f"bt_nf_{exc.why}", lang, colors=colors)


class BoardTeachScreen(Screen):
    view = ObjectProperty(None, allownone=True)  # the live view's, or the photo drawn over
    message = StringProperty("")
    no_camera = BooleanProperty(False)
    taken = BooleanProperty(False)  # a photo with the board found: drag, Save or retake
    colors = ListProperty(list(g.COLORS))  # the seated colours whose pawns are in START
    edition = StringProperty("classic")
    corners = ListProperty([])  # the board's outer corners found or dragged, photo pixels
    photo: Any = None
    preview: Any = None
    _dragged: int | None = None

    def on_enter(self, *_: Any) -> None:
        if self.preview is None and not self.taken:
            self.open_camera()

    def on_leave(self, *_: Any) -> None:
        self._stop_preview()

    def open_camera(self, source: Any = None) -> bool:
        """The live view of `[camera] source` (or `source`, a FrameSource: tests); False,
        with one sentence what to plug in or install, when there is none."""
        from camera.extra import MissingExtra, require
        from camera.sources import SourceError
        from ui.camera.preview import Preview, camera_source

        self._stop_preview()
        self.taken, self.photo = False, None
        try:
            require()
            source = source or camera_source(App.get_running_app())
        except (MissingExtra, SourceError) as exc:
            self._say_no_camera(exc)
            return False
        self.no_camera = False
        self.preview = Preview(source, None, shown=self._shown).start()
        return True

    def _say_no_camera(self, why: Exception) -> None:
        from camera.extra import MissingExtra
        from ui.camera.preview import camera_config
        from ui.i18n import tr

        log.warning("teach the board: no camera: %s", why)
        self._stop_preview()
        lang = App.get_running_app().lang
        if isinstance(why, MissingExtra):
            self.message = str(why)
        else:
            source = str(camera_config(App.get_running_app()).source)
            self.message = tr("teach_plug_usb" if source.startswith("usb")
                              else "teach_plug_picamera", lang)
        self.no_camera, self.view = True, None

    def _shown(self) -> None:
        preview = self.preview
        if preview is None or self.taken:
            return
        if self.view is not preview.texture:
            self.view = preview.texture
        self.ids.board_teach_view.canvas.ask_update()
        if preview.error:
            self._say_no_camera(RuntimeError(preview.error))

    def _stop_preview(self) -> None:
        if self.preview is not None:
            self.preview.stop()
            self.preview = None

    # --- the photo ---

    def take(self) -> None:
        """The newest frame taught from: the board found is drawn over it, or find's
        sentence says what to change and the live view goes on."""
        from games.board.camera.find import NotFound
        from games.board.camera.model import teach

        lang = App.get_running_app().lang
        frame = None if self.preview is None else self.preview.frame()
        if frame is None:
            self.message = bt("bt_no_frame", lang)
            return
        try:
            model = teach(frame, self.edition, self.seated())
        except NotFound as exc:
            self.message = not_found(exc, lang)  # the live view stays: the next photo at once
            return
        self._stop_preview()
        self.photo, self.corners = frame, model.corners.tolist()
        self.taken = True
        self.message = bt("bt_found", lang)
        self._draw()

    def retake(self) -> None:
        self.message = ""
        self.open_camera()

    def seated(self) -> tuple[str, ...]:
        return tuple(c for c in g.COLORS if c in self.colors)

    def toggle_color(self, color: str) -> None:
        chosen = set(self.colors) ^ {color}
        if len(chosen) >= 2:
            self.colors = [c for c in g.COLORS if c in chosen]

    def toggle_edition(self) -> None:
        self.edition = "2016" if self.edition == "classic" else "classic"

    def save(self) -> bool:
        """The board taught from the photo with the corners as shown, saved; False with
        one sentence when it cannot be."""
        from games.board.camera.find import NotFound
        from games.board.camera.model import save, teach

        lang = App.get_running_app().lang
        if not self.taken:
            return False
        try:
            model = teach(self.photo, self.edition, self.seated(), self.corners)
            save(model, model_path(App.get_running_app().data_dir))
        except NotFound as exc:
            self.message = not_found(exc, lang)
            return False
        except OSError as exc:
            self.message = bt("bt_not_saved", lang, why=exc.strerror or str(exc))
            return False
        self.message = bt("bt_saved", lang)
        return True

    def _draw(self) -> None:
        from games.board.camera.overlay import drawn

        self.view = to_texture(drawn(self.photo, self.corners, self.seated()))

    # --- dragging a corner ---

    def photo_to_window(self, x: float, y: float) -> tuple[float, float]:
        """Where a pixel of the photo is shown, in window coordinates."""
        left, bottom, scale = self._shown_at()
        h = self.photo.shape[0]
        wx, wy = self.ids.board_teach_view.to_window(left + x * scale, bottom + (h - y) * scale)
        return float(wx), float(wy)

    def window_to_photo(self, wx: float, wy: float) -> tuple[float, float]:
        """The photo's pixel under a window position, kept inside the photo."""
        left, bottom, scale = self._shown_at()
        h, w = self.photo.shape[:2]
        x, y = self.ids.board_teach_view.to_widget(wx, wy)
        return (min(max((x - left) / scale, 0.0), w - 1.0),
                min(max(h - (y - bottom) / scale, 0.0), h - 1.0))

    def _shown_at(self) -> tuple[float, float, float]:
        """The shown photo's left and bottom (the view's coordinates) and its scale."""
        image = self.ids.board_teach_view
        nw, nh = image.norm_image_size
        return image.center_x - nw / 2, image.center_y - nh / 2, nw / self.photo.shape[1]

    def _window_pos(self, touch: Any) -> tuple[float, float]:
        x, y = self.parent.to_window(*touch.pos) if self.parent else touch.pos
        return float(x), float(y)

    def on_touch_down(self, touch: Any) -> bool:
        if self.taken:
            wx, wy = self._window_pos(touch)
            near = [(abs(cx - wx) + abs(cy - wy), i) for i, (cx, cy) in
                    enumerate(self.photo_to_window(*c) for c in self.corners)]
            dist, index = min(near)
            if dist <= dp(GRAB):
                self._dragged = index
                touch.grab(self)
                return True
        return bool(super().on_touch_down(touch))

    def on_touch_move(self, touch: Any) -> bool:
        if touch.grab_current is self and self._dragged is not None:
            self.corners[self._dragged] = list(self.window_to_photo(*self._window_pos(touch)))
            self._draw()
            return True
        return bool(super().on_touch_move(touch))

    def on_touch_up(self, touch: Any) -> bool:
        if touch.grab_current is self:
            touch.ungrab(self)
            self._dragged = None
            return True
        return bool(super().on_touch_up(touch))
