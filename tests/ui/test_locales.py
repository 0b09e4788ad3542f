"""Both languages say everything (issue 20): a key missing in either language of the one
catalogue (companion/locales/<lang>.po) fails here, not on a screen in front of the
players; so does a plural form missing, or a placeholder that one language lacks. The
French-only keys are the core's refusals and the journal's notices, whose English is the
core's own sentence (ui.wording.refusal)."""

from __future__ import annotations

import gettext
import io
import re
import shutil
import string
import subprocess
from pathlib import Path

import pytest

from companion import catalogue
from companion.catalogue import Entry, number, read_po, text
from companion.glyphs import missing

LOCALES = catalogue.LOCALES
CORE_SENTENCES = ("refusal_", "notice_")  # English from companion/, French from the table


def _entries(lang: str) -> tuple[str, dict[str, Entry]]:
    header, entries = read_po(LOCALES / f"{lang}.po")
    keys = [e.key for e in entries]
    assert len(keys) == len(set(keys)), f"a key written twice in {lang}.po"
    return header, {e.key: e for e in entries}


def _fields(text_: str) -> set[str]:
    """The facts a text shows; "{color_f}" is the feminine form of "{color}" that French
    needs after a feminine noun ("la zone de sécurité bleue"), the same fact."""
    return {field.removesuffix("_f") for _lit, field, _spec, _conv
            in string.Formatter().parse(text_) if field}


def _nplurals(header: str) -> int:
    found = re.search(r"Plural-Forms:\s*nplurals=(\d+);", header)
    assert found, "the header names no Plural-Forms"
    return int(found.group(1))


def test_every_key_is_in_both_languages_with_the_same_placeholders_and_plurals(
        english: str = "en", french: str = "fr") -> None:
    (en_head, en), (fr_head, fr) = _entries(english), _entries(french)
    assert sorted(set(en) - set(fr)) == [], f"missing in {french}.po"
    extra = sorted(k for k in set(fr) - set(en) if not k.startswith(CORE_SENTENCES))
    assert extra == [], f"missing in {english}.po"
    both = sorted(set(en) & set(fr))
    counts = [k for k in both if en[k].count != fr[k].count]
    assert counts == [], "plural in one language only, or counted by another placeholder"
    for head, table in ((en_head, en), (fr_head, fr)):
        forms = _nplurals(head)
        short = sorted(k for k, e in table.items() if len(e.texts) != (forms if e.count else 1))
        assert short == [], f"plural forms missing (the header says {forms})"
        uncounted = sorted(k for k, e in table.items() if e.count
                           and any(e.count not in _fields(t) for t in e.texts))
        assert uncounted == [], "a plural form does not show its count"
    differ = sorted(k for k in both
                    if {frozenset(_fields(t)) for t in en[k].texts + fr[k].texts} != {
                        frozenset(_fields(en[k].texts[0]))})
    assert differ == [], "placeholders differ between the languages or the plural forms"


def test_the_check_fails_on_a_missing_key_or_plural_form(tmp_path, monkeypatch):
    """The check above can fail: a French catalogue without one key, or with a plural
    entry that lost a form, is caught."""
    source = (LOCALES / "fr.po").read_text("utf-8")
    (tmp_path / "en.po").write_text((LOCALES / "en.po").read_text("utf-8"), "utf-8")
    monkeypatch.setitem(globals(), "LOCALES", tmp_path)  # the check reads this folder
    cut = source.replace('msgid "recent_games"\n', 'msgid "recent_games_gone"\n')
    (tmp_path / "fr.po").write_text(cut, "utf-8")
    with pytest.raises(AssertionError, match=r"missing in fr\.po"):
        test_every_key_is_in_both_languages_with_the_same_placeholders_and_plurals()
    one_form = re.sub(r'(msgid_plural "n"\nmsgstr\[0\] "[^"]*")\nmsgstr\[1\] "[^"]*"', r"\1",
                      source, count=1)
    assert one_form != source
    (tmp_path / "fr.po").write_text(one_form, "utf-8")
    with pytest.raises(AssertionError, match="plural forms missing"):
        test_every_key_is_in_both_languages_with_the_same_placeholders_and_plurals()


def test_the_catalogues_are_what_gettext_itself_reads():
    """The in-memory .mo is the standard one: gettext's own reader gives the same texts
    and plural forms as the catalogue module."""
    for lang in catalogue.LANGUAGES:
        header, entries = read_po(LOCALES / f"{lang}.po")
        gnu = gettext.GNUTranslations(io.BytesIO(catalogue._mo(header, entries)))
        assert gnu.info()["language"] == lang
        for e in entries:
            if e.count:
                assert [gnu.ngettext(e.key, e.count, n) for n in (1, 2)] == list(e.texts)
            else:
                assert gnu.gettext(e.key) == e.texts[0]


@pytest.mark.parametrize("lang,counts", [
    ("en", {0: "0 cards:", 1: "1 card:", 2: "2 cards:"}),
    ("fr", {0: "0 carte :", 1: "1 carte :", 2: "2 cartes :"}),
])
def test_plural_forms_follow_each_languages_rule(lang, counts):
    """French counts 0 and 1 as singular, English only 1 (gettext's Plural-Forms)."""
    for n, words in counts.items():
        assert words in text("take2_skipped", lang, name="Ana", n=n)


def test_numbers_are_written_the_languages_way():
    assert number(1234567, "en") == "1,234,567" and number(2.5, "en") == "2.5"
    assert number(1234567, "fr") == "1\u00a0234\u00a0567" and number(2.5, "fr") == "2,5"
    assert text("backup_done", "fr", path="/media/x", games=1234).endswith(
        "(1\u00a0234 parties).")


def test_every_text_is_drawn_by_the_screens_font():
    """Roboto has no narrow no-break space (U+202F) and no fallback font: a character it
    lacks would be an empty box on the screen. The tick of "back_side" is drawn with the
    Symbols font (ui/revenge/table.kv)."""
    for lang in catalogue.LANGUAGES:
        _head, table = _entries(lang)
        bad = {k: missing(t.replace("\n", "")) for k, e in table.items() for t in e.texts
               if missing(t.replace("\n", "")) and k != "back_side"}
        assert bad == {}, f"{lang}.po has characters the screen's font cannot draw"


def test_the_po_files_are_the_only_catalogue():
    """No second table of words beside the catalogue (the old ui/locales)."""
    assert not (Path(__file__).parents[2] / "ui" / "locales").exists()


KEY_CALL = re.compile(r"""\b(tr|bt|app\.t|_t|text)\(\s*["']([a-z][a-z0-9_]*)["']\s*[,)]""")


def test_every_key_the_code_names_is_in_the_catalogue():
    """A key written in the code (Python or .kv) but in no catalogue would raise on the
    screen; the referee's `_t` keys carry explain.py's prefix."""
    root = Path(__file__).parents[2]
    named: dict[str, str] = {}
    for folder in ("ui", "companion", "hardware"):
        for path in [*(root / folder).rglob("*.py"), *(root / folder).rglob("*.kv")]:
            source = path.read_text("utf-8")
            for call, key in KEY_CALL.findall(source):
                prefix = "x_" if call == "_t" and path.name == "explain.py" else ""
                named.setdefault(prefix + key, str(path.relative_to(root)))
    assert len(named) > 200
    unknown = {k: where for k, where in named.items() if not catalogue.has(k, "en")}
    assert unknown == {}, "keys the code uses that no catalogue has"


@pytest.mark.skipif(shutil.which("msgfmt") is None, reason="GNU gettext's msgfmt is not installed")
def test_gnu_msgfmt_accepts_the_catalogues_and_compiles_the_same_texts(tmp_path):
    """The .po files are real gettext: GNU msgfmt checks them (plural forms against the
    header), and its .mo holds exactly what our in-memory compiler gives."""
    for lang in catalogue.LANGUAGES:
        mo = tmp_path / f"{lang}.mo"
        subprocess.run(["msgfmt", "--check", "-o", str(mo), str(LOCALES / f"{lang}.po")],
                       check=True, capture_output=True)
        header, entries = read_po(LOCALES / f"{lang}.po")
        ours = gettext.GNUTranslations(io.BytesIO(catalogue._mo(header, entries)))
        theirs = gettext.GNUTranslations(io.BytesIO(mo.read_bytes()))
        assert ours._catalog == theirs._catalog
