"""Every sentence the board referee says, in English and French, each naming its rule.

The engine gives facts (an option's legs and kind, a `Blocked` code, a refusal's `code`
and params); this module words them, so a screen in either language says the same thing.

    explain(what, lang="en") -> str
        what: an Option (why it is allowed), a Forfeited outcome (why the turn is lost),
        a Blocked (why one pawn cannot move), or a CompanionError raised by the board
        rules (its sentence, from `code` and params; the English message for other codes).

>>> from companion.games.board.moves import Blocked
>>> explain(Blocked(61, "overshoot", {"card": "5", "steps": 5, "need": 5}), "en")
'a 5 would pass HOME, and pawns move into HOME only by exact count (HOME is 5 away)'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from companion.config import LANGUAGES
from companion.errors import CompanionError
from companion.games.board.geometry import LOCATIONS
from companion.games.board.moves import Blocked, Option
from companion.games.board.outcomes import Forfeited
from companion.games.board.places import COLOR_FR as _COLOR_FR
from companion.games.board.places import COLOR_FR_F as _COLOR_FR_F
from companion.games.board.places import place, place_from, place_to

if TYPE_CHECKING:
    from companion.games.board.moves import Leg

__all__ = ["LANGS", "TEXTS", "blocked_text", "explain", "forfeit_text", "legs_text", "on_place",
           "option_text", "option_why", "render"]

LANGS = LANGUAGES  # the languages every sentence here is written in
_SQUARE_FR = {"START": "DÉPART", "HOME": "MAISON"}
_SEP = {"en": "; ", "fr": " ; "}  # French sets a space before the semicolon

TEXTS: dict[str, dict[str, str]] = {
    "en": {
        # why an option is allowed
        "start_classic": "a 1 or a 2 takes a pawn out of START onto the circle under START",
        "start_count": "2016 edition: any forward card may take a pawn out of START, and the "
                       "start circle under START counts as the first step (your setting)",
        "start_circle": "2016 edition: any forward card may take a pawn out of START, onto "
                        "the start circle under START whatever the card (your setting)",
        "forward": "{a_card} moves one pawn {n} forward",
        "sorry_four": "the 2016 Sorry! card may instead move a pawn 4 forward",
        "backward_four": "a 4 moves one pawn 4 backward",
        "back_one": "a 10 may move a pawn 1 backward instead of 10 forward",
        "compulsory": "no pawn can go 10 forward, so going back 1 is compulsory: if you can "
                      "move, you must",
        "split": "a 7 may be split between two pawns, {a} + {b}, both forward",
        "switch": "an 11 may switch one of your pawns on the track with an opponent's pawn "
                  "on the track",
        "sorry": "Sorry!: a pawn from START takes the place of an opponent's pawn on the "
                 "track, which goes back to START",
        "decline": "no pawn can go 11 forward, so you may decline the 11 rather than switch",
        "exact_home": "it reaches HOME by exact count",
        "slide_classic": "it lands on the triangle of a {color} slide and slides {end} "
                         "(classic: you slide on the other colours' slides)",
        "slide_2016": "it lands on the triangle of a {color} slide and slides {end} "
                      "(2016: you slide only on your own colour's slides)",
        "held": "it stays on the triangle: a slide never carries a pawn past the way into "
                "its own safety zone",
        "bumps": "a pawn landed on or slid over goes back to START ({colors})",
        "wins": "your last pawn reaches HOME: you win",
        "draw_again": "then draw again (classic 2)",
        # why a pawn cannot move
        "home": "a pawn at HOME never moves",
        "overshoot": "{a_card} would pass HOME, and pawns move into HOME only by exact count "
                     "(HOME is {need} away)",
        "own_pawn": "it would land on your own pawn {on_square}",
        "start_card": "a pawn leaves START only with a 1, a 2 or a Sorry!",
        "start_backward": "a pawn in START cannot move backward",
        "no_split": "no split either: a 7 split needs two pawns that can both move forward",
        "no_switch_mine": "no switch: you have no pawn on the track",
        "no_switch_theirs": "no switch: no opponent's pawn is on the track",
        "sorry_needs_start": "Sorry! needs one of your pawns in START",
        "no_target": "Sorry! needs an opponent's pawn on the track (not in START, a safety "
                     "zone or HOME)",
        "forfeit": "No move for {color} with {a_card}: {reasons}. The turn is forfeited",
        # refusals
        "game_over": "the game is over: {winner} won; undo to take back the last move",
        "card_gone": "every {card} card has already been played since the last shuffle; "
                     "check the card",
        "card_waiting": "{a_card} is waiting for its move; choose one of its options first",
        "unplayable": "{a_card} has no move for {color} now; play a card that has one, or "
                      "tap \"no playable card\"",
        "no_card": "no card is waiting for a move; draw a card first",
        "decline_forward": "an 11 may be declined only when no pawn can go 11 forward; take "
                           "one of the options",
        "decline_no_switch": "there is nothing to decline: an 11 is declined only beside a "
                             "switch",
        "no_pawn_there": "no {color} pawn stands {on_square}",
        "pawn_blocked": "{pawn} cannot move with {a_card}: {why}",
        "no_such_move": "no option of the {card} has these legs; the options are: {options}",
        "not_adult": "no_play belongs to the adult variation (5-card hands); in this game a "
                     "card with no move is forfeited when drawn",
        "playable": "{a_card} has a move for {color}, so it is playable; a playable card "
                    "must be played",
        "color_not_seated": "no one plays {color} in this game",
        "same_square": "the pawn is already {on_square}",
        "finished": "{color} has finished; undo to change a finished player's pawns",
        "square_taken": "{square} already holds a pawn; a square holds one pawn (move that "
                        "pawn first)",
        "square_twice": "two pawns are both {on_square}; a square holds one pawn",
        "pawn_on": "the pawn {on_square}",
        "pawns_on": "the pawns {on_squares}",
        "every_pawn": "every pawn",
        "and": " and ",
        "overshoot_many": "{a_card} would pass HOME, and pawns move into HOME only by exact "
                          "count",
        "own_pawn_many": "each would land on another of your pawns",
    },
    "fr": {
        "start_classic": "un 1 ou un 2 fait sortir un pion de DÉPART sur le rond sous DÉPART",
        "start_count": "édition 2016 : toute carte qui avance peut faire sortir un pion de "
                       "DÉPART, et le rond de départ sous DÉPART compte comme le premier "
                       "pas (votre réglage)",
        "start_circle": "édition 2016 : toute carte qui avance peut faire sortir un pion de "
                        "DÉPART, sur le rond de départ sous DÉPART quelle que soit la "
                        "carte (votre réglage)",
        "forward": "un {card} avance un pion de {cases}",
        "sorry_four": "la carte Sorry! de 2016 peut aussi avancer un pion de 4 cases",
        "backward_four": "un 4 fait reculer un pion de 4 cases",
        "back_one": "un 10 peut faire reculer un pion d'une case au lieu d'avancer de 10",
        "compulsory": "aucun pion ne peut avancer de 10, donc reculer d'une case est "
                      "obligatoire : qui peut jouer doit jouer",
        "split": "un 7 peut être partagé entre deux pions, {a} + {b}, tous deux en avant",
        "switch": "un 11 peut échanger un de vos pions sur le parcours avec un pion adverse "
                  "sur le parcours",
        "sorry": "Sorry! : un pion de DÉPART prend la place d'un pion adverse sur le "
                 "parcours, qui retourne à DÉPART",
        "decline": "aucun pion ne peut avancer de 11, vous pouvez donc refuser le 11 au lieu "
                   "d'échanger",
        "exact_home": "il arrive à la MAISON au compte exact",
        "slide_classic": "il arrive sur le triangle d'une glissade {color} et glisse {end}"
                         " (classique : on glisse sur les glissades des autres couleurs)",
        "slide_2016": "il arrive sur le triangle d'une glissade {color} et glisse "
                      "{end} (2016 : on ne glisse que sur les glissades de sa couleur)",
        "held": "il reste sur le triangle : une glissade ne fait jamais dépasser à un pion "
                "l'entrée de sa propre zone de sécurité",
        "bumps": "un pion sur lequel on arrive ou qui est sur la glissade retourne à DÉPART "
                 "({colors})",
        "wins": "votre dernier pion arrive à la MAISON : vous gagnez",
        "draw_again": "puis piochez de nouveau (2 classique)",
        "home": "un pion à la MAISON ne bouge plus",
        "overshoot": "un {card} dépasserait la MAISON, et on n'entre à la MAISON qu'au "
                     "compte exact (la MAISON est à {need} cases)",
        "own_pawn": "il tomberait sur votre propre pion {on_square}",
        "start_card": "un pion ne sort de DÉPART qu'avec un 1, un 2 ou un Sorry!",
        "start_backward": "un pion à DÉPART ne peut pas reculer",
        "no_split": "pas de partage non plus : partager un 7 demande deux pions qui peuvent "
                    "tous deux avancer",
        "no_switch_mine": "pas d'échange : vous n'avez aucun pion sur le parcours",
        "no_switch_theirs": "pas d'échange : aucun pion adverse n'est sur le parcours",
        "sorry_needs_start": "Sorry! demande un de vos pions à DÉPART",
        "no_target": "Sorry! demande un pion adverse sur le parcours (pas à DÉPART, en zone "
                     "de sécurité ni à la MAISON)",
        "forfeit": "Aucun coup pour {color} avec un {card} : {reasons}. Le tour est perdu",
        "game_over": "la partie est finie : {winner} a gagné ; annulez pour reprendre le "
                     "dernier coup",
        "card_gone": "toutes les cartes {card} sont déjà sorties depuis le dernier mélange ; "
                     "vérifiez la carte",
        "card_waiting": "un {card} attend son coup ; choisissez d'abord une de ses options",
        "unplayable": "un {card} n'a aucun coup pour {color} maintenant ; jouez une carte qui "
                      "en a un, ou touchez « aucune carte jouable »",
        "no_card": "aucune carte n'attend de coup ; piochez d'abord une carte",
        "decline_forward": "on ne peut refuser un 11 que si aucun pion ne peut avancer de 11 ; "
                           "prenez une des options",
        "decline_no_switch": "il n'y a rien à refuser : on ne refuse un 11 qu'à côté d'un "
                             "échange",
        "no_pawn_there": "aucun pion {color} n'est {on_square}",
        "pawn_blocked": "{pawn} ne peut pas bouger avec un {card} : {why}",
        "no_such_move": "aucune option du {card} n'a ces déplacements ; les options sont : "
                        "{options}",
        "not_adult": "« aucune carte jouable » appartient à la variante adulte (mains de 5 "
                     "cartes) ; ici une carte sans coup est perdue dès qu'elle est piochée",
        "playable": "un {card} a un coup pour {color}, il est donc jouable ; une carte "
                    "jouable doit être jouée",
        "color_not_seated": "personne ne joue {color} dans cette partie",
        "same_square": "le pion est déjà {on_square}",
        "finished": "{color} a terminé ; annulez pour changer les pions d'un joueur qui a "
                    "terminé",
        "square_taken": "{square} a déjà un pion ; une case ne tient qu'un pion (déplacez "
                        "d'abord ce pion)",
        "square_twice": "deux pions sont {on_square} ; une case ne tient qu'un pion",
        "pawn_on": "le pion {on_square}",
        "pawns_on": "les pions {on_squares}",
        "every_pawn": "chaque pion",
        "and": " et ",
        "overshoot_many": "un {card} dépasserait la MAISON, et on n'entre à la MAISON qu'au "
                          "compte exact",
        "own_pawn_many": "chacun tomberait sur un autre de vos pions",
    },
}


def _lang(lang: str) -> str:
    return lang if lang in TEXTS else "en"


def _color(color: str, lang: str) -> str:
    return _COLOR_FR.get(color, color) if lang == "fr" else color


def _square(square: str, lang: str) -> str:
    return _SQUARE_FR.get(square, square) if lang == "fr" else square


def _card(card: str) -> str:
    return "Sorry!" if card == "sorry" else card


def on_place(location: str, lang: str = "en", owner: str | None = None,
             you: str | None = None) -> str:
    """"on <place>" in the words of the table ("in START", "sur votre rond de départ")."""
    if lang == "fr":
        if location in ("START", "HOME"):
            return place_to(location, lang, owner, you)
        return "sur " + place(location, lang, owner, you)
    word = {"START": "in ", "HOME": "at "}.get(location, "on ")
    return word + place(location, lang, owner, you)


def _on_code(square: str, lang: str) -> str:
    return ("en " if lang == "fr" else "on ") + _square(square, lang)


def render(code: str, params: dict[str, Any], lang: str = "en", words: bool = False) -> str:
    """The sentence for `code` with its facts, words such as colours in `lang`. Squares
    are codes (T17) for transcripts and the CLI, or with `words` the table's words for a
    screen ("2 squares past blue's start circle")."""
    lang = _lang(lang)
    facts = dict(params)
    owner = params.get("color") if isinstance(params.get("color"), str) else None
    you = params.get("you") if isinstance(params.get("you"), str) else None
    for key in ("color", "winner"):
        if isinstance(facts.get(key), str):
            facts[key] = _color(facts[key], lang)
    square = facts.get("square")
    if isinstance(square, str):
        if words and square in LOCATIONS:
            facts["square"] = place(square, lang, owner, you)
            facts["on_square"] = on_place(square, lang, owner, you)
        else:
            facts["square"] = _square(square, lang)
            facts["on_square"] = _on_code(square, lang)
        facts["pawn"] = (TEXTS[lang]["pawn_on"].format(on_square=facts["on_square"])
                         if words else facts["square"])
    if isinstance(facts.get("card"), str):
        facts["card"] = _card(facts["card"])
        facts["a_card"] = ("an " if facts["card"] in ("8", "11") else "a ") + facts["card"]
    if isinstance(facts.get("n"), int):
        facts["cases"] = "1 case" if facts["n"] == 1 else f"{facts['n']} cases"
    if isinstance(facts.get("why"), Blocked):
        facts["why"] = blocked_text(facts["why"], lang, words)
    return TEXTS[lang][code].format_map(facts)


def blocked_text(blocked: Blocked, lang: str = "en", words: bool = True) -> str:
    return render(blocked.code, blocked.params, lang, words)


def forfeit_text(color: str, card: str, why: tuple[Blocked, ...], lang: str = "en",
                 again: bool = False, words: bool = True) -> str:
    """"No move for red with a 5: the pawn on square 3 of 5 in your safety zone: a 5
    would pass HOME, ... The turn is forfeited." With `words`, pawns stopped for one
    reason are named together ("every pawn: ...") so the answer stays short enough to
    read in full on the screen; without, squares are codes ("S3: ...") as --json has them."""
    lang = _lang(lang)
    t = TEXTS[lang]
    colon = " : " if lang == "fr" else ": "
    pawns = [b for b in why if b.code != "home" and b.src >= 0]
    general = [blocked_text(b, lang, words) for b in why if b.code != "home" and b.src < 0]
    parts = []
    if not words:
        parts = [f"{_square(LOCATIONS[b.src], lang)}{colon}{blocked_text(b, lang, False)}"
                 for b in pawns]
    else:
        groups: dict[str, list[Blocked]] = {}
        for b in pawns:
            groups.setdefault(b.code, []).append(b)
        for code, group in groups.items():
            places = [on_place(LOCATIONS[b.src], lang, color, color) for b in group]
            if len(group) == 1:
                who = t["pawn_on"].format(on_square=places[0])
                text = render(code, {**group[0].params, "you": color}, lang, words=True)
            else:
                who = (t["every_pawn"] if len(groups) == 1 else t["pawns_on"].format(
                    on_squares=", ".join(places[:-1]) + t["and"] + places[-1]))
                many = f"{code}_many"
                text = (render(many, group[0].params, lang) if many in t
                        else blocked_text(group[0], lang))
            parts.append(f"{who}{colon}{text}")
    sep = _SEP[lang]
    sentence = render("forfeit", {"color": color, "card": card,
                                  "reasons": sep.join(dict.fromkeys(parts + general))}, lang)
    if again:
        sentence += sep + t["draw_again"]
    return sentence + "."


def _leg_code(leg: Leg, lang: str) -> str:
    fr = lang == "fr"
    src, landed = _square(LOCATIONS[leg.src], lang), _square(LOCATIONS[leg.landed], lang)
    text = (f"{src} {'recule ' if fr else 'back '}{'à' if fr else 'to'} {landed}"
            if leg.steps < 0 else f"{src} {'à' if fr else 'to'} {landed}")
    if leg.slid:
        text += (f", glisse jusqu'à {LOCATIONS[leg.dst]}" if fr
                 else f", slides to {LOCATIONS[leg.dst]}")
    if leg.held:
        text += ", reste sur le triangle (G1)" if fr else ", stays on the triangle (G1)"
    return text


def _leg_words(leg: Leg, lang: str, you: str) -> str:
    fr = lang == "fr"
    src = place_from(LOCATIONS[leg.src], lang, you, you)
    text = f"{src} {place_to(LOCATIONS[leg.landed], lang, you, you)}"
    if leg.steps < 0:
        text = ("recule " if fr else "back ") + text
    if leg.slid:
        text += (", glisse " if fr else ", slides ") + place_to(LOCATIONS[leg.dst], lang,
                                                                you, you)
    if leg.held:
        text += ", reste sur le triangle" if fr else ", stays on the triangle"
    return text


def legs_text(legs: Sequence[Sequence[str]], lang: str = "en", you: str | None = None,
              bumped: Sequence[str] = ()) -> str:
    """A move known only by its legs (an undo step, a journal line) in the table's words:
    "from START to your start circle"; no legs: the declined 11."""
    lang = _lang(lang)
    fr = lang == "fr"
    if not legs:
        return "refuser le 11 (aucun coup)" if fr else "decline the 11 (no move)"
    text = (", puis " if fr else ", then ").join(
        f"{place_from(a, lang, you, you)} {place_to(b, lang, you, you)}" for a, b in legs)
    return text + _bumps_text(bumped, lang, you)


def _bumps_text(bumped: Sequence[str], lang: str, you: str | None) -> str:
    if not bumped:
        return ""
    fr = lang == "fr"
    own = "(à vous)" if fr else "(yours)"
    names = [_color(c, lang) + (f" {own}" if c == you else "") for c in bumped]
    return (", renvoie " if fr else ", bumps ") + ", ".join(names)


def option_text(option: Option, lang: str = "en", words: bool = False) -> str:
    """The option in a few words. As the CLI's JSON gives it, squares as codes: "T20 to
    T24, slides to T28, bumps blue"; with `words`, as a screen lists it: "from 1 square
    past blue's start circle to the triangle of blue's long slide, slides to ..."."""
    lang = _lang(lang)
    fr = lang == "fr"
    you = option.color
    if option.kind == "decline":
        return legs_text((), lang)
    if option.kind == "switch":
        leg = option.moves[0]
        if words:
            mine = on_place(LOCATIONS[leg.src], lang, you, you)
            theirs = on_place(LOCATIONS[leg.landed], lang, leg.other, you)
            text = (f"échanger votre pion {mine} avec le pion {_color(leg.other, lang)} "
                    f"{theirs}" if fr else
                    f"switch your pawn {mine} with {leg.other}'s pawn {theirs}")
        else:
            text = (f"{'échanger' if fr else 'switch'} {LOCATIONS[leg.src]} "
                    f"{'avec' if fr else 'with'} {_color(leg.other, lang)} "
                    f"{'en' if fr else 'on'} {LOCATIONS[leg.landed]}")
        if leg.slid:
            end = (place_to(LOCATIONS[leg.dst], lang, you, you) if words
                   else ("jusqu'à " if fr else "to ") + LOCATIONS[leg.dst])
            text += (", glisse " if fr else ", slides ") + end
    else:
        text = (", puis " if fr else ", then ").join(
            _leg_words(leg, lang, you) if words else _leg_code(leg, lang)
            for leg in option.moves)
        if option.kind == "sorry":
            text = "Sorry! " + text
    text += _bumps_text(option.bumped, lang, option.color)
    if option.wins:
        text += ", gagne" if fr else ", wins"
    return text


def option_why(option: Option, lang: str = "en") -> str:
    """Why the option is allowed, naming each rule it uses, squares in the table's words."""
    lang = _lang(lang)
    t = TEXTS[lang]
    parts: list[str] = []
    kind, card = option.kind, option.card
    if kind == "start":
        key = ("start_classic" if option.edition == "classic"
               else "start_circle" if option.start_move == "circle" else "start_count")
        parts.append(t[key])
        if card == "sorry":
            parts.append(t["sorry_four"])
    elif kind == "forward":
        parts.append(t["sorry_four"] if card == "sorry"
                     else render("forward", {"card": card, "n": option.moves[0].steps}, lang))
    elif kind == "backward":
        parts.append(t["backward_four"] if card == "4" else t["back_one"])
        if option.compulsory:
            parts.append(t["compulsory"])
    elif kind == "split":
        parts.append(t["split"].format(a=option.moves[0].steps, b=option.moves[1].steps))
    elif kind in ("switch", "sorry", "decline"):
        parts.append(t[kind])
    for leg in option.moves:
        if leg.landed == len(LOCATIONS) - 1:
            parts.append(t["exact_home"])
        if leg.slid:
            slide = "slide_classic" if option.edition == "classic" else "slide_2016"
            color = (_COLOR_FR_F.get(leg.slide_color, leg.slide_color) if lang == "fr"
                     else leg.slide_color)
            parts.append(t[slide].format(color=color, end=place_to(
                LOCATIONS[leg.dst], lang, option.color, option.color)))
        if leg.held:
            parts.append(t["held"])
    if option.bumped:
        parts.append(t["bumps"].format(colors=", ".join(_color(c, lang)
                                                         for c in option.bumped)))
    if option.wins:
        parts.append(t["wins"])
    elif option.draw_again:
        parts.append(t["draw_again"])
    text = _SEP[lang].join(dict.fromkeys(parts))
    return text[:1].upper() + text[1:] + "."


def explain(what: object, lang: str = "en") -> str:
    """One sentence in `lang` ("en" or "fr") for an Option, a Forfeited outcome, a Blocked
    pawn or a refusal (CompanionError) of the board rules."""
    if isinstance(what, Option):
        return option_why(what, lang)
    if isinstance(what, Forfeited):
        return forfeit_text(what.color, what.card, what.why, lang, what.again)
    if isinstance(what, Blocked):
        return blocked_text(what, lang)
    if isinstance(what, CompanionError):
        if what.code in TEXTS[_lang(lang)]:
            try:
                return render(what.code, what.params, lang, words=True)
            except (KeyError, IndexError, ValueError):
                pass
        return str(what)
    raise TypeError(f"explain() words an Option, a Forfeited, a Blocked or a CompanionError, "
                    f"not {type(what).__name__}")
