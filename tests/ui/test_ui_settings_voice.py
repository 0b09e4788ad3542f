"""Issue 18: volume and "Test voice" on the Settings screen, by touch on the real app,
with a stand-in speech program that records what it was asked to say."""

from __future__ import annotations

import json
import stat
import time
from pathlib import Path

from ui.voice import Voice


def recording_voice(tmp_path: Path) -> tuple[Voice, Path]:
    record = tmp_path / "said"
    command = tmp_path / "espeak-ng"
    command.write_text(f'#!/bin/sh\nprintf "%s\\0" "$@" > "{record}.tmp"\n'
                       f'mv "{record}.tmp" "{record}"\n')
    command.chmod(command.stat().st_mode | stat.S_IEXEC)
    return Voice(str(command), enabled=False), record


def said(record: Path) -> list[str]:
    deadline = time.monotonic() + 20
    while not record.exists():  # another process writes it; no event to await
        assert time.monotonic() < deadline, "the speech command never ran"
        time.sleep(0.01)
    return [a.decode() for a in record.read_bytes().split(b"\0")[:-1]]


def test_volume_is_kept_and_test_voice_speaks_even_when_the_voice_is_off(driver, tmp_path):
    voice, record = recording_voice(tmp_path)
    data = tmp_path / "data"
    d = driver(data, language="fr", voice=voice)
    d.tap_id("start", "settings_button")
    settings = d.app.screen("settings")
    d.tap_id("settings", "voice_off")
    assert not voice.enabled
    for _ in range(3):
        d.tap_id("settings", "volume_plus")
    assert d.label("settings", "volume_value") == "80 %"
    assert voice.volume == 80
    assert json.loads((data / "settings.json").read_text())["volume"] == 80
    d.tap_id("settings", "test_voice")
    assert settings.note == "Écoutez : la voix parle maintenant."
    assert said(record) == ["-v", "fr", "-a", "160", "--", "Sorry ! Voici la voix, à ce volume."]
    for _ in range(12):
        d.tap_id("settings", "volume_minus")
    assert d.label("settings", "volume_value") == "0 %" and voice.volume == 0
    d.stop()

    d = driver(data, language="fr")
    assert d.app.settings.volume == 0  # settings.json read at the next start


def test_a_missing_output_is_said_at_test_voice(driver, tmp_path):
    voice, _record = recording_voice(tmp_path)
    voice.missing_output = "jack"  # as voice_for finds it on a Pi 5 told to use the jack
    d = driver(voice=voice)
    d.tap_id("start", "settings_button")
    d.tap_id("settings", "test_voice")
    assert d.app.screen("settings").note.startswith("This Pi has no headphone jack")
