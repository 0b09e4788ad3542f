"""Issue 9, finding 11: a spoken name never reaches espeak-ng as an option.

A stand-in speech command records its arguments; a name such as `--phonout=/tmp/x`
(which would make espeak-ng write a file where the name says) must come after `--`.
"""

from __future__ import annotations

import stat
import time

from ui.voice import Voice


def test_text_that_looks_like_an_option_comes_after_double_dash(tmp_path):
    record, target = tmp_path / "argv", tmp_path / "x"
    command = tmp_path / "espeak-ng"
    command.write_text(f'#!/bin/sh\nprintf "%s\\0" "$@" > "{record}.tmp"\n'
                       f'mv "{record}.tmp" "{record}"\n')
    command.chmod(command.stat().st_mode | stat.S_IEXEC)
    voice = Voice(str(command))
    try:
        voice.say(f"--phonout={target}", "fr")
        deadline = time.monotonic() + 20
        while not record.exists():  # another process writes it; no event to await
            assert time.monotonic() < deadline, "the speech command never ran"
            time.sleep(0.01)
    finally:
        voice.close()
    argv = record.read_bytes().split(b"\0")[:-1]
    assert argv == [b"-v", b"fr", b"--", f"--phonout={target}".encode()]
    assert not target.exists()
