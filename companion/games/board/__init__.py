"""The Sorry! board game (BOARD.md): both editions, refereed option by option.

Public API (what the board screen uses)::

    from companion.games.board import RULES, options, explain, draw_card

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
    option.text               # English, as `board options` prints it; option.label("fr")
    option.event              # {"type": "move", "legs": [...]}: submit it to choose
    option.why("fr")          # why it is allowed, naming the rule ("en" or "fr")
    option.wins, option.draw_again
    explain(what, lang)       # what: an Option, a Forfeited outcome (in a Transition's
                              # outcomes), a Blocked (moves.blocked) or a CompanionError
                              # the board rules raised (uses its code and params)
    draw_card(state, rng=None)  # the electronic deck: a fair card to submit as a draw event
    blocked(state.position, card, color)  # why each pawn cannot use `card` (Blocked: src is
                              # an index of geometry.LOCATIONS); explain() words each

Events: setup, draw, move, no_play, place (the screen's "correct the board":
{"type": "place", "color": "red", "from": "T4", "to": "T10"}), undo, redo.
Modules: geometry (the board as data), cards, settings, position, moves (the option
generator: the rules of movement), events, state, outcomes, rules (RULES), explain (EN/FR),
deck (draw_card), stats.
"""

from companion.games.board.deck import draw_card
from companion.games.board.explain import explain
from companion.games.board.moves import Blocked, Option, blocked
from companion.games.board.rules import RULES, options

__all__ = ["RULES", "Blocked", "Option", "blocked", "draw_card", "explain", "options"]
