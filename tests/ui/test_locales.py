"""Both languages say everything (issue 20): a key missing in either language of the
catalogue (companion/locales/<lang>.po, and each game's games/<g>/locales/<lang>.po) fails
here, not on a screen in front of the players; so does a plural form missing, or a
placeholder that one language lacks. The French-only keys are the core's refusals and the
journal's notices, whose English is the core's own sentence (ui.wording.refusal)."""

from __future__ import annotations

import gettext
import importlib
import re
import shutil
import string
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po

import compile_locales
import games
from companion import catalogue
from companion.catalogue import number, text
from companion.glyphs import missing

# The games kept as the tests' fixtures add their words when their words module is first
# imported, as a registered game's do once its screens are shown.
for _package in games.FIXTURES.values():
    importlib.import_module(importlib.import_module(_package).MANIFEST.words)
CORE_SENTENCES = ("refusal_", "notice_")  # English from companion/, French from the table
# Every folder of .po files in the checkout: the core's and each game plugin's.
FOLDERS = sorted({po.parent for po in compile_locales.sources()})


@dataclass(frozen=True, slots=True)
class Entry:
    """One message of a .po file: its key, the counting placeholder if it has plural
    forms (else ""), and its texts (one, or one per plural form)."""

    key: str
    count: str
    texts: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Po:
    """A .po file as Babel reads it: its plural rule and its entries by key."""

    forms: int
    rule: str
    entries: dict[str, Entry]


def _read(po: Path) -> Po:
    with po.open("rb") as source:
        cat = read_po(source, abort_invalid=True)
    entries = []
    for m in list(cat)[1:]:
        if isinstance(m.id, str):
            entries.append(Entry(m.id, "", (str(m.string),)))
        else:
            entries.append(Entry(m.id[0], m.id[1], tuple(m.string)))
    keys = [e.key for e in entries]
    assert len(keys) == len(set(keys)), f"a key written twice in {po}"
    return Po(cat.num_plurals, cat.plural_expr, {e.key: e for e in entries})


def _fields(text_: str) -> set[str]:
    """The facts a text shows; "{color_f}" is the feminine form of "{color}" that French
    needs after a feminine noun ("la zone de sécurité bleue"), the same fact."""
    return {field.removesuffix("_f") for _lit, field, _spec, _conv
            in string.Formatter().parse(text_) if field}


def check_folder(folder: Path, english: str = "en", french: str = "fr") -> None:
    """Both languages of one locale folder say the same keys with the same facts, and
    each says its plural forms the way its language counts."""
    en_po, fr_po = _read(folder / f"{english}.po"), _read(folder / f"{french}.po")
    en, fr = en_po.entries, fr_po.entries
    assert sorted(set(en) - set(fr)) == [], f"missing in {french}.po"
    extra = sorted(k for k in set(fr) - set(en) if not k.startswith(CORE_SENTENCES))
    assert extra == [], f"missing in {english}.po"
    both = sorted(set(en) & set(fr))
    counts = [k for k in both if en[k].count != fr[k].count]
    assert counts == [], "plural in one language only, or counted by another placeholder"
    for lang, po in ((english, en_po), (french, fr_po)):
        cldr = get_plural(lang)
        assert (po.forms, po.rule) == (cldr.num_plurals, cldr.plural_expr), (
            f"{lang}.po's Plural-Forms is not the language's own ({cldr})")
        table = po.entries
        # Babel reads a form that is not written as an empty text
        short = sorted(k for k, e in table.items()
                       if len(e.texts) != (po.forms if e.count else 1) or not all(e.texts))
        assert short == [], f"plural forms missing (the header says {po.forms})"
        uncounted = sorted(k for k, e in table.items() if e.count
                           and any(e.count not in _fields(t) for t in e.texts))
        assert uncounted == [], "a plural form does not show its count"
    differ = sorted(k for k in both
                    if {frozenset(_fields(t)) for t in en[k].texts + fr[k].texts} != {
                        frozenset(_fields(en[k].texts[0]))})
    assert differ == [], "placeholders differ between the languages or the plural forms"


def test_the_core_and_every_plugin_folder_are_checked():
    assert catalogue.LOCALES in FOLDERS
    assert set(FOLDERS) <= set(catalogue.folders()), "a locale folder no plugin registered"


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda f: f.parent.name)
def test_every_key_is_in_both_languages_with_the_same_placeholders_and_plurals(folder):
    check_folder(folder)


def test_the_check_fails_on_a_missing_key_a_plural_form_or_a_wrong_rule(tmp_path):
    """The check above can fail: a French catalogue without one key, with a plural
    entry that lost a form, or counting the English way, is caught."""
    source = (catalogue.LOCALES / "fr.po").read_text("utf-8")
    shutil.copy(catalogue.LOCALES / "en.po", tmp_path / "en.po")
    cases = {
        r"missing in fr\.po": source.replace('msgid "recent_games"\n',
                                             'msgid "recent_games_gone"\n'),
        "plural forms missing": re.sub(
            r'(msgid_plural "n"\nmsgstr\[0\] "[^"]*")\nmsgstr\[1\] "[^"]*"', r"\1",
            source, count=1),
        "not the language's own": source.replace("plural=(n > 1);", "plural=(n != 1);"),
    }
    for message, broken in cases.items():
        assert broken != source
        (tmp_path / "fr.po").write_text(broken, "utf-8")
        with pytest.raises(AssertionError, match=message):
            check_folder(tmp_path)


def test_no_key_is_in_two_folders():
    """A plugin's key that the core (or another plugin) also has would never be seen."""
    seen: dict[str, Path] = {}
    twice = []
    for folder in FOLDERS:
        for key in _read(folder / "en.po").entries:
            if key in seen:
                twice.append((key, seen[key], folder))
            seen[key] = folder
    assert twice == []


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda f: f.parent.name)
def test_the_built_mo_files_say_what_the_po_files_say(folder):
    """The .mo files the build wrote (compile_locales.py) are the .po files as gettext's
    own reader sees them: the same texts, plural forms, counting names and plural rule;
    a stale .mo fails here."""
    for lang in catalogue.LANGUAGES:
        po = _read(folder / f"{lang}.po")
        with (folder / f"{lang}.mo").open("rb") as source:
            gnu = gettext.GNUTranslations(source)
        assert gnu.info()["language"] == lang
        assert gnu.info()["plural-forms"] == f"nplurals={po.forms}; plural={po.rule};"
        for e in po.entries.values():
            if e.count:
                assert [gnu.ngettext(e.key, e.count, n) for n in (1, 2)] == list(e.texts)
                assert gnu.pgettext(catalogue.PLURAL_NAME, e.key) == e.count
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
    for folder in FOLDERS:
        for lang in catalogue.LANGUAGES:
            table = _read(folder / f"{lang}.po").entries
            bad = {k: missing(t.replace("\n", "")) for k, e in table.items() for t in e.texts
                   if missing(t.replace("\n", "")) and k != "back_side"}
            assert bad == {}, f"{folder}/{lang}.po has characters the screen's font cannot draw"


def test_the_po_files_are_the_only_catalogue():
    """No second table of words beside the catalogue (the old ui/locales)."""
    assert not (Path(__file__).parents[2] / "ui" / "locales").exists()


KEY_CALL = re.compile(r"""\b(tr|bt|app\.t|_t|text)\(\s*["']([a-z][a-z0-9_]*)["']\s*[,)]""")


def test_every_key_the_code_names_is_in_the_catalogue():
    """A key written in the code (Python or .kv) but in no catalogue would raise on the
    screen; the referee's `_t` keys carry explain.py's prefix."""
    root = Path(__file__).parents[2]
    named: dict[str, str] = {}
    for folder in ("ui", "companion", "hardware", "games"):  # games/: each game's folder
        for path in [*(root / folder).rglob("*.py"), *(root / folder).rglob("*.kv")]:
            source = path.read_text("utf-8")
            for call, key in KEY_CALL.findall(source):
                prefix = "x_" if call == "_t" and path.name == "explain.py" else ""
                named.setdefault(prefix + key, str(path.relative_to(root)))
    assert len(named) > 200
    unknown = {k: where for k, where in named.items() if not catalogue.has(k, "en")}
    assert unknown == {}, "keys the code uses that no catalogue has"


@pytest.mark.skipif(shutil.which("msgfmt") is None, reason="GNU gettext's msgfmt is not installed")
@pytest.mark.parametrize("folder", FOLDERS, ids=lambda f: f.parent.name)
def test_gnu_msgfmt_accepts_the_catalogues_and_compiles_the_same_texts(folder, tmp_path):
    """The .po files are real gettext: GNU msgfmt checks them (plural forms against the
    header), and its .mo holds exactly the texts of Babel's (which adds the counting
    names, under their own context, and writes its own header)."""
    for lang in catalogue.LANGUAGES:
        mo = tmp_path / f"{lang}.mo"
        subprocess.run(["msgfmt", "--check", "-o", str(mo), str(folder / f"{lang}.po")],
                       check=True, capture_output=True)
        tables = []
        for path in (folder / f"{lang}.mo", mo):
            with path.open("rb") as source:
                table = vars(gettext.GNUTranslations(source))["_catalog"]
            tables.append({k: v for k, v in table.items()
                           if k and not (isinstance(k, str) and "\x04" in k)})
        assert tables[0] == tables[1]


@pytest.fixture
def plugin_folders(monkeypatch):
    """catalogue's folders as they are, restored afterwards (its chains are kept by the
    folders they chain, so a restored list finds its own again)."""
    monkeypatch.setattr(catalogue, "_folders", [catalogue.LOCALES])
    yield


PLUGIN_PO = """msgid ""
msgstr ""
"Language: {lang}\\n"
"Content-Type: text/plain; charset=UTF-8\\n"
"Plural-Forms: nplurals=2; plural={rule};\\n"

msgid "zz_tokens"
msgid_plural "count"
msgstr[0] "{one}"
msgstr[1] "{many}"
"""


def test_a_plugin_folder_adds_its_keys_after_the_cores(tmp_path, plugin_folders):
    """One call registers a game plugin's locale folder: its keys come in each language
    with that language's plural rule, the core's keys stay, and a key its French lacks
    falls back to its English, as the core's do."""
    (tmp_path / "en.po").write_text(PLUGIN_PO.format(
        lang="en", rule="(n != 1)", one="{count} token", many="{count} tokens")
        + '\nmsgid "zz_only_english"\nmsgstr "Only in English"\n', "utf-8")
    (tmp_path / "fr.po").write_text(PLUGIN_PO.format(
        lang="fr", rule="(n > 1)", one="{count} jeton", many="{count} jetons"), "utf-8")
    compile_locales.compile_all(sorted(tmp_path.glob("*.po")))
    assert not catalogue.has("zz_tokens", "fr")
    catalogue.add_locales(tmp_path)
    catalogue.add_locales(tmp_path)  # twice is once
    found = catalogue.folders()  # the core's first, this one last and once
    assert found[0] == catalogue.LOCALES and found[-1] == tmp_path.resolve()
    assert found.count(tmp_path.resolve()) == 1
    assert [text("zz_tokens", "fr", count=n) for n in (0, 1, 2, 1500)] == [
        "0 jeton", "1 jeton", "2 jetons", "1\u00a0500 jetons"]
    assert [text("zz_tokens", "en", count=n) for n in (0, 1, 2)] == [
        "0 tokens", "1 token", "2 tokens"]
    assert catalogue.has("zz_tokens", "fr") and not catalogue.has("zz_only_english", "fr")
    assert text("zz_only_english", "fr") == "Only in English"
    assert {"zz_tokens", "hand"} <= catalogue.keys("fr")
    assert text("hand", "fr", n=2) == "2 en main"


def test_a_plugin_folder_without_its_built_mo_says_so(tmp_path, plugin_folders):
    (tmp_path / "fr.po").write_text(PLUGIN_PO.format(
        lang="fr", rule="(n > 1)", one="{count} jeton", many="{count} jetons"), "utf-8")
    catalogue.add_locales(tmp_path)
    with pytest.raises(FileNotFoundError, match=r"fr\.mo is missing: .* run `make`"):
        text("hand", "fr", n=1)


def test_a_key_no_language_has_raises_key_error():
    with pytest.raises(KeyError):
        text("no_such_key", "fr")
    assert not catalogue.has("no_such_key", "en")


def test_a_text_asked_again_walks_no_catalogue(monkeypatch):
    """A board tap asks a dozen texts: each key's catalogue entry is found once per
    language (catalogue._entries), and only filled in after that; plurals still count."""
    first = text("undo", "fr", what="Ana")
    walked: list[str] = []
    for kind in (gettext.GNUTranslations, gettext.NullTranslations):
        for name in ("gettext", "pgettext"):
            real = getattr(kind, name)
            monkeypatch.setattr(kind, name, lambda self, *a, real=real: (
                walked.append(a[-1]), real(self, *a))[1])
    assert text("undo", "fr", what="Ana") == first == "Annuler : Ana"
    assert text("undo", "fr", what="Ben") == "Annuler : Ben"
    assert walked == []
    assert text("hand", "fr", n=2) == "2 en main" and text("hand", "fr", n=1) == "1 en main"
