"""The board game as Kivy properties: what the board screen binds to.

It reads the live game's typed update (a BoardLive: companion.live.Live over the board's
rules) as one snapshot per update, keeps the taps of the current turn in a Picker, turns
both into what is highlighted and said, and submits the board's typed events straight.
Listeners of the live game may run on any thread (a GPIO seat button drawing a card):
they only fire a Clock trigger.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from kivy.clock import Clock
from kivy.properties import (
    BooleanProperty,
    DictProperty,
    ListProperty,
    NumericProperty,
    StringProperty,
)

from companion.errors import CompanionError, NoGame
from companion.session import Redo, Undo
from games.board.rules import RULES, BoardSetup, Draw, Move, NoPlay, Place, draw_card
from games.board.screens import layout
from games.board.screens.door import BoardLive, BoardSnapshot, BoardUpdate
from games.board.screens.picker import Picker
from games.board.screens.texts import (
    bt,
    card_label,
    color_name,
    describe,
    loc_name,
    loc_on,
    why,
)
from ui.gamemodel import GameModel

Speaker = Callable[[str, str], None]
PLAYING = ("card", "draw", "move")  # the phases of a game in play (not none, not over)


class BoardModel(GameModel):
    revision = NumericProperty(0)
    phase = StringProperty("none")  # none, card (tap the card), draw, move, over
    state = DictProperty({})
    slide_colors = DictProperty({})

    turn_text = StringProperty("")
    turn_color = StringProperty("")
    card_text = StringProperty("")
    left_text = StringProperty("")
    left_rows = ListProperty([])  # [{"card": label, "n": count}]
    hint = StringProperty("")
    why_text = StringProperty("")  # the rule behind the last message or option asked
    why_open = BooleanProperty(False)  # a forfeit: its why is shown without asking
    rows = ListProperty([])  # the listed options: {"index", "text", "kind"}
    single = BooleanProperty(False)  # exactly one option: one tap "Move"
    can_decline = BooleanProperty(False)

    sources = ListProperty([])
    targets = ListProperty([])
    selected = StringProperty("")
    legs = ListProperty([])
    preview = ListProperty([])  # the option under the finger: its legs as board keys

    correcting = BooleanProperty(False)
    picked = StringProperty("")  # correcting: the pawn tapped (board key), to be dragged
    adult = BooleanProperty(False)  # the adult variation: hands of 5, "no playable card"
    discarding = BooleanProperty(False)  # "no playable card" tapped: which card goes?
    winner_text = StringProperty("")
    # the electronic deck's randomness: None is the system's (fair, unseeded); a test that
    # plays a game to a given end sets its own seeded one, so the game is always the same
    deck: random.Random | None = None

    def __init__(self, live: BoardLive, *, speak: Speaker | None = None,
                 view: Callable[[], BoardSnapshot | None] | None = None,
                 **kwargs: Any) -> None:
        """`view`: the snapshot to show (default: the live update's, made once per
        update); the screen's tests script it."""
        self.live = live
        self.speak = speak
        self.view = view or self._live_view
        self.snap: BoardSnapshot | None = None
        self._seen: tuple[BoardUpdate | None, BoardSnapshot | None] = (None, None)
        self.picker: Picker | None = None
        self._trigger = Clock.create_trigger(self.refresh, -1)
        super().__init__(**kwargs)
        self._unsubscribe = live.subscribe(lambda _update: self._trigger())

    def close(self) -> None:
        self._unsubscribe()

    def on_phase(self, *_: Any) -> None:
        self.in_play = self.phase in PLAYING

    def _live_view(self) -> BoardSnapshot | None:
        """The live update's snapshot, made once per update (a language change or a
        second refresh shows the same one)."""
        update = self.live.update
        seen, snap = self._seen
        if update is not seen or update is None:
            from games.board.screens.snapshot import snapshot_of

            snap = snapshot_of(update)
            self._seen = (update, snap)
        return snap

    @property
    def companion_draws(self) -> bool:
        """Whether the companion draws this game's cards (a seat's button is "Draw")."""
        state = self.live.state
        return state is not None and state.setup.draws == "companion"

    def on_lang(self, *_: Any) -> None:
        self.message = self.why_text = ""
        self.refresh()

    # --- following the game ---

    def refresh(self, *_: Any) -> None:
        """Recompute everything from the door's snapshot; the taps of the turn restart."""
        snap = self.view()
        previous, self.snap = self.snap, snap
        if snap is None:
            self.phase = "none"
            return
        st = snap.state
        lang = self.lang
        self.state = st
        self.slide_colors = dict((st.get("settings") or {}).get("slide_colors") or {})
        self.adult = bool((st.get("settings") or {}).get("adult"))
        players = {p["name"]: p for p in st.get("players", [])}
        turn = st.get("turn")
        shown = turn if turn in players else st.get("winner")
        self.turn_color = players[shown]["color"] if shown in players else ""
        self.turn_text = bt("b_turn", lang, name=turn) if turn else ""
        self.card_text = card_label(st.get("card"), lang)
        remaining = st.get("remaining") or {}
        from games.board.rules import CARDS  # loaded with the first board game

        self.left_rows = [{"card": card_label(c, lang), "n": int(remaining.get(c, 0))}
                          for c in CARDS if c in remaining]
        over = bool(st.get("winner")) and st.get("turn") is None  # play_on: others go on first
        self.left_text = (  # no deck to count once the game is over
            bt("b_left", lang, n=st.get("draw_pile", 0)) if snap.companion_draws and not over
            else ""
        )
        if over:
            self.phase = "over"
            self.winner_text = bt("b_won", lang, name=st["winner"])
        elif st.get("card") is not None:
            self.phase = "move"
            self.winner_text = ""
        else:
            self.phase = "draw" if snap.companion_draws else "card"
            self.winner_text = ""
        self._undo_labels(snap)
        if previous is None or snap.last != previous.last:
            self._tell(snap.last)
        self._start_picking()
        self.revision += 1

    def _undo_labels(self, snap: BoardSnapshot) -> None:
        self.show_undo(None if snap.undo is None else self.step_words(snap.undo),
                       None if snap.redo is None else self.step_words(snap.redo),
                       undo_by_camera=bool(snap.undo and snap.undo.get("by_camera")))

    def step_words(self, step: dict[str, Any]) -> str:
        """An undo or redo step in words: "Ana drew 7", "the correction of red 12 to 14"."""
        lang, kind = self.lang, step.get("type")
        if kind == "draw":
            return bt("b_step_draw", lang, name=step.get("name", ""),
                      card=card_label(step.get("card"), lang))
        if kind == "place":
            color = step["color"]
            return bt("b_step_place", lang, color=color_name(color, lang),
                      frm=loc_name(step["from"], lang, color),
                      to=loc_name(step["to"], lang, color))
        # the move's squares are the message line's ("Ana: from START to ..."): on a button
        # of two short lines they were cut, so the button names whose move it takes back
        return bt("b_step_move_short", lang, name=step.get("name", ""))

    def color_of(self, name: str) -> str | None:
        """The colour `name` plays (None: no such player)."""
        return next((p["color"] for p in self.state.get("players", []) if p["name"] == name),
                    None)

    def _tell(self, last: dict[str, Any] | None) -> None:
        """The big sentence and the voice for what the last event did."""
        lang = self.lang
        self.why_text = ""
        self.why_open = last is not None and last.get("what") == "forfeit"
        if last is None:
            self.message = ""
            return
        what, name = last.get("what"), last.get("name", "")
        card = card_label(last.get("card"), lang)
        texts = {
            "forfeit": "b_forfeit_again" if last.get("draw_again") else "b_forfeit",
            "draw_again": "b_draw_again",
            "won": "b_won",
        }
        if what in texts:
            said = bt(texts[what], lang, name=name, card=card)
            # the game over, the turn bar says who won: not twice
            self.message = "" if what == "won" and self.phase == "over" else said
            self.why_text = why(
                {"kind": what if what != "won" else "forward", "why": last.get("why")}, lang
            ) if what != "won" else ""
            if self.speak is not None:
                self.speak(said, lang)
        elif what == "moved":
            self.message = bt("b_step_move", lang, name=name,
                              move=describe(last, lang, self.color_of(name)))
        elif what == "placed":
            color = last.get("color", "")
            self.message = bt("b_placed", lang, color=color_name(color, lang),
                              frm=loc_name(last.get("from", ""), lang, color),
                              to=loc_name(last.get("to", ""), lang, color))
        else:
            self.message = ""

    def _start_picking(self) -> None:
        snap = self.snap
        assert snap is not None
        options = snap.options if self.phase == "move" else []
        mover = self.turn_color
        before = {p["color"]: list(p["pawns"]) for p in snap.state.get("players", [])}
        self.picker = Picker(options, mover, before) if options else None
        self.single = len(options) == 1
        self.can_decline = any(o.get("kind") == "decline" for o in options)
        # BOARD.md's second question ("must a 10 go back 1?") is answered as it arises:
        # a compulsory back 1 shows its why without asking
        forced = next((o for o in options
                       if getattr(o.get("option"), "compulsory", False)), None)
        if forced is not None and not self.message:
            self.why_text, self.why_open = why(forced, self.lang), True
        self._show_picking(list(range(len(options))))

    def _show_picking(self, listed: list[int]) -> None:
        lang = self.lang
        p = self.picker
        self.preview = []
        if p is None:
            self.sources, self.targets, self.selected, self.legs, self.rows = [], [], "", [], []
            key = "b_tap_discard" if self.discarding else "b_tap_card"
            turn = self.state.get("turn", "")
            self.hint = bt(key, lang, name=turn) if self.phase == "card" else ""
            return
        self.sources = p.sources()
        self.targets = p.targets()
        self.selected = p.selected or ""
        self.legs = [list(leg) for leg in p.chosen]
        self.rows = [
            {"index": i, "text": describe(p.options[i], lang, self.turn_color),
             "kind": p.options[i].get("kind")}
            for i in listed
        ]
        if p.selected is not None:
            self.hint = bt("b_tap_dest", lang)
        elif p.chosen:
            self.hint = bt("b_tap_leg2", lang)
        else:
            self.hint = bt("b_tap_pawn", lang)

    # --- taps ---

    def words(self, exc: CompanionError) -> str:
        """The board rules' own explanation when it has one, else the core's sentence."""
        text = None
        if self.live.update is not None:
            from games.board.screens.snapshot import refusal_words

            text = refusal_words(exc, self.lang)
        text = text or super().words(exc)
        return text[:1].upper() + text[1:]

    def _open(self) -> BoardUpdate:
        update = self.live.update
        if update is None:
            raise NoGame("no board game is open; start a new game first", code="no_game")
        return update

    def refused(self) -> None:
        self.why_text = ""

    def tap_card(self, card: str | None) -> bool:
        """A card on the pad (None: the Draw button); after "no playable card", the card
        the player discards."""
        if self.discarding and card is not None:
            self.discarding = False
            return self.attempt(lambda: self.live.submit(NoPlay(card)))
        return self.attempt(lambda: self.live.submit(Draw(card or self._deal())))

    def _deal(self) -> str:
        """The electronic deck's card for the player to draw (the companion draws)."""
        state = self.live.state
        if state is None:
            raise NoGame("no board game is open; start a new game first", code="no_game")
        return draw_card(state, self.deck)

    def tap_place(self, board_key: str) -> None:
        """A tap on the board while a card waits for its move."""
        p, lang = self.picker, self.lang
        if self.phase != "move" or p is None:
            return
        result = p.tap(board_key)
        if result.what == "done":
            self.choose(result.options[0])
            return
        if result.what == "refused":
            card = self.card_text
            self.message = bt(f"b_{result.reason}", lang, card=card)
            self.why_text = self._blocked_why(board_key) or bt("why_must", lang)
            listed = p.remaining()
        elif result.what == "ambiguous":
            self.message = bt("b_pick_one", lang)
            listed = list(result.options)
        else:
            self.message = ""
            listed = p.remaining()
        self._show_picking(listed)

    def tap_places(self, board_keys: list[str]) -> None:
        """A tap covering several highlighted places closer together than a finger: the
        options they may mean are listed to pick from (never a guess)."""
        p = self.picker
        if self.phase != "move" or p is None:
            return
        listed = p.fitting(board_keys)
        self.message = bt("b_pick_one", self.lang)
        self._show_picking(listed or p.remaining())

    def _blocked_why(self, board_key: str) -> str | None:
        """The engine's reason a tapped pawn of the mover's cannot move, if it has one."""
        color, location = layout.unkey(board_key)
        occupant = next((p["color"] for p in self.state.get("players", [])
                         if location in p["pawns"] and (color is None or color == p["color"])),
                        None)
        state = self.live.state
        if state is None or occupant != self.turn_color:
            return None
        from games.board.screens.snapshot import blocked_why

        why_text = blocked_why(state, location, self.lang)
        return why_text[:1].upper() + why_text[1:] if why_text else None

    def choose(self, index: int) -> bool:
        """One listed option: its move is submitted as it is (one named by its legs alone,
        `[]` declining an 11, as a transcript's would be)."""
        assert self.snap is not None
        option = self.snap.options[index]
        move = option.get("event")
        if not isinstance(move, Move):
            move = RULES.parse_event({"type": "move", "legs": option.get("legs", [])})
        event = move
        ok = self.attempt(lambda: self.live.submit(event))
        if not ok and self.picker is not None:
            self.picker.reset()
            self._show_picking(list(range(len(self.snap.options))))
        return ok

    def show_option(self, index: int | None) -> None:
        """The option pressed (or hovered) in the list: its origins and destinations are
        shown on the board; None: the finger left it."""
        options = self.picker.options if self.picker is not None else []
        if index is None or not 0 <= index < len(options):
            self.preview = []
            return
        mover = self.turn_color
        self.preview = [[layout.key(frm, mover), layout.key(to, mover)]
                        for frm, to in options[index].get("legs") or []]

    def move_single(self) -> bool:
        return self.choose(0) if self.single else False

    def decline(self) -> bool:
        assert self.snap is not None
        for i, o in enumerate(self.snap.options):
            if o.get("kind") == "decline":
                return self.choose(i)
        return False

    def clear_taps(self) -> None:
        if self.picker is not None:
            self.picker.reset()
            self._show_picking(list(range(len(self.picker.options))))

    def explain(self, index: int | None = None) -> str:
        """Why: of option `index`, or of the last message. Spoken when the voice is on."""
        if index is not None and self.snap is not None and 0 <= index < len(self.snap.options):
            self.why_text = why(self.snap.options[index], self.lang)
        if self.why_text and self.speak is not None:
            self.speak(self.why_text, self.lang)
        return str(self.why_text)

    # --- the board camera (games.board.camera_watch), on the UI's thread ---

    def camera_logged(self) -> None:
        """The move just logged was seen by the camera: its sentence says so."""
        if self.message:
            self.message = bt("b_camera_seen", self.lang, said=self.message)

    def camera_asked(self, candidates: list[list[list[str]]]) -> None:
        """The camera is unsure between these options (by their legs): only they are
        listed and lit on the board; one tap on one answers."""
        if self.picker is None or self.snap is None:
            return
        listed = [i for i, o in enumerate(self.picker.options)
                  if [list(leg) for leg in o.get("legs") or []] in candidates]
        if not listed:
            return
        self._show_picking(listed)
        mover = self.turn_color
        self.preview = [[layout.key(frm, mover), layout.key(to, mover)]
                        for i in listed for frm, to in self.picker.options[i].get("legs") or []]
        self.message = bt("b_camera_asked", self.lang)

    def camera_mismatch(self, said_in: Callable[[str], str]) -> None:
        """The board shows no option of the card: what differs, said (and spoken) in the
        screen's language; the screen's "Correct the board" is one tap away; nothing is
        logged."""
        said = bt("b_camera_mismatch", self.lang, what=said_in(self.lang))  # a capital first
        self.message = said
        if self.speak is not None:
            self.speak(said, self.lang)

    def camera_said(self, why_not: str) -> None:
        """The camera refused a move or stopped: why, on the message line."""
        self.message = bt("b_camera_stopped", self.lang, why=why_not)

    # --- correcting the board ---

    def pick(self, color: str, board_key: str) -> None:
        """A pawn tapped while correcting: it is marked, and the screen says how to move
        it (only a drag moves a pawn, so a tap never changes the board)."""
        self.picked = board_key
        location = layout.unkey(board_key)[1]
        text = bt("b_correct_pick", self.lang, color=color_name(color, self.lang),
                  where=loc_on(location, self.lang, color))
        self.message = text[:1].upper() + text[1:]
        self.why_text = ""

    def on_correcting(self, *_: Any) -> None:
        self.picked = ""

    def drop(self, color: str, frm: str, to: str | None) -> bool:
        """A pawn dragged while correcting: a `place` event, or why not."""
        self.picked = ""
        lang = self.lang
        if to is None:
            self.message = bt("b_correct_bad", lang, color=color_name(color, lang))
            return False
        event = Place(color, layout.unkey(frm)[1], layout.unkey(to)[1])
        return self.attempt(lambda: self.live.submit(event))

    def play_again(self) -> bool:
        """Game over: the same table again (players, colours, edition, settings, who
        draws the cards)."""
        setup = None if self.snap is None else self.snap.setup
        if setup is None:
            return self.attempt(self._open)  # no game: its one sentence
        return self.attempt(lambda: self.live.new_game(setup, abandon=True))

    def new_game(self, setup: BoardSetup | dict[str, Any]) -> bool:
        """A board game from its setup (or its JSON, the setup form's, read by the board's
        rules first: a setup they refuse is said, and nothing starts)."""
        return self.attempt(lambda: self.live.new_game(
            setup if isinstance(setup, BoardSetup) else RULES.parse_setup(setup),
            abandon=True))

    def undo(self) -> bool:
        return self.attempt(lambda: self.live.submit(Undo()))

    def redo(self) -> bool:
        return self.attempt(lambda: self.live.submit(Redo()))
