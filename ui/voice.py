"""Calls out the total and the big moments through a speech command (espeak-ng).

Speaking takes longer than a card does, so the screen never waits for it: `say` only
leaves the text for one worker thread, and an utterance still waiting when a newer one
arrives is dropped (the table wants the current total, not a backlog of old ones).
"""

from __future__ import annotations

import shutil
import subprocess
import threading

ESPEAK_VOICES = {"en": "en", "fr": "fr"}
SPEECH_TIMEOUT = 10.0


class Voice:
    def __init__(self, command: str = "espeak-ng", *, enabled: bool = True) -> None:
        self.path = shutil.which(command)
        self.enabled = enabled
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

    def say(self, text: str, lang: str) -> None:
        """Speak `text` soon; replaces anything not yet started. Never blocks."""
        if not (self.enabled and self.path) or self._closed:
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

    def _speak(self, text: str, lang: str) -> None:
        assert self.path is not None
        try:
            with self._wake:
                if self._closed:
                    return
                # "--": a name such as "--phonout=/tmp/x" is text to say, never an option
                self._speaking = subprocess.Popen(
                    [self.path, "-v", ESPEAK_VOICES.get(lang, "en"), "--", text],
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
            finished = self._speaking.wait(timeout=SPEECH_TIMEOUT) == 0
        except subprocess.TimeoutExpired:
            self._speaking.kill()
            return
        except (OSError, subprocess.SubprocessError):
            return  # a voice that fails must never disturb the game
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
