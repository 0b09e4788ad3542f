"""Calls out the total and the big moments through a speech command (espeak-ng).

Speaking takes longer than a card does, so the screen never waits for it: `say` only
leaves the text for one worker thread, and an utterance still waiting when a newer one
arrives is dropped (the table wants the current total, not a backlog of old ones).

Loudness is espeak-ng's amplitude (`-a`, 0-200; volume 50 % is its own 100). With an
ALSA device (ui/sound_output.py) the speech program writes a WAV to its standard output
and `aplay -D DEVICE` plays it; without one it plays on its own default output.
"""

from __future__ import annotations

import shutil
import subprocess
import threading
from typing import TYPE_CHECKING

from ui.sound_output import NoSoundOutput, output_device, sound_cards

if TYPE_CHECKING:
    from ui.prefs import UiSettings

ESPEAK_VOICES = {"en": "en", "fr": "fr"}
SPEECH_TIMEOUT = 10.0
PLAYER = "aplay"  # ALSA's player, in alsa-utils on every Raspberry Pi OS
MAX_AMPLITUDE = 200  # espeak-ng's -a range is 0-200; volume 100 % is its 200
DEFAULT_VOLUME = 50  # espeak-ng's own loudness (-a 100): no -a is passed for it


def amplitude(volume: int) -> int:
    """espeak-ng's amplitude for a volume in percent (50 % is espeak-ng's default, 100)."""
    return round(max(0, min(100, volume)) * MAX_AMPLITUDE / 100)


class Voice:
    def __init__(self, command: str = "espeak-ng", *, enabled: bool = True,
                 volume: int = DEFAULT_VOLUME, device: str | None = None) -> None:
        self.path = shutil.which(command)
        self.enabled = enabled
        self.volume = volume
        self.device = device  # an ALSA device, or None for the program's own output
        self.missing_output: str | None = None  # the configured output, not found here
        self._pending: tuple[str, str] | None = None
        self._closed = False
        self._wake = threading.Condition()
        self._thread: threading.Thread | None = None
        self._speaking: subprocess.Popen[bytes] | None = None
        self.spoken = 0  # utterances handed to the command, for tests and the bench

    @property
    def available(self) -> bool:
        """Whether the speech command is installed here."""
        return self.path is not None

    def say(self, text: str, lang: str, *, even_off: bool = False) -> None:
        """Speak `text` soon; replaces anything not yet started. Never blocks.
        `even_off`: also when the voice is turned off (Settings' "Test voice")."""
        if not ((self.enabled or even_off) and self.path) or self._closed:
            return
        with self._wake:
            self._pending = (text, lang)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="voice", daemon=True)
                self._thread.start()
            self._wake.notify()

    def _run(self) -> None:
        while True:
            with self._wake:
                while self._pending is None and not self._closed:
                    self._wake.wait()
                if self._closed:
                    return
                text, lang = self._pending  # type: ignore[misc]
                self._pending = None
            self._speak(text, lang)

    def argv(self, text: str, lang: str) -> list[str]:
        """The speech program's arguments ("--": a name such as "--phonout=/tmp/x" is text
        to say, never an option)."""
        assert self.path is not None
        loud = amplitude(self.volume)
        louder = ["-a", str(loud)] if loud != amplitude(DEFAULT_VOLUME) else []
        wav = ["--stdout"] if self.device else []
        return [self.path, "-v", ESPEAK_VOICES.get(lang, "en"), *louder, *wav, "--", text]

    def _speak(self, text: str, lang: str) -> None:
        speaking: subprocess.Popen[bytes] | None = None
        player: subprocess.Popen[bytes] | None = None
        try:
            with self._wake:
                if self._closed:
                    return
                device = self.device
                speaking = self._speaking = subprocess.Popen(
                    self.argv(text, lang),
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.PIPE if device else subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
                if device:
                    player = subprocess.Popen(
                        [PLAYER, "-q", "-D", device], stdin=speaking.stdout,
                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                    if speaking.stdout is not None:
                        speaking.stdout.close()  # the player holds the pipe now
            finished = speaking.wait(timeout=SPEECH_TIMEOUT) == 0
            if player is not None:
                finished = player.wait(timeout=SPEECH_TIMEOUT) == 0 and finished
        except (OSError, subprocess.SubprocessError):
            finished = False  # a voice that fails must never disturb the game
        finally:
            if speaking is not None and speaking.stdout is not None:
                speaking.stdout.close()  # the player could not start: nobody reads it
            for process in (speaking, player):
                if process is not None and process.poll() is None:
                    process.kill()  # timed out, or nobody reads it: cut off
                    process.wait()
        if finished:
            self.spoken += 1

    def close(self) -> None:
        """Stop the worker and cut off the utterance being spoken: quitting never waits
        for speech."""
        with self._wake:
            self._closed = True
            self._wake.notify()
            speaking = self._speaking
        if speaking is not None and speaking.poll() is None:
            speaking.terminate()
        if self._thread is not None:
            self._thread.join(timeout=1.0)


def voice_for(settings: UiSettings, *, pi: bool) -> Voice:
    """The app's voice from its settings: program, on/off, volume, and the ALSA device of
    `[voice] output` on this machine (a missing one: the default, and `missing_output`)."""
    voice = Voice(settings.voice_command, enabled=settings.voice, volume=settings.volume)
    try:
        voice.device = output_device(settings.voice_output, sound_cards(), pi=pi)
    except NoSoundOutput as exc:
        voice.missing_output = exc.output
    return voice
