"""What every game's screen model shares (ui.games.GameSlice.make_model): the language, the
one message line, the undo and redo buttons with their labels, and the one place a refused
tap, key or button becomes words on the screen."""

from __future__ import annotations

from collections.abc import Callable

from kivy.event import EventDispatcher
from kivy.properties import BooleanProperty, ObjectProperty, StringProperty

from companion.errors import REFUSALS, CompanionError, JournalError
from ui.i18n import tr
from ui.wording import refusal


class GameModel(EventDispatcher):
    lang = StringProperty("en")
    message = StringProperty("")  # the one sentence: what happened, or why a tap did nothing
    undo_text = StringProperty("")
    redo_text = StringProperty("")
    can_undo = BooleanProperty(False)
    can_redo = BooleanProperty(False)
    asked = ObjectProperty(frozenset())  # the cards the camera is not sure between: lit
    # a game is open and not over: the first screen's "Back to the game" (each game's
    # model says which of its phases are play)
    in_play = BooleanProperty(False)

    def show_undo(self, undo: str | None, redo: str | None, *,
                  undo_by_camera: bool = False) -> None:
        """The undo and redo buttons: the step each would take back or put back, in words
        ("Ana played 7"); None: there is none."""
        lang = self.lang
        self.can_undo, self.can_redo = undo is not None, redo is not None
        if undo is not None and undo_by_camera:
            undo = tr("by_camera", lang, what=undo)
        self.undo_text = tr("undo", lang, what=undo) if undo is not None else tr("undo_none", lang)
        self.redo_text = tr("redo", lang, what=redo) if redo is not None else tr("redo_none", lang)

    def words(self, exc: CompanionError) -> str:
        """A refusal in one sentence of the model's language; a game may word its own."""
        return refusal(exc, self.lang)

    def attempt(self, action: Callable[[], object]) -> bool:
        """Run one call on the game; a refusal becomes the message, nothing else happens."""
        try:
            action()
        except REFUSALS as exc:
            self.say_refused(exc)
            return False
        self.asked = frozenset()  # a tap answers the camera's question
        return True

    def say_refused(self, exc: CompanionError | JournalError) -> None:
        """A refusal's one sentence on the message line (a tap's, or a button's on the
        table: hardware.presses.Refusal)."""
        self.message = self.words(exc)  # type: ignore[arg-type]  # a code and params too
        self.refused()

    def refused(self) -> None:
        """After a refusal's sentence is shown (a game clears what no longer applies)."""
