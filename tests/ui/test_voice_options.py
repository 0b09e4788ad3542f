"""Issue 9, finding 11: a spoken name never reaches espeak-ng as an option.

A stand-in speech command records its arguments; a name such as `--phonout=/tmp/x`
(which would make espeak-ng write a file where the name says) must come after `--`.
"""

from __future__ import annotations

import os
import stat
import time
from pathlib import Path

import pytest

from ui.prefs import UiSettings
from ui.sound_output import NoSoundOutput, output_device, sound_cards
from ui.voice import Voice, voice_for


def wait_for_file(path: Path, what: str) -> None:
    deadline = time.monotonic() + 20
    while not path.exists():  # another process writes it; no event to await
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.01)


def test_text_that_looks_like_an_option_comes_after_double_dash(tmp_path):
    record, target = tmp_path / "argv", tmp_path / "x"
    command = tmp_path / "espeak-ng"
    command.write_text(f'#!/bin/sh\nprintf "%s\\0" "$@" > "{record}.tmp"\n'
                       f'mv "{record}.tmp" "{record}"\n')
    command.chmod(command.stat().st_mode | stat.S_IEXEC)
    voice = Voice(str(command))
    try:
        voice.say(f"--phonout={target}", "fr")
        wait_for_file(record, "the speech command to run")
    finally:
        voice.close()
    argv = record.read_bytes().split(b"\0")[:-1]
    assert argv == [b"-v", b"fr", b"--", f"--phonout={target}".encode()]
    assert not target.exists()


# --- [voice] output and volume (issue 18) ---

PI4_CARDS = """ 0 [Headphones     ]: bcm2835_headphonbcm2835 Headphones - bcm2835 Headphones
                      bcm2835 Headphones
 1 [vc4hdmi0       ]: vc4-hdmi - vc4-hdmi-0
                      vc4-hdmi-0
 2 [vc4hdmi1       ]: vc4-hdmi - vc4-hdmi-1
                      vc4-hdmi-1
"""
USB_CARD = """ 3 [UACDemoV10     ]: USB-Audio - UACDemoV1.0
                      Jieli Technology UACDemoV1.0 at usb-xhci-hcd.0-1, full speed
"""


def asound(tmp_path: Path, text: str) -> Path:
    root = tmp_path / "asound"
    root.mkdir(parents=True)
    (root / "cards").write_text(text)
    if "USB-Audio" in text:
        (root / "card3").mkdir()
        (root / "card3" / "usbid").write_text("4c4a:4155\n")
    return root


def test_each_output_is_a_card_of_the_pi(tmp_path: Path) -> None:
    pi4 = sound_cards(asound(tmp_path, PI4_CARDS))
    assert [c.name for c in pi4] == ["Headphones", "vc4hdmi0", "vc4hdmi1"]
    assert output_device("jack", pi4, pi=True) == "default:CARD=Headphones"
    assert output_device("hdmi", pi4, pi=True) == "default:CARD=vc4hdmi0"
    assert output_device("auto", pi4, pi=True) == "default:CARD=Headphones"
    with pytest.raises(NoSoundOutput) as missing:
        output_device("usb", pi4, pi=True)
    assert missing.value.output == "usb"
    pi5_usb = sound_cards(asound(tmp_path / "5", PI4_CARDS.split(" 0 [")[0]
                                 + PI4_CARDS[PI4_CARDS.index(" 1 ["):] + USB_CARD))
    assert output_device("auto", pi5_usb, pi=True) == "default:CARD=UACDemoV10"
    with pytest.raises(NoSoundOutput):
        output_device("jack", pi5_usb, pi=True)
    assert output_device("auto", pi4, pi=False) is None  # a desktop: its sound server
    assert sound_cards(tmp_path / "none") == []


def test_a_device_plays_through_aplay_at_the_volume(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    speech, played = tmp_path / "speech-argv", tmp_path / "played"
    write_script(bin_dir / "espeak-ng", f'printf "%s\\0" "$@" > "{speech}"\nprintf RIFFwav\n')
    write_script(bin_dir / "aplay", f'{{ printf "%s\\0" "$@"; cat; }} > "{played}.tmp"\n'
                                    f'mv "{played}.tmp" "{played}"\n')
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    voice = Voice("espeak-ng", volume=80, device="default:CARD=Headphones")
    try:
        voice.say("Sorry!", "en")
        wait_for_file(played, "aplay to play")
    finally:
        voice.close()
    assert speech.read_bytes().split(b"\0")[:-1] == [
        b"-v", b"en", b"-a", b"160", b"--stdout", b"--", b"Sorry!"]
    assert played.read_bytes() == b"-q\0-D\0default:CARD=Headphones\0RIFFwav"


def test_a_missing_output_is_noted_and_the_default_is_used(tmp_path: Path) -> None:
    settings = UiSettings(voice_output="jack", volume=30)
    voice = voice_for(settings, pi=True)  # this machine has no "Headphones" card
    assert voice.device is None and voice.volume == 30
    assert voice.missing_output == "jack"


def write_script(path: Path, body: str) -> None:
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(path.stat().st_mode | stat.S_IEXEC)
