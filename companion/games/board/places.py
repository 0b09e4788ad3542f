"""A location in the words of the table: what is printed near the square, never its code.

No square number is printed on a Sorry! board, so the screen names a square by the
landmarks a player sees: a side's START circle and its start circle under it, its two
slides, its safety zone. Codes (T17, S4) stay in `--json` and transcripts.

Slides are named by the side they lie on ("blue's long slide"), not by their printed
colour, so the names stay true when the `slide_colors` setting recolours a slide.
Pawns on their own colour's landmarks read "your ..." when `you` is that colour.

>>> place("T21", "en", you="red")
"2 squares past blue's start circle"
>>> place("T4", "en", you="red"), place("S4", "en", owner="red", you="red")
('your start circle', 'square 4 of 5 in your safety zone')
>>> place("T24", "fr", you="red")
'le triangle de la grande glissade côté bleu'
>>> place_to("T19", "fr", you="blue"), place_to("START", "fr", owner="blue", you="red")
('à votre rond de départ', 'au DÉPART bleu')
"""

from __future__ import annotations

from companion.games.board.geometry import COLORS, SIDE_LEN

__all__ = ["PLACES", "place", "place_from", "place_to"]

COLOR_FR = {"red": "rouge", "blue": "bleu", "yellow": "jaune", "green": "vert"}
COLOR_FR_F = {"red": "rouge", "blue": "bleue", "yellow": "jaune", "green": "verte"}

# {side}: "blue's" / "your"; {side_m}, {side_f}: French "bleu"/"bleue" after a noun, or the
# possessive form for "your" (the table picks the "own_" key then).
PLACES: dict[str, dict[str, str]] = {
    "en": {
        "START": "{owner}START", "HOME": "{owner}HOME",
        "S": "square {k} of 5 in {owner_s} safety zone",
        "k0": "the square before {side} short slide",
        "k1": "the triangle of {side} short slide",
        "k2": "square 2 of {side} short slide",
        "k3": "square 3 of {side} short slide",
        "k4": "{side} start circle",
        "past_circle": "{n} squares past {side} start circle",
        "past_circle_1": "the square past {side} start circle",
        "k9": "the triangle of {side} long slide",
        "long": "square {j} of {side} long slide",
        "k13": "the end of {side} long slide",
        "k14": "the square past {side} long slide",
        "your": "your", "theirs": "{color}'s",
    },
    "fr": {
        "START": "le DÉPART {c_m}", "own_START": "votre DÉPART",
        "HOME": "la MAISON {c_f}", "own_HOME": "votre MAISON",
        "S": "la case {k} sur 5 de la zone de sécurité {c_f}",
        "own_S": "la case {k} sur 5 de votre zone de sécurité",
        "k0": "la case avant la petite glissade côté {c_m}",
        "own_k0": "la case avant votre petite glissade",
        "k1": "le triangle de la petite glissade côté {c_m}",
        "own_k1": "le triangle de votre petite glissade",
        "k2": "la case 2 de la petite glissade côté {c_m}",
        "own_k2": "la case 2 de votre petite glissade",
        "k3": "la case 3 de la petite glissade côté {c_m}",
        "own_k3": "la case 3 de votre petite glissade",
        "k4": "le rond de départ {c_m}", "own_k4": "votre rond de départ",
        "past_circle": "{n} cases après le rond de départ {c_m}",
        "own_past_circle": "{n} cases après votre rond de départ",
        "past_circle_1": "la case après le rond de départ {c_m}",
        "own_past_circle_1": "la case après votre rond de départ",
        "k9": "le triangle de la grande glissade côté {c_m}",
        "own_k9": "le triangle de votre grande glissade",
        "long": "la case {j} de la grande glissade côté {c_m}",
        "own_long": "la case {j} de votre grande glissade",
        "k13": "le bout de la grande glissade côté {c_m}",
        "own_k13": "le bout de votre grande glissade",
        "k14": "la case après la grande glissade côté {c_m}",
        "own_k14": "la case après votre grande glissade",
    },
}


def _key(location: str) -> tuple[str, dict[str, object], str | None]:
    """The table key of a location, its numbers, and the colour whose landmark it is
    (None: the pawn's own, START, HOME and the safety zone)."""
    if location in ("START", "HOME"):
        return location, {}, None
    if location.startswith("S"):
        return "S", {"k": int(location[1:])}, None
    n = int(location[1:])
    side, k = divmod(n, SIDE_LEN)
    color = COLORS[side]
    if 5 <= k <= 8:
        return ("past_circle_1" if k == 5 else "past_circle"), {"n": k - 4}, color
    if 10 <= k <= 12:
        return "long", {"j": k - 8}, color
    return f"k{k}", {}, color


def place(location: str, lang: str = "en", owner: str | None = None,
          you: str | None = None) -> str:
    """`location` (a code: START, T0..T59, S1..S5, HOME) as the table sees it. `owner`:
    the colour of the pawn there (whose START, safety zone or HOME); `you`: the colour
    of the player the sentence speaks to."""
    key, facts, side = _key(location)
    whose = side or owner or you or ""
    own = whose == you or whose == ""
    if lang == "fr":
        table = PLACES["fr"]
        key = f"own_{key}" if own and f"own_{key}" in table else key
        return table[key].format(c_m=COLOR_FR.get(whose, whose),
                                 c_f=COLOR_FR_F.get(whose, whose), **facts)
    table = PLACES["en"]
    possessive = table["your"] if own else table["theirs"].format(color=whose)
    if key in ("START", "HOME"):
        return table[key].format(owner="" if own else possessive + " ")
    return table[key].format(side=possessive, owner_s=possessive, **facts)


def _contract(name: str, plain: str, le: str, la: str) -> str:
    if name.startswith("le "):
        return le + name[3:]
    if name.startswith("la "):
        return la + name[3:]
    return plain + name


def place_to(location: str, lang: str = "en", owner: str | None = None,
             you: str | None = None) -> str:
    """"to <place>" / "à <lieu>" with French contractions (au, à la)."""
    name = place(location, lang, owner, you)
    if lang == "fr":
        return _contract(name, "à ", "au ", "à la ")
    return "to " + name


def place_from(location: str, lang: str = "en", owner: str | None = None,
               you: str | None = None) -> str:
    """"from <place>" / "de <lieu>" with French contractions (du, de la)."""
    name = place(location, lang, owner, you)
    if lang == "fr":
        return _contract(name, "de ", "du ", "de la ")
    return "from " + name

