"""Every sentence exists in English and French with the same facts, and every refusal the
board rules can raise has its sentence."""

from __future__ import annotations

import re
from pathlib import Path

import games.board.rules.rules as rules_module
from companion.catalogue import keys
from games.board.rules.explain import PREFIX, forfeit_text, has_sentence
from games.board.rules.moves import blocked, generate
from games.board.rules.position import Position

SOURCES = Path(rules_module.__file__).parent


def test_both_languages_have_every_sentence():
    """The referee's sentences are the catalogue's "x_" entries (their facts are checked
    by tests/ui/test_locales.py with every other text)."""
    english = {k for k in keys("en") if k.startswith(PREFIX)}
    assert len(english) > 60
    assert english == {k for k in keys("fr") if k.startswith(PREFIX)}


def test_every_refusal_and_block_code_of_the_rules_has_a_sentence():
    codes = set()
    for path in SOURCES.glob("*.py"):
        text = path.read_text()
        codes |= set(re.findall(r'_refuse\(\w+, "(\w+)"', text))
        codes |= set(re.findall(r'Blocked\([^,]+, "(\w+)"', text))
    codes |= {"decline_forward", "decline_no_switch", "no_switch_mine", "no_switch_theirs"}
    assert len(codes) > 20
    assert {c for c in codes if not has_sentence(c)} == set()


CODE = re.compile(r"\b(T\d+|S[1-5]|G1|start_move)\b")


def _random_positions(n: int) -> list[Position]:
    import random

    rng = random.Random(19)
    squares = [f"T{i}" for i in range(60)]
    out = []
    for i in range(n):
        edition = "classic" if i % 2 else "2016"
        count = 4 if edition == "classic" else 3
        free = rng.sample(squares, 12)
        pawns = {}
        for color in ("red", "blue", "yellow"):
            pawns[color] = [rng.choice(["START", "HOME", f"S{rng.randint(1, 5)}", free.pop()])
                            for _ in range(count)]
            safety = [p for p in pawns[color] if p.startswith("S") and p != "START"]
            if len(set(safety)) < len(safety):
                pawns[color] = ["START" if p.startswith("S") and p != "START" else p
                                for p in pawns[color]]
        settings = {"start_move": "circle"} if i % 4 == 0 else {}
        out.append(Position.parse({"edition": edition, "pawns": pawns, "settings": settings}))
    return out


def test_a_screen_never_shows_an_engine_code_in_either_language():
    """Labels, whys and forfeits name squares by what is printed near them; the codes stay
    in --json's `text` and legs."""
    seen = 0
    for p in _random_positions(60):
        for card in ("1", "2", "4", "7", "10", "11", "sorry"):
            found = generate(p, card, "red")
            for lang in ("en", "fr"):
                if not found:
                    text = forfeit_text("red", card, blocked(p, card, "red"), lang)
                    assert not CODE.search(text), text
                for o in found:
                    for text in (o.label(lang), o.why(lang)):
                        assert not CODE.search(text), text
                        seen += 1
    assert seen > 1000


def test_the_cli_json_keeps_the_codes_and_the_screen_the_words():
    p = Position.parse({"edition": "classic", "pawns": {"red": ["T20", "S3", "START", "HOME"],
                                                        "blue": ["T24", "START", "START",
                                                                 "START"]}})
    o = next(o for o in generate(p, "10", "red") if o.legs == (("T20", "T19"),))
    assert o.to_json()["text"] == "T20 back to T19" and o.to_json()["legs"] == [["T20", "T19"]]
    assert o.label("en") == "back from the square past blue's start circle to blue's start circle"
    reason = forfeit_text("red", "8", blocked(p, "5", "red"), words=False)
    assert "S3:" in reason
