"""`sorry-companion run`: a bad configuration is one sentence and exit status 2; a good
one opens the app, which says it is ready after its first frame; `ui.command` itself
loads no Kivy, so the other commands work without it."""

from __future__ import annotations

import os
import selectors
import signal
import subprocess
import sys
import time

from ui_helpers import REPO

CLI = [sys.executable, "-m", "companion.cli"]


def kivy_env(tmp_path) -> dict[str, str]:
    return dict(
        os.environ,
        SDL_VIDEODRIVER="offscreen",
        KIVY_NO_ARGS="1",
        KIVY_NO_FILELOG="1",
        KIVY_USE_DEFAULTCONFIG="1",
        KIVY_HOME=str(tmp_path / "kivy"),
        PYTHONPATH=str(REPO),
    )


def test_a_bad_config_is_one_sentence_and_exit_2(tmp_path):
    config = tmp_path / "config.toml"
    config.write_text('language = "de"\n')
    out = subprocess.run(
        [*CLI, "--config", str(config), "run", "--no-hardware"],
        capture_output=True,
        text=True,
        cwd=REPO,
        env=kivy_env(tmp_path),
        timeout=60,
    )
    assert out.returncode == 2
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and "language" in lines[0] and '"en" or "fr"' in lines[0]


def test_run_says_ready_after_its_first_frame(tmp_path):
    proc = subprocess.Popen(
        [
            *CLI,
            "--data",
            str(tmp_path / "data"),
            "run",
            "--windowed",
            "--no-hardware",
            "--language",
            "fr",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        cwd=REPO,
        env=kivy_env(tmp_path),
    )
    try:
        sel = selectors.DefaultSelector()
        sel.register(proc.stderr, selectors.EVENT_READ)
        seen, deadline = b"", time.monotonic() + 60
        while b"sorry-companion: ready\n" not in seen:
            assert time.monotonic() < deadline and proc.poll() is None, seen[-2000:]
            if sel.select(timeout=1.0):
                seen += os.read(proc.stderr.fileno(), 65536)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
    assert (tmp_path / "data" / "journal.sqlite3").exists()


def test_the_command_module_loads_no_kivy():
    code = "import sys, ui.command; assert 'kivy' not in sys.modules, 'kivy imported'"
    subprocess.run([sys.executable, "-c", code], check=True, cwd=REPO, timeout=60)
