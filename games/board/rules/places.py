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

from companion.catalogue import has, text
from games.board.rules.geometry import COLORS, SIDE_LEN

__all__ = ["color_name", "contract", "place", "place_from", "place_to"]

# The catalogue words each landmark twice: "place_<key>" someone's ("blue's start
# circle", "le rond de départ bleu": {color}, or the feminine {color_f}), and
# "place_own_<key>" the player's own ("your start circle", "votre rond de départ").
# French contracts a preposition with the article after it: "à le DÉPART" is "au DÉPART".
CONTRACTIONS = {"fr": (("à le ", "au "), ("de le ", "du "))}


def color_name(color: str, lang: str = "en", feminine: bool = False) -> str:
    """A colour in the words of `lang`, lower case ("blue", "bleu"; "bleue" after a
    feminine noun); an unknown colour as it is."""
    key = f"b_color_f_{color}" if feminine else f"b_color_{color}"
    return text(key, lang) if has(key, "en") else color


def contract(words: str, lang: str) -> str:
    """`words` with the language's compulsory contraction at its start, if any."""
    for full, short in CONTRACTIONS.get(lang, ()):
        if words.startswith(full):
            return short + words[len(full):]
    return words


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
    if whose == you or whose == "":
        return text(f"place_own_{key}", lang, **facts)
    return text(f"place_{key}", lang, color=color_name(whose, lang),
                color_f=color_name(whose, lang, feminine=True), **facts)


def place_to(location: str, lang: str = "en", owner: str | None = None,
             you: str | None = None) -> str:
    """"to <place>" / "à <lieu>" with French contractions (au, à la)."""
    return contract(text("x_to", lang, place=place(location, lang, owner, you)), lang)


def place_from(location: str, lang: str = "en", owner: str | None = None,
               you: str | None = None) -> str:
    """"from <place>" / "de <lieu>" with French contractions (du, de la)."""
    return contract(text("x_from", lang, place=place(location, lang, owner, you)), lang)
