"""The Sorry! board game (BOARD.md): both editions, refereed option by option.

Public API (what the board screen uses)::

    from games.board.rules import RULES, options, explain, draw_card

    state = RULES.initial_state(RULES.parse_setup({"game": "board", "edition": "classic",
                                                   "players": ["Ana", "Ben"]}))
    state = RULES.apply(state, RULES.parse_event({"type": "draw", "card": "1"})).state
    RULES.state_json(state)   # BOARD.md's replay --json object + "remaining" {card: n},
                              # "settings", "discards", "ranking"
    options(state)            # tuple[Option, ...] for the player to move with the card drawn
                              # (() when no card waits: a card with no option is forfeited
                              # as soon as it is drawn, see the Forfeited outcome)
    option.kind               # start forward backward split switch sorry decline
    option.legs               # ((from, to), ...) in play order, `to` after any slide
    option.pawns              # colour -> canonical tuple of locations after the option
    option.bumped             # colours sent to START, one entry per pawn
    option.text               # English, squares as codes (T20), as --json gives it
    option.label("fr")        # as a screen lists it: squares in the words of the table
    option.event              # {"type": "move", "legs": [...]}: submit it to choose
    option.why("fr")          # why it is allowed, naming the rule ("en" or "fr")
    option.wins, option.draw_again
    explain(what, lang)       # what: an Option, a Forfeited outcome (in a Transition's
                              # outcomes), a Blocked (moves.blocked) or a CompanionError
                              # the board rules raised (uses its code and params)
    draw_card(state, rng=None)  # the electronic deck: a fair card to submit as a draw event

Also exported (the screen may import only this package): the events (Draw, Move, NoPlay,
Place, BoardSetup), the outcomes a Transition carries (Drew, Moved, Forfeited, DrawAgain,
Finished, NoPlayed, Placed, Reshuffled, Returned), BoardState, Position, generate and
blocked (options of any card and colour in a position), the errors, CARDS and `geometry`
(squares, slides, E and X for drawing the board).

Events: setup, draw, move, no_play, place (the screen's "correct the board":
{"type": "place", "color": "red", "from": "T4", "to": "T10"}), undo, redo.
Modules: geometry (the board as data), cards, settings, position, moves (the option
generator: the rules of movement), events, state, outcomes, rules (RULES), explain (EN/FR),
deck (draw_card), stats.
"""

from games.board.rules import geometry
from games.board.rules.cards import CARDS, SORRY, deck_counts
from games.board.rules.deck import draw_card
from games.board.rules.errors import BadPosition, IllegalMove, IllegalPlace
from games.board.rules.events import BoardEvent, BoardSetup, Draw, Move, NoPlay, Place
from games.board.rules.explain import explain, legs_text, on_place
from games.board.rules.moves import Blocked, Leg, Option, blocked, generate
from games.board.rules.outcomes import (
    DrawAgain,
    Drew,
    Finished,
    Forfeited,
    Moved,
    NoPlayed,
    Placed,
    Reshuffled,
    Returned,
)
from games.board.rules.places import place
from games.board.rules.position import Position
from games.board.rules.rules import RULES, options
from games.board.rules.state import BoardState

__all__ = [
    "CARDS", "RULES", "SORRY", "BadPosition", "Blocked", "BoardEvent", "BoardSetup", "BoardState",
    "Draw", "DrawAgain", "Drew", "Finished", "Forfeited", "IllegalMove", "IllegalPlace", "Leg",
    "Move", "Moved", "NoPlay", "NoPlayed", "Option", "Place", "Placed", "Position", "Reshuffled",
    "Returned", "blocked", "deck_counts", "draw_card", "explain", "generate", "geometry",
    "legs_text", "on_place", "options", "place",
]
