"""The board screen's door onto the live game: the session (journal first, then the
state), the board engine's options and explanations (games.board.rules), and the
electronic deck when the companion draws (the setup says who draws: BoardSetup.draws).

Everything the screen shows is read from the session's latest immutable Update, so a
snapshot taken on the Kivy thread never races a GPIO thread's event.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion.errors import CompanionError
from companion.session import ResultKind
from games.board.screens.door import BoardSnapshot
from ui.i18n import LANGUAGES


def _board() -> Any:
    import games.board.rules as board  # loaded with the first board game only

    return board


class SessionDoor:
    def __init__(self, session: Any) -> None:
        self.session = session

    @property
    def companion_draws(self) -> bool:
        """Whether the companion draws the open game's cards: its setup says (a resumed
        game draws as it began)."""
        update = self.session.update
        if update is None or update.game != "board":
            return False
        return bool(update.state.setup.draws == "companion")

    # --- reading ---

    def snapshot(self) -> BoardSnapshot | None:
        update = self.session.update
        if update is None or update.game != "board":
            return None
        board = _board()
        state = update.state
        st = board.RULES.state_json(state)
        # the session's options, worked out once per state: a waiting card's moves
        options = [self.option_dict(e) for e in update.options if isinstance(e, board.Move)]
        return BoardSnapshot(
            state=st, options=options, last=self._last(update, st),
            undo=self._step(update.undo), redo=self._step(update.redo),
            companion_draws=self.companion_draws,
        )

    @staticmethod
    def option_dict(move: Any) -> dict[str, Any]:
        """A listed move's Option as BOARD.md's JSON, with what the screen asks of it lazily
        (its words and why in either language come from the Option itself); `event` is the
        move, submitted as it is when the option is chosen."""
        option = move.option
        return {
            "kind": option.kind, "legs": [list(leg) for leg in option.legs],
            "landed": list(option.landed), "bumped": list(option.bumped),
            "pawns": {c: list(p) for c, p in option.pawns.items()},
            "text": option.text, "event": move, "option": option,
        }

    def _names(self, st: dict[str, Any]) -> dict[str, str]:
        return {p["color"]: p["name"] for p in st.get("players", [])}

    def _last(self, update: Any, st: dict[str, Any]) -> dict[str, Any] | None:
        """What the latest event did, as the screen's one big sentence needs it."""
        result = update.result
        if result is None or result.kind not in (ResultKind.APPLIED, ResultKind.REDONE):
            return None
        names = self._names(st)
        board = _board()
        last: dict[str, Any] | None = None
        for o in result.outcomes:  # the engine's outcomes, known by their names
            name = names.get(getattr(o, "color", ""), "")
            what = type(o).__name__
            if what == "Forfeited":
                last = {"what": "forfeit", "name": name, "card": o.card, "draw_again": o.again,
                        "why": {lang: board.explain(o, lang) for lang in LANGUAGES}}
            elif what == "Finished" and o.place == 1:
                return {"what": "won", "name": name}
            elif what == "DrawAgain" and last is None:
                last = {"what": "draw_again", "name": name, "card": "2"}
            elif what == "Moved" and last is None:
                opt = o.option
                last = {"what": "moved", "name": name, "kind": opt.kind,
                        "legs": [list(leg) for leg in opt.legs], "bumped": list(opt.bumped),
                        "option": opt}
            elif what == "Placed":
                last = {"what": "placed", "name": name, "color": o.color, "from": o.src,
                        "to": o.dst}
        if last is not None:
            last["seq"] = len(update.steps)  # the same words twice are still two events
        return last

    def _step(self, step: Any) -> dict[str, Any] | None:
        if step is None:
            return None
        out = dict(step.event.to_json())
        out["name"] = _board().RULES.state_json(step.before).get("turn") or ""
        out["by_camera"] = step.by == "camera"
        return out

    def blocked_why(self, location: str, lang: str) -> str | None:
        """Why the mover's pawn on `location` cannot use the card drawn (None: the engine
        names no reason for that pawn)."""
        update = self.session.update
        if update is None or update.game != "board":
            return None
        from games.board.rules import geometry

        board = _board()
        st = board.RULES.state_json(update.state)
        mover = next((p["color"] for p in st["players"] if p["name"] == st["turn"]), None)
        if st["card"] is None or mover is None:
            return None
        for reason in board.blocked(update.state.position, st["card"], mover):
            if geometry.LOCATIONS[reason.src] == location:
                return str(board.explain(reason, lang))
        return None

    def words(self, exc: CompanionError, lang: str) -> str | None:
        """A refusal of the board rules in `lang` (None: not the board's; the caller words
        it)."""
        if self.session.update is None or self.session.update.game != "board":
            return None
        try:
            return str(_board().explain(exc, lang))
        except (TypeError, ValueError, KeyError):
            return None

    # --- acting ---

    def new_game(self, setup: dict[str, Any]) -> None:
        session = self.session
        session.new_game(session.setup(setup), abandon=True)

    def play_again(self) -> None:
        """A new game with the open game's setup (the cards drawn as before)."""
        state = self.session.state
        if state is None:
            from companion.errors import NoGame

            raise NoGame("no board game is open; start a new game first", code="no_game")
        self.new_game(state.setup.to_json())

    def _submit(self, event: dict[str, Any] | Any) -> None:
        """Submit a board event (or its JSON, parsed by the board's rules first)."""
        session = self.session
        rules = session.rules
        if rules is None or rules.name != "board":
            from companion.errors import NoGame

            raise NoGame("no board game is open; start a new game first", code="no_game")
        session.submit(rules.parse_event(event) if isinstance(event, dict) else event)

    def draw(self, card: str | None) -> None:
        if card is None:
            card = _board().draw_card(self.session.state)
        self._submit({"type": "draw", "card": card})

    def no_play(self, card: str) -> None:
        """Adult variation: no playable card in hand; `card` is discarded."""
        self._submit({"type": "no_play", "discard": card})

    def move(self, option: dict[str, Any]) -> None:
        """A listed option's move as it is (no search); an option named by its legs alone
        (`[]` declines an 11) is parsed as a transcript's would be."""
        self._submit(option.get("event") or {"type": "move", "legs": option.get("legs", [])})

    def place(self, color: str, frm: str, to: str) -> None:
        self._submit({"type": "place", "color": color, "from": frm, "to": to})

    def undo(self) -> None:
        self.session.undo()

    def redo(self) -> None:
        self.session.redo()

    def subscribe(self, listener: Callable[[], None]) -> Callable[[], None]:
        unsubscribe: Callable[[], None] = self.session.subscribe(lambda _update: listener())
        return unsubscribe
