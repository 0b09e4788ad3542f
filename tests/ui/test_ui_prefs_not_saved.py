"""Issue 9, finding 5: settings.json or choices.json that cannot be written (a full disk,
no inodes) is one sentence on screen; the app and the game go on.

The write is made to fail for real: a folder stands where the temporary file must go
(this works even for root, who ignores file permissions).
"""

from __future__ import annotations

from ui_helpers import setup_by_touch


def test_failed_settings_and_choices_writes_keep_the_app_running(driver, tmp_path):
    data = tmp_path / "data"
    d = driver(data)
    (data / "settings.tmp").mkdir()
    (data / "choices.tmp").mkdir()
    d.tap_id("start", "settings_button")
    d.tap_id("settings", "steal_plus")
    assert "settings.json" in d.app.screen("settings").note
    d.tap_id("settings", "lang_fr")
    assert d.app.lang == "fr"
    assert d.app.model.message.startswith("Impossible d'enregistrer settings.json")
    d.tap_id("settings", "settings_back")
    setup_by_touch(d, ["Ana", "Ben"], pawns=2, variant="standard")
    assert d.screen == "table" and d.app.session.state is not None
    assert "choices.json" in d.app.model.message
    assert d.app.journal.unfinished() is not None  # the game itself is safe in the journal
    assert not (data / "settings.json").exists() and not (data / "choices.json").exists()
