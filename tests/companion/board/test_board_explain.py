"""Every sentence exists in English and French with the same facts, and every refusal the
board rules can raise has its sentence."""

from __future__ import annotations

import re
import string
from pathlib import Path

import companion.games.board.rules as rules_module
from companion.games.board.explain import TEXTS

SOURCES = Path(rules_module.__file__).parent


def _fields(template: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(template) if f}


def test_both_languages_have_every_sentence_with_the_same_facts():
    assert set(TEXTS["en"]) == set(TEXTS["fr"])
    for code, en in TEXTS["en"].items():
        fr = TEXTS["fr"][code]
        # derived facts: "a 5"/"an 8" in English, "1 case"/"5 cases" in French
        same = {"a_card": "card", "cases": "n"}
        assert ({same.get(f, f) for f in _fields(en)}
                == {same.get(f, f) for f in _fields(fr)}), code


def test_every_refusal_and_block_code_of_the_rules_has_a_sentence():
    codes = set()
    for path in SOURCES.glob("*.py"):
        text = path.read_text()
        codes |= set(re.findall(r'_refuse\(\w+, "(\w+)"', text))
        codes |= set(re.findall(r'Blocked\([^,]+, "(\w+)"', text))
    codes |= {"decline_forward", "decline_no_switch", "no_switch_mine", "no_switch_theirs"}
    assert len(codes) > 20
    assert codes <= set(TEXTS["en"]), codes - set(TEXTS["en"])
