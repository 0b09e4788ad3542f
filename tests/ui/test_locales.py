"""Both languages say everything (issue 20): a key missing in either language fails here,
not on a screen in front of the players. The French-only keys are the core's refusals and
the journal's notices, whose English is the core's own sentence (ui.wording.refusal)."""

from __future__ import annotations

import json
import string
from pathlib import Path

import pytest

LOCALES = Path(__file__).parents[2] / "ui" / "locales"
CORE_SENTENCES = ("refusal_", "notice_")  # English from companion/, French from the table


def _texts(name: str) -> dict[str, str]:
    texts: dict[str, str] = json.loads((LOCALES / f"{name}.json").read_text("utf-8"))
    return texts


def _fields(text: str) -> set[str]:
    return {field for _lit, field, _spec, _conv in string.Formatter().parse(text) if field}


@pytest.mark.parametrize("english,french", [("en", "fr"), ("board_en", "board_fr")])
def test_every_key_is_in_both_languages_with_the_same_placeholders(english, french):
    en, fr = _texts(english), _texts(french)
    assert sorted(set(en) - set(fr)) == [], f"missing in {french}.json"
    extra = sorted(k for k in set(fr) - set(en) if not k.startswith(CORE_SENTENCES))
    assert extra == [], f"missing in {english}.json"
    differ = sorted(k for k in set(en) & set(fr) if _fields(en[k]) != _fields(fr[k]))
    assert differ == [], "placeholders differ between the languages"


def test_the_check_fails_on_a_missing_key(tmp_path, monkeypatch):
    """The check above can fail: a French table without one key is caught."""
    fr = _texts("fr")
    fr.pop("recent_games")
    (tmp_path / "fr.json").write_text(json.dumps(fr), "utf-8")
    (tmp_path / "en.json").write_text((LOCALES / "en.json").read_text("utf-8"), "utf-8")
    monkeypatch.setitem(globals(), "LOCALES", tmp_path)  # the check reads this folder
    with pytest.raises(AssertionError, match=r"missing in fr\.json"):
        test_every_key_is_in_both_languages_with_the_same_placeholders("en", "fr")
