"""The voice never holds the screen up: `say` returns at once, and while one utterance is
being spoken only the newest waiting one is kept. Real subprocesses, a stand-in speech
command that writes what it says and waits for a gate file."""

from __future__ import annotations

import stat
import time

from ui.voice import Voice

WAIT = 20.0


def wait_until(condition, what: str) -> None:
    deadline = time.monotonic() + WAIT
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.01)  # polling a file another process writes; no event to await


def test_stale_utterances_are_dropped_and_say_never_blocks(tmp_path):
    log, gate = tmp_path / "spoken.txt", tmp_path / "gate"
    command = tmp_path / "slow-espeak"
    command.write_text(
        f'#!/bin/sh\necho "$4" >> "{log}"\nwhile [ ! -e "{gate}" ]; do sleep 0.01; done\n'
    )
    command.chmod(command.stat().st_mode | stat.S_IEXEC)
    voice = Voice(str(command))
    try:
        voice.say("one", "en")
        wait_until(lambda: log.exists(), "the first utterance to start")
        for text in ("two", "three", "four"):  # the command is busy: these wait
            voice.say(text, "en")
        assert log.read_text().split() == ["one"]
        gate.touch()
        wait_until(lambda: voice.spoken == 2, "the newest utterance")
        assert log.read_text().split() == ["one", "four"]
    finally:
        gate.touch()
        voice.close()


def test_a_missing_command_is_silent(tmp_path):
    voice = Voice(str(tmp_path / "no-such-command"))
    assert not voice.available
    voice.say("21!", "en")  # nothing happens, nothing fails
    voice.close()
    assert voice.spoken == 0


def test_closing_cuts_off_an_utterance_instead_of_waiting_for_it(tmp_path):
    log = tmp_path / "spoken.txt"
    command = tmp_path / "endless-espeak"
    command.write_text(f'#!/bin/sh\necho "$4" >> "{log}"\nexec sleep 3600\n')
    command.chmod(command.stat().st_mode | stat.S_IEXEC)
    voice = Voice(str(command))
    voice.say("twenty-one", "en")
    # the command may write its line before Popen has returned to the voice's thread (a
    # busy host: `_speaking` still None), so both are awaited
    wait_until(lambda: log.exists() and voice._speaking is not None, "the utterance to start")
    speaking = voice._speaking
    voice.close()
    assert speaking is not None and speaking.wait(timeout=WAIT) is not None
    assert not voice._thread.is_alive()
    assert voice.spoken == 0  # cut off, not spoken to the end
