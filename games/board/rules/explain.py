"""Every sentence the board referee says, in English and French, each naming its rule.

The engine gives facts (an option's legs and kind, a `Blocked` code, a refusal's `code`
and params); this module words them with the catalogue's "x_<code>" texts
(companion/locales), so a screen in either language and the CLI say the same thing.

    explain(what, lang="en") -> str
        what: an Option (why it is allowed), a Forfeited outcome (why the turn is lost),
        a Blocked (why one pawn cannot move), or a CompanionError raised by the board
        rules (its sentence, from `code` and params; the English message for other codes).

>>> from games.board.rules.moves import Blocked
>>> explain(Blocked(61, "overshoot", {"card": "5", "steps": 5, "need": 5}), "en")
'a 5 would pass HOME, and pawns move into HOME only by exact count (HOME is 5 away)'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from companion.catalogue import has, text
from companion.config import LANGUAGES
from companion.errors import CompanionError
from games.board.rules.geometry import LOCATIONS
from games.board.rules.moves import Blocked, Option
from games.board.rules.outcomes import Forfeited
from games.board.rules.places import color_name, contract, place, place_from, place_to

if TYPE_CHECKING:
    from games.board.rules.moves import Leg

__all__ = ["LANGS", "PREFIX", "blocked_text", "explain", "forfeit_text", "has_sentence",
           "legs_text", "on_place", "option_text", "option_why", "render"]

LANGS = LANGUAGES  # the languages every sentence here is written in
PREFIX = "x_"  # the referee's keys in the catalogue: "x_<code>"


def _lang(lang: str) -> str:
    return lang if lang in LANGS else "en"


def _t(key: str, lang: str, **facts: Any) -> str:
    """The referee's text `key` in `lang`, from the catalogue."""
    return text(PREFIX + key, lang, **facts)


def has_sentence(code: str) -> bool:
    """Whether the referee words `code` (a refusal or Blocked code)."""
    return has(PREFIX + code, "en")


def _square(square: str, lang: str) -> str:
    """A square's code, START and HOME in the language's words (DÉPART, MAISON)."""
    return _t(f"square_{square}", lang) if square in ("START", "HOME") else square


def _card(card: str) -> str:
    return "Sorry!" if card == "sorry" else card


def _a_card(card: str, lang: str) -> str:
    """The card with its article: "a 5", "an 8", "un 8"."""
    return _t(f"a_card_{card}", lang) if has_sentence(f"a_card_{card}") else _t(
        "a_card", lang, card=card)


def on_place(location: str, lang: str = "en", owner: str | None = None,
             you: str | None = None) -> str:
    """"on <place>" in the words of the table ("in START", "sur votre rond de départ")."""
    key = f"on_{location}" if location in ("START", "HOME") else "on"
    return contract(_t(key, lang, place=place(location, lang, owner, you)), lang)


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
            facts[key] = color_name(facts[key], lang)
    square = facts.get("square")
    if isinstance(square, str):
        if words and square in LOCATIONS:
            facts["square"] = place(square, lang, owner, you)
            facts["on_square"] = on_place(square, lang, owner, you)
        else:
            facts["square"] = _square(square, lang)
            facts["on_square"] = _t("on_code", lang, square=facts["square"])
        facts["pawn"] = (_t("pawn_on", lang, on_square=facts["on_square"])
                         if words else facts["square"])
    if isinstance(facts.get("card"), str):
        facts["card"] = _card(facts["card"])
        facts["a_card"] = _a_card(facts["card"], lang)
    if isinstance(facts.get("why"), Blocked):
        facts["why"] = blocked_text(facts["why"], lang, words)
    return _t(code, lang, **facts)


def blocked_text(blocked: Blocked, lang: str = "en", words: bool = True) -> str:
    return render(blocked.code, blocked.params, lang, words)


def forfeit_text(color: str, card: str, why: tuple[Blocked, ...], lang: str = "en",
                 again: bool = False, words: bool = True) -> str:
    """"No move for red with a 5: the pawn on square 3 of 5 in your safety zone: a 5
    would pass HOME, ... The turn is forfeited." With `words`, pawns stopped for one
    reason are named together ("every pawn: ...") so the answer stays short enough to
    read in full on the screen; without, squares are codes ("S3: ...") as --json has them."""
    lang = _lang(lang)
    colon = text("colon", lang)
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
                who = _t("pawn_on", lang, on_square=places[0])
                why_ = render(code, {**group[0].params, "you": color}, lang, words=True)
            else:
                who = (_t("every_pawn", lang) if len(groups) == 1 else _t(
                    "pawns_on", lang,
                    on_squares=", ".join(places[:-1]) + _t("and", lang) + places[-1]))
                many = f"{code}_many"
                why_ = (render(many, group[0].params, lang) if has_sentence(many)
                        else blocked_text(group[0], lang))
            parts.append(f"{who}{colon}{why_}")
    sep = _t("sep", lang)
    sentence = render("forfeit", {"color": color, "card": card,
                                  "reasons": sep.join(dict.fromkeys(parts + general))}, lang)
    if again:
        sentence += sep + _t("draw_again", lang)
    return sentence + "."


def _leg_code(leg: Leg, lang: str) -> str:
    src, landed = _square(LOCATIONS[leg.src], lang), _square(LOCATIONS[leg.landed], lang)
    text_ = _t("leg_code_back" if leg.steps < 0 else "leg_code", lang, src=src, dst=landed)
    if leg.slid:
        text_ += _t("slides_code", lang, dst=LOCATIONS[leg.dst])
    if leg.held:
        text_ += _t("held_code", lang)
    return text_


def _leg_words(leg: Leg, lang: str, you: str) -> str:
    src = place_from(LOCATIONS[leg.src], lang, you, you)
    text_ = f"{src} {place_to(LOCATIONS[leg.landed], lang, you, you)}"
    if leg.steps < 0:
        text_ = _t("back", lang, move=text_)
    if leg.slid:
        text_ += _t("slides", lang, to=place_to(LOCATIONS[leg.dst], lang, you, you))
    if leg.held:
        text_ += _t("held_words", lang)
    return text_


def legs_text(legs: Sequence[Sequence[str]], lang: str = "en", you: str | None = None,
              bumped: Sequence[str] = ()) -> str:
    """A move known only by its legs (an undo step, a journal line) in the table's words:
    "from START to your start circle"; no legs: the declined 11."""
    lang = _lang(lang)
    if not legs:
        return _t("decline_move", lang)
    text_ = _t("then", lang).join(
        f"{place_from(a, lang, you, you)} {place_to(b, lang, you, you)}" for a, b in legs)
    return text_ + _bumps_text(bumped, lang, you)


def _bumps_text(bumped: Sequence[str], lang: str, you: str | None) -> str:
    if not bumped:
        return ""
    names = [_t("yours", lang, color=color_name(c, lang)) if c == you else color_name(c, lang)
             for c in bumped]
    return _t("bumps_list", lang, colors=", ".join(names))


def option_text(option: Option, lang: str = "en", words: bool = False) -> str:
    """The option in a few words. As the CLI's JSON gives it, squares as codes: "T20 to
    T24, slides to T28, bumps blue"; with `words`, as a screen lists it: "from 1 square
    past blue's start circle to the triangle of blue's long slide, slides to ..."."""
    lang = _lang(lang)
    you = option.color
    if option.kind == "decline":
        return legs_text((), lang)
    if option.kind == "switch":
        leg = option.moves[0]
        other = color_name(leg.other, lang)
        if words:
            text_ = _t("switch_words", lang, other=other,
                       mine=on_place(LOCATIONS[leg.src], lang, you, you),
                       theirs=on_place(LOCATIONS[leg.landed], lang, leg.other, you))
        else:
            text_ = _t("switch_code", lang, src=LOCATIONS[leg.src], other=other,
                       dst=LOCATIONS[leg.landed])
        if leg.slid:
            text_ += (_t("slides", lang, to=place_to(LOCATIONS[leg.dst], lang, you, you))
                      if words else _t("slides_code", lang, dst=LOCATIONS[leg.dst]))
    else:
        text_ = _t("then", lang).join(
            _leg_words(leg, lang, you) if words else _leg_code(leg, lang)
            for leg in option.moves)
        if option.kind == "sorry":
            text_ = "Sorry! " + text_
    text_ += _bumps_text(option.bumped, lang, option.color)
    if option.wins:
        text_ += _t("wins_short", lang)
    return text_


def option_why(option: Option, lang: str = "en") -> str:
    """Why the option is allowed, naming each rule it uses, squares in the table's words."""
    lang = _lang(lang)
    parts: list[str] = []
    kind, card = option.kind, option.card
    if kind == "start":
        parts.append(_t("start_classic" if option.edition == "classic" else "start_circle"
                        if option.start_move == "circle" else "start_count", lang))
        if card == "sorry":
            parts.append(_t("sorry_four", lang))
    elif kind == "forward":
        parts.append(_t("sorry_four", lang) if card == "sorry"
                     else render("forward", {"card": card, "n": option.moves[0].steps}, lang))
    elif kind == "backward":
        parts.append(_t("backward_four" if card == "4" else "back_one", lang))
        if option.compulsory:
            parts.append(_t("compulsory", lang))
    elif kind == "split":
        parts.append(_t("split", lang, a=option.moves[0].steps, b=option.moves[1].steps))
    elif kind in ("switch", "sorry", "decline"):
        parts.append(_t(kind, lang))
    for leg in option.moves:
        if leg.landed == len(LOCATIONS) - 1:
            parts.append(_t("exact_home", lang))
        if leg.slid:
            slide = "slide_classic" if option.edition == "classic" else "slide_2016"
            parts.append(_t(slide, lang, color=color_name(leg.slide_color, lang),
                            color_f=color_name(leg.slide_color, lang, feminine=True),
                            end=place_to(LOCATIONS[leg.dst], lang, option.color,
                                         option.color)))
        if leg.held:
            parts.append(_t("held", lang))
    if option.bumped:
        parts.append(_t("bumps", lang, colors=", ".join(color_name(c, lang)
                                                        for c in option.bumped)))
    if option.wins:
        parts.append(_t("wins", lang))
    elif option.draw_again:
        parts.append(_t("draw_again", lang))
    text_ = _t("sep", lang).join(dict.fromkeys(parts))
    return text_[:1].upper() + text_[1:] + "."


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
        if has_sentence(what.code):
            try:
                return render(what.code, what.params, lang, words=True)
            except (KeyError, IndexError, ValueError):
                pass
        return str(what)
    raise TypeError(f"explain() words an Option, a Forfeited, a Blocked or a CompanionError, "
                    f"not {type(what).__name__}")
