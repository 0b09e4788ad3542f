"""What the screen says, from the core's facts: refusals and undo labels, in both languages
(no Kivy)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from companion.errors import CompanionError
from companion.session import Session
from games.revenge.rules import Card, EndPlay2, Play, Press, Setup
from games.revenge.screens.wording import step_label
from ui.i18n import has
from ui.wording import refusal, status_text

ROOT = Path(__file__).resolve().parents[2]
CORE = ROOT / "companion"


def test_every_refusal_code_in_the_core_has_a_french_sentence():
    codes = set()
    # The core and the card game (the board game's screens are issue 12's).
    for path in [*CORE.glob("*.py"), *(ROOT / "games" / "revenge" / "rules").glob("*.py")]:
        codes |= set(re.findall(r'code="([a-z0-9_]+)"', path.read_text(encoding="utf-8")))
    assert len(codes) >= 15
    missing = sorted(c for c in codes if not has(f"refusal_{c}", "fr"))
    assert missing == []


def refused(action) -> CompanionError:
    with pytest.raises(CompanionError) as info:
        action()
    return info.value


def test_refusals_reached_by_touch_read_in_french_with_their_facts():
    session = Session()
    no_game = refused(lambda: session.submit(Play(Card.parse("3"))))
    session.new_game(Setup.create(["Ana", "Ben", "Cy"], pawns=1))
    session.submit(Play(Card.parse("play2")))
    owed = refused(lambda: session.submit(Play(Card.parse("switch"))))
    session.submit(EndPlay2())
    nothing = refused(session.redo)
    for code in ("10", "10", "1"):
        session.submit(Play(Card.parse(code)))  # Ben, Cy, Ana: Ana reaches 21
    decides = refused(lambda: session.submit(Play(Card.parse("4"))))  # closing would make Ana win
    said = {exc.code: refusal(exc, "fr") for exc in (no_game, owed, nothing, decides)}
    assert said == {
        "no_game": "Aucune partie n'est ouverte : commencez une nouvelle partie.",
        "play2_owed": "Ana doit encore 2 cartes numéro pour Jouez-en 2 : impossible de jouer "
                      "Changement de direction maintenant ; notez une carte numéro ou "
                      "terminez le Jouez-en 2.",
        "nothing_to_redo": "Il n'y a rien à rétablir.",
        "window_decides": "La fenêtre SORRY! ouverte décide de la partie : fermez-la avant "
                          "de noter une autre carte.",
    }
    assert refusal(owed, "en").startswith("Ana owes 2 number cards for Play 2")


def test_undo_and_redo_say_what_they_take_back_in_both_languages():
    session = Session()
    session.new_game(Setup.create(["Ana", "Ben", "Cy"]))
    for code in ("10", "10", "1"):
        session.submit(Play(Card.parse(code)))
    session.submit(Press("Ben", 1.0))
    session.close_window()

    def undo_says(lang: str) -> str:
        step = session.update.undo
        return step_label(step.event, step.before, lang)

    assert undo_says("en") == "the SORRY! window closed"
    assert undo_says("fr") == "fin de la fenêtre SORRY!"
    session.undo()
    redo = session.update.redo
    assert step_label(redo.event, redo.before, "en") == "the SORRY! window closed"
    assert undo_says("en") == "Ben pressed SORRY!"
    session.undo()
    assert undo_says("en") == "Cy played 1"
    assert undo_says("fr") == "Cy a joué 1"


def test_messages_become_full_sentences_and_names_keep_their_case():
    from ui.wording import sentence, sentences

    assert sentences(["ana blocked the steal", "ana keeps the round"]) == (
        "ana blocked the steal. ana keeps the round.")
    assert sentence("Cy a atteint 21 !") == "Cy a atteint 21 !"
    assert sentence("Which one?") == "Which one?"
    assert sentence("  ") == ""


def test_the_status_line_says_touch_only_as_the_readme_does():
    """No GPIO buttons (a desktop): the README says the status line reads "touch only"."""
    readme = (Path(__file__).parents[2] / "README.md").read_text(encoding="utf-8")
    said = status_text("buttons", "touch only", "no GPIO on this machine", "en")
    assert said == "Buttons: none, touch only" and f'"{said}"' in readme
    assert status_text("buttons", "touch only", "", "fr") == "Boutons : aucun, tactile seulement"
    assert status_text("ledboard", "absent", "", "en") == "LED board: not found"


def test_card_names_come_from_the_catalogue_and_english_is_the_cores_label():
    from games.revenge.rules.cards import ALL_CARDS
    from games.revenge.screens.wording import card_name

    assert [card_name(c.code, "en") for c in ALL_CARDS] == [c.label for c in ALL_CARDS]
    french = {card_name(c.code, "fr") for c in ALL_CARDS}
    assert {"Glissade 15", "Changement de direction", "Pigez-en 2", "Jouez-en 2",
            "SORRY!", "7"} <= french
