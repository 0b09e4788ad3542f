"""The whole board drawn with Kivy graphics: track, slides in their colours, safety zones,
START and HOME with pawn counts, every pawn, and the highlights of the options.

Two layers: the board itself (redrawn only when the size or slide colours change) and the
pawns with highlights, each place's pawns and each highlight built once and kept (a tap
puts together places already drawn), so a tap's new highlights cost well under a frame.
Taps become board keys (`games.board.screens.layout.key`): the screen decides what a tap
means; this widget only says where it was.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from kivy.clock import Clock
from kivy.core.text import Label as CoreLabel
from kivy.graphics import (
    Canvas,
    ClearBuffers,
    ClearColor,
    Color,
    Ellipse,
    Fbo,
    InstructionGroup,
    Line,
    Mesh,
    Rectangle,
    Triangle,
)
from kivy.metrics import dp
from kivy.properties import (
    BooleanProperty,
    DictProperty,
    ListProperty,
    ObjectProperty,
    StringProperty,
)
from kivy.uix.widget import Widget

from games.board.rules import geometry as g
from games.board.screens import layout
from ui.layout import MIN_TARGET_PX, MIN_TEXT_PX
from ui.marks import draw_mark
from ui.theme import (
    HIGHLIGHT_DARK,
    HIGHLIGHT_LIGHT,
    PREVIEW_RGBA,
    TARGET_FILL,
    ink_on,
    player_rgba,
)
from ui.widgets import text_scale_now

BOARD_BG = (0.93, 0.91, 0.84, 1)
GRID_LINE = (0.55, 0.53, 0.48, 1)
DASHES = 8  # black arcs on a destination's white ring: a pattern, not a colour
SEGMENTS = 28  # circles drawn every frame: round enough at these sizes, cheap to rasterise
# A wide Line's round joints and caps cost a fan of triangles at each of its points: a
# highlight ring drawn with them took three times the CPU of one with mitred joints
# (llvmpipe, the Pi model), and at 28 segments a mitre is the same circle. Open arcs
# (the dashes) end flat.
RING = {"joint": "miter", "cap": "none"}
TAP_REACH = 1.6  # cells: correcting, a finger may miss the pawn it takes by half this
ANY_REACH = 0.75  # cells: a tap on no highlighted place still names the place under it
# cells: correcting the board, a finger must travel this far to move a pawn: under the one
# cell between two squares' centres (at exactly 1.0 a drag to the next square was a tap when
# rounding made it 0.99999 cell, as on a 434 px board)
DRAG_MIN = 0.9
# between the board and its widget's edges: at 800x480 the board met the screen's left edge,
# where its outer squares lost their border and the leftmost column looked cut narrow
EDGE_DP = 3


def _tint(rgba: tuple[float, ...], amount: float) -> tuple[float, float, float, float]:
    """`rgba` mixed with white: safety zones and slide bars are lighter than pawns."""
    r, gr, b = rgba[:3]
    return (r + (1 - r) * amount, gr + (1 - gr) * amount, b + (1 - b) * amount, 1)


def _band(width: float, **line: Any) -> None:
    """A highlight: a white line between black edges, seen on every colour (a circle's
    with RING's joints)."""
    if "circle" in line:
        line.update(RING)
    Color(*HIGHLIGHT_DARK)
    Line(width=width + 1.5, **line)
    Color(*HIGHLIGHT_LIGHT)
    Line(width=width - 0.5, **line)


def _dashed_ring(x: float, y: float, r: float, width: float) -> None:
    """A destination: a white ring broken by DASHES black arcs."""
    Color(*HIGHLIGHT_LIGHT)
    Line(circle=(x, y, r, 0, 360, SEGMENTS), width=width, **RING)
    Color(*HIGHLIGHT_DARK)
    step = 360 / DASHES
    for k in range(DASHES):
        Line(circle=(x, y, r, k * step, k * step + step / 2, SEGMENTS // DASHES + 2),
             width=width, **RING)


_TEXTURES: dict[tuple[str, int, bool], Any] = {}


def _text_texture(text: str, size: int, bold: bool = True) -> Any:
    """A text's texture, made once per text and size (counts and zone names repeat)."""
    cache_key = (text, size, bold)
    tex = _TEXTURES.get(cache_key)
    if tex is None:
        label = CoreLabel(text=text, font_size=size, bold=bold)
        label.refresh()
        tex = _TEXTURES[cache_key] = label.texture
    return tex


class BoardView(Widget):
    """The board. `state` is a position like `replay --json` (players with colour and
    pawns); `sources`, `targets`, `selected` are board keys to highlight; `legs` the
    legs tapped so far (drawn as lines). Events: on_place_tap(key), on_pawn_tap(color, key) (a
    pawn tapped, not dragged, while correcting), on_drop(color, from
    key, to key) in `dragging` mode (correcting the board)."""

    guard_target = True  # tappable all over, for the touch guard (ui.touchguard)
    state = DictProperty({})
    slide_colors = DictProperty({})  # triangle ("T1") -> colour; missing: its side's colour
    sources = ListProperty([])
    targets = ListProperty([])
    selected = StringProperty("")
    legs = ListProperty([])
    dragging = BooleanProperty(False)
    start_label = StringProperty("START")
    home_label = StringProperty("HOME")
    drag_ghost = ObjectProperty(None, allownone=True)  # (color, x, y) while dragging
    preview = ListProperty([])  # the legs ([from key, to key]) of the option under the finger

    __events__ = ("on_place_tap", "on_places_tap", "on_drop", "on_pawn_tap")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._board_trigger = Clock.create_trigger(self.draw_board, -1)
        self._pawn_trigger = Clock.create_trigger(self.draw_pawns, -1)
        self._highlight_trigger = Clock.create_trigger(self.draw_highlights, -1)
        for prop in ("pos", "size", "slide_colors", "start_label", "home_label"):
            self.fbind(prop, self._board_trigger)
        for prop in ("pos", "size", "state", "drag_ghost"):
            self.fbind(prop, self._pawn_trigger)
        for prop in ("pos", "size", "sources", "targets", "selected", "legs", "drag_ghost"):
            self.fbind(prop, self._highlight_trigger)
        self._preview_trigger = Clock.create_trigger(self.draw_preview, -1)
        for prop in ("pos", "size", "preview"):
            self.fbind(prop, self._preview_trigger)
        # Over the board, each redrawn on its own: a tap that lights pawns or places redraws
        # its highlights, not every pawn. Destinations under the pawns, then the pawns,
        # then the bands on what can move and the legs, then the option under the finger.
        self._targets = Canvas()
        self._pawns = Canvas()
        self._bands = Canvas()
        self._preview = InstructionGroup()
        for layer in (self._targets, self._pawns, self._bands, self._preview):
            self.canvas.after.add(layer)
        self._pawns_drawn: tuple[Any, ...] = ()  # what the pawns were drawn for
        self._drag: tuple[str, str] | None = None  # (colour, from key) while a pawn is held
        self._in_fbo = False  # drawing the board into its texture: coordinates from (0, 0)
        self._fbo: Fbo | None = None
        self._drawn: tuple[Any, ...] = ()  # what the board's picture was drawn for
        self._board_rect: Rectangle | None = None
        self._marks: dict[tuple[str, str], Canvas] = {}  # (kind, board key) -> its highlight
        self._marks_for: tuple[Any, ...] = ()  # the board's place and size they were built for
        # (colour, board key, pawns there) -> those pawns drawn (a START or HOME with its count)
        self._pieces: dict[tuple[str, str, int], Canvas] = {}
        self._pieces_for: tuple[Any, ...] = ()  # the board's place, size and text size then

    def rescale(self) -> None:
        """The text size changed (ui.widgets.rescale_all): the zones' words and counts."""
        self._board_trigger()
        self._pawn_trigger()
        self._highlight_trigger()

    # --- geometry ---

    @property
    def side(self) -> float:
        return float(max(0.0, min(self.width, self.height) - 2 * dp(EDGE_DP)))

    @property
    def cell(self) -> float:
        return self.side / layout.GRID

    def origin(self) -> tuple[float, float]:
        """The board's bottom-left corner (the board is centred in the widget)."""
        return self.x + (self.width - self.side) / 2, self.y + (self.height - self.side) / 2

    def to_px(self, point: tuple[float, float]) -> tuple[float, float]:
        ox, oy = (0.0, 0.0) if self._in_fbo else self.origin()
        gx, gy = point
        return ox + gx * self.cell, oy + self.side - gy * self.cell

    def to_grid(self, x: float, y: float) -> tuple[float, float]:
        ox, oy = self.origin()
        return (x - ox) / self.cell, (oy + self.side - y) / self.cell

    def key_px(self, board_key: str) -> tuple[float, float]:
        """Where a board key is drawn, in this widget's parent coordinates."""
        return self.to_px(layout.key_spot(board_key))

    def colors(self) -> list[str]:
        return [p["color"] for p in self.state.get("players", [])]

    # --- the board ---

    def draw_board(self, *_: Any) -> None:
        """Draw the board once into a texture (an Fbo); each frame then draws one textured
        rectangle, so a software renderer does not redraw hundreds of shapes per frame."""
        side = int(self.side)
        drawn = (side, tuple(sorted(self.slide_colors.items())), self.start_label,
                 self.home_label)
        if drawn == self._drawn and self._board_rect is not None:
            self._board_rect.pos = self.origin()  # moved only: the same picture
            return
        self.canvas.before.clear()
        self._drawn, self._board_rect = drawn, None
        if self.side <= 1:
            return
        fbo = self._fbo = Fbo(size=(side, side))
        self._in_fbo = True
        try:
            with fbo:
                ClearColor(0, 0, 0, 0)
                ClearBuffers()
                self._draw_board_shapes()
            fbo.draw()
        finally:
            self._in_fbo = False
        with self.canvas.before:
            Color(1, 1, 1, 1)
            self._board_rect = Rectangle(texture=fbo.texture, pos=self.origin(),
                                         size=(side, side))

    def _draw_board_shapes(self) -> None:
        c = self.cell
        Color(*BOARD_BG)
        Rectangle(pos=(0, 0), size=(self.side, self.side))
        Color(*GRID_LINE)
        edges: list[float] = []
        inside = (0.5, self.side - 0.5)  # a line on the texture's edge is half drawn, or not
        for n in range(g.TRACK_LEN):
            x, y = self.to_px(layout.spot(f"T{n}"))
            x0, y0, x1, y1 = (min(max(v, inside[0]), inside[1])
                              for v in (x - c / 2, y - c / 2, x + c / 2, y + c / 2))
            edges += [x0, y0, x1, y0, x1, y0, x1, y1, x1, y1, x0, y1, x0, y1, x0, y0]
        Mesh(vertices=[v for i in range(0, len(edges), 2) for v in (edges[i], edges[i + 1], 0, 0)],
             indices=list(range(len(edges) // 2)), mode="lines")
        for slide in g.SLIDES:
            self._draw_slide(slide)
        for color in g.COLORS:
            self._draw_zones(color)

    def _draw_slide(self, slide: g.Slide) -> None:
        c = self.cell
        color = self.slide_colors.get(f"T{slide.start}", g.COLORS[slide.side])
        rgba = player_rgba(color)
        x0, y0 = self.to_px(layout.spot(f"T{slide.start}"))
        x1, y1 = self.to_px(layout.spot(f"T{slide.end}"))
        Color(*_tint(rgba, 0.25))
        Line(points=[x0, y0, x1, y1], width=max(1.0, c * 0.14))
        Color(*rgba)
        # the triangle points along the slide, the end is a circle
        dx, dy = (x1 - x0), (y1 - y0)
        length = max(1e-6, (dx * dx + dy * dy) ** 0.5)
        ux, uy = dx / length, dy / length
        half = c * 0.38
        Triangle(points=[x0 + ux * half, y0 + uy * half,
                         x0 - ux * half - uy * half, y0 - uy * half + ux * half,
                         x0 - ux * half + uy * half, y0 - uy * half - ux * half])
        r = c * 0.3
        Ellipse(pos=(x1 - r, y1 - r), size=(2 * r, 2 * r))

    def _draw_zones(self, color: str) -> None:
        c = self.cell
        rgba = player_rgba(color)
        Color(*_tint(rgba, 0.45))
        for k in range(1, g.SAFETY_LEN + 1):
            x, y = self.to_px(layout.spot(f"S{k}", color))
            Rectangle(pos=(x - c / 2 + 1, y - c / 2 + 1), size=(c - 2, c - 2))
        r = layout.ZONE_RADIUS * c
        for location, label in ((g.START, self.start_label), (g.HOME, self.home_label)):
            x, y = self.to_px(layout.spot(location, color))
            Color(*_tint(rgba, 0.6))
            Ellipse(pos=(x - r, y - r), size=(2 * r, 2 * r))
            Color(*rgba)
            Line(circle=(x, y, r), width=max(1.0, c * 0.08))
            # the words printed on the board keep the board's scale (larger, they cover the pawns)
            tex = _text_texture(label, max(MIN_TEXT_PX, int(c * 0.42)))
            Color(0.15, 0.15, 0.15, 1)
            Rectangle(texture=tex, size=tex.size, pos=(x - tex.width / 2, y + r * 0.38))

    # --- pawns and highlights ---

    def occupants(self) -> dict[str, tuple[str, int]]:
        """Board key -> (colour, number of that colour's pawns there)."""
        out: dict[str, tuple[str, int]] = {}
        for p in self.state.get("players", []):
            for location in p.get("pawns", []):
                k = layout.key(location, p["color"])
                out[k] = (p["color"], out.get(k, (p["color"], 0))[1] + 1)
        return out

    def draw_pawns(self, *_: Any) -> None:
        """The pawns, laid out again only when one moved (or the board moved or was
        resized): a new position that only changed the card keeps them. Each place's
        pawns are built once and kept (`_piece`), so a move builds the squares it reached
        for the first time, not every pawn on the board."""
        if self.side <= 1:
            self._pawns.clear()
            self._pawns_drawn = ()
            return
        occupants = self.occupants()
        drawn = (tuple(self.pos), self.side, tuple(sorted(occupants.items())),
                 tuple(self.colors()), self._drag, text_scale_now())
        if drawn == self._pawns_drawn:
            return
        self._pawns_drawn = drawn
        self._pawns.clear()
        held = self._drag[1] if self._drag is not None else None
        for color in self.colors():
            for location in (g.START, g.HOME):
                k = layout.key(location, color)
                n = occupants.get(k, (color, 0))[1] - (1 if k == held else 0)
                self._pawns.add(self._piece(color, k, n))
        for k, (color, _n) in occupants.items():
            if k != held and not layout.is_zone(layout.unkey(k)[1]):
                self._pawns.add(self._piece(color, k, 1))

    def _piece(self, color: str, board_key: str, n: int) -> Canvas:
        """`n` pawns of `color` at a place (a START or HOME: up to four, and the count),
        built the first time they are asked for at this size and place of the board and
        text size, then kept (emptied as `_mark`'s are)."""
        where = (tuple(self.pos), self.side, text_scale_now())
        if where != self._pieces_for:
            self._pieces.clear()
            self._pieces_for = where
        found = self._pieces.get((color, board_key, n))
        if found is None:
            found = self._pieces[(color, board_key, n)] = Canvas()
            with found:
                if layout.is_zone(layout.unkey(board_key)[1]):
                    self._draw_zone_pawns(color, board_key, n)
                else:
                    x, y = self.key_px(board_key)
                    self._pawn(color, x, y, self.cell * 0.34)
        return found

    def draw_highlights(self, *_: Any) -> None:
        """The destinations (under the pawns), the bands on the pawns that can move and on
        the one picked, the legs chosen so far, and a pawn held while correcting. A place's
        ring or band is built once and kept (`_mark`): a tap lights places already drawn."""
        self._targets.clear()
        self._bands.clear()
        if self.side <= 1:
            return
        for k in self.targets:
            self._targets.add(self._mark("target", k))
        for k in self.sources:
            self._bands.add(self._mark("source", k))
        if self.selected:
            self._bands.add(self._mark("selected", self.selected))
        if not self.legs and self.drag_ghost is None:
            return
        c = self.cell
        with self._bands:
            for frm, to in self.legs:
                (x0, y0), (x1, y1) = self.key_px(frm), self.key_px(to)
                _band(points=[x0, y0, x1, y1], width=max(1.5, c * 0.07))
            if self.drag_ghost is not None:  # the pawn held while correcting, on top
                color, x, y = self.drag_ghost
                self._pawn(color, x, y, c * 0.45)

    def _mark(self, kind: str, board_key: str) -> Canvas:
        """The highlight `kind` ("target", "source", "selected") of a place, built the first
        time it is asked for at this size and place of the board, then kept: building a
        wide Line's triangles cost more than drawing it."""
        where = (tuple(self.pos), self.side)
        if where != self._marks_for:
            self._marks.clear()
            self._marks_for = where
        found = self._marks.get((kind, board_key))
        if found is None:
            found = self._marks[(kind, board_key)] = Canvas()
            x, y = self.key_px(board_key)
            c = self.cell
            zone = layout.is_zone(layout.unkey(board_key)[1])
            width = max(2.0, c * 0.08)
            with found:
                if kind == "target":
                    r = c * 0.5
                    Color(*TARGET_FILL)
                    Ellipse(pos=(x - r, y - r), size=(2 * r, 2 * r), segments=SEGMENTS)
                    _dashed_ring(x, y, r, max(1.5, c * 0.08))
                elif kind == "source":
                    r = c * (layout.ZONE_RADIUS if zone else 0.5)
                    _band(circle=(x, y, r, 0, 360, SEGMENTS), width=width)
                else:  # a double band: the picked pawn stands out from the others that can move
                    r = c * (layout.ZONE_RADIUS if zone else 0.52)
                    _band(circle=(x, y, r, 0, 360, SEGMENTS), width=width)
                    _band(circle=(x, y, r + c * 0.2, 0, 360, SEGMENTS), width=width)
        return found

    def draw_preview(self, *_: Any) -> None:
        """The option under the finger: a ring on each leg's origin, a ring and a dot on
        its destination, an arrow line between (one colour, told apart by shape)."""
        group = self._preview
        group.clear()
        if self.side <= 1:
            return
        c = self.cell
        for frm, to in self.preview:
            (x0, y0), (x1, y1) = self.key_px(frm), self.key_px(to)
            for rgba, extra in ((HIGHLIGHT_DARK, c * 0.06), (PREVIEW_RGBA, 0.0)):
                width = max(1.5, c * 0.09) + extra
                group.add(Color(*rgba))
                group.add(Line(points=[x0, y0, x1, y1], width=width))
                for x, y, k in ((x0, y0, frm), (x1, y1, to)):
                    r = c * (layout.ZONE_RADIUS + 0.08 if layout.is_zone(layout.unkey(k)[1])
                             else 0.62)
                    group.add(Line(circle=(x, y, r, 0, 360, SEGMENTS), width=width, **RING))
                dot = c * 0.16 + extra
                group.add(Ellipse(pos=(x1 - dot, y1 - dot), size=(2 * dot, 2 * dot),
                                  segments=SEGMENTS))

    def _draw_zone_pawns(self, color: str, board_key: str, n: int) -> None:
        """Up to four of `n` pawns in a START or HOME circle, and the count under them."""
        c = self.cell
        x, y = self.key_px(board_key)
        for i in range(min(n, 4)):
            px = x + (i - (min(n, 4) - 1) / 2) * c * 0.52
            self._pawn(color, px, y, c * 0.24)
        tex = _text_texture(str(n), int(max(MIN_TEXT_PX * text_scale_now(), c * 0.55)))
        Color(0.1, 0.1, 0.1, 1)
        Rectangle(texture=tex, size=tex.size,
                  pos=(x - tex.width / 2, y - layout.ZONE_RADIUS * c * 0.5 - tex.height / 2))

    @staticmethod
    def _pawn(color: str, x: float, y: float, r: float) -> None:
        Color(0.08, 0.08, 0.08, 1)
        Ellipse(pos=(x - r - 1.5, y - r - 1.5), size=(2 * r + 3, 2 * r + 3), segments=SEGMENTS)
        Color(*player_rgba(color))
        Ellipse(pos=(x - r, y - r), size=(2 * r, 2 * r), segments=SEGMENTS)
        draw_mark(color, x, y, r * 0.6, ink_on(color))

    # --- touches ---

    def place_at(self, x: float, y: float, among: Iterable[str] | None = None,
                 reach: float = ANY_REACH) -> str | None:
        """The board key at (x, y) (parent coordinates): the nearest of `among` within
        `reach` cells, or of every place on the board."""
        keys = list(among) if among is not None else layout.every_key(tuple(g.COLORS))
        return layout.nearest(self.to_grid(x, y), keys, reach)

    def under_finger(self, x: float, y: float) -> list[str]:
        """The highlighted places a fingertip (48 px, or the square if larger) at (x, y)
        covers: the destinations once a pawn is picked, else the pawns that can move."""
        half = max(0.5, MIN_TARGET_PX / 2 / max(self.cell, 1.0))
        gx, gy = self.to_grid(x, y)
        wanted = list(self.targets) if self.selected else list(self.sources)
        out = []
        for k in wanted:
            kx, ky = layout.key_spot(k)
            reach = half + (layout.ZONE_RADIUS - 0.5 if layout.is_zone(layout.unkey(k)[1])
                            else 0)
            if abs(kx - gx) <= reach and abs(ky - gy) <= reach:
                out.append(k)
        return out

    def tap_key(self, x: float, y: float) -> str | list[str] | None:
        """What a tap at (x, y) names: the one highlighted place under the finger; a list
        when it covers several (too close to tell apart: the screen asks); else the
        selected pawn or the place under it."""
        covered = self.under_finger(x, y)
        if len(covered) == 1:
            return covered[0]
        if covered:
            return covered
        if self.selected and self.place_at(x, y, [self.selected], 0.5):
            return str(self.selected)
        return self.place_at(x, y)

    def on_touch_down(self, touch: Any) -> bool:
        if not self.collide_point(*touch.pos):
            return bool(super().on_touch_down(touch))
        if self.dragging:
            x, y = touch.pos
            k = self.place_at(x, y, list(self.occupants()), TAP_REACH / 2)
            if k is None:
                return True
            self._drag = (self.occupants()[k][0], k)
            touch.grab(self)
            self.drag_ghost = (self._drag[0], *touch.pos)
            return True
        named = self.tap_key(*touch.pos)
        if named is not None:
            touch.ud["board_key"] = named
            touch.grab(self)
        return True

    def on_touch_move(self, touch: Any) -> bool:
        if touch.grab_current is self and self._drag is not None:
            self.drag_ghost = (self._drag[0], *touch.pos)
            return True
        return bool(super().on_touch_move(touch))

    def on_touch_up(self, touch: Any) -> bool:
        if touch.grab_current is not self:
            return bool(super().on_touch_up(touch))
        touch.ungrab(self)
        if self._drag is not None:
            color, frm = self._drag
            self._drag, self.drag_ghost = None, None
            (x0, y0), (x1, y1) = self.to_grid(*touch.opos), self.to_grid(*touch.pos)
            if math.hypot(x1 - x0, y1 - y0) < DRAG_MIN:  # a tap: the pawn is picked only
                self.dispatch("on_pawn_tap", color, frm)
                return True
            own = [k for k in layout.every_key((color,)) if k != frm]
            to = self.place_at(*touch.pos, own, ANY_REACH * 1.5)
            if to != frm:
                self.dispatch("on_drop", color, frm, to)  # to None: dropped off the board
            return True
        k = touch.ud.get("board_key")
        if isinstance(k, list):
            self.dispatch("on_places_tap", k, touch)
        elif k is not None:
            self.dispatch("on_place_tap", k, touch)
        return True

    def on_place_tap(self, board_key: str, touch: Any) -> None:
        pass

    def on_drop(self, color: str, frm: str, to: str) -> None:
        pass

    def on_pawn_tap(self, color: str, board_key: str) -> None:
        pass

    def on_places_tap(self, board_keys: list[str], touch: Any) -> None:
        pass
