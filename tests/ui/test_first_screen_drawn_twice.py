"""The start screen is drawn a second time right after the first frame: a display that
copies the picture at mode set (virtio-gpu in `make pi-vm`) showed black otherwise."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

CHILD = """
import sys
from ui.launch import build_app, prepare_kivy
prepare_kivy(fullscreen=False)
from kivy.clock import Clock
from kivy.core.window import Window
flips = []

def flipped(*_):
    flips.append(1)
    Clock.schedule_once(lambda *_: app.stop())  # the flip awaited: no second to wait out

def on_ready(app):
    Window.bind(on_flip=flipped)
    # a still screen is not drawn again by itself: with no flip in 10 s there is none to
    # come (it stopped after 1 s, which a busy host's first frames could outlast: 0 flips)
    Clock.schedule_once(lambda *_: app.stop(), 10.0)

app = build_app(None, sys.argv[1], start_hardware=False, on_ready=on_ready)
app.run()
print("flips after ready:", len(flips))
"""


def test_the_first_screen_is_flipped_again_after_ready(tmp_path: Path):
    env = {**os.environ, "SDL_VIDEODRIVER": "offscreen", "KIVY_NO_ARGS": "1",
           "KIVY_NO_CONSOLELOG": "1", "KIVY_NO_FILELOG": "1", "KIVY_USE_DEFAULTCONFIG": "1",
           "KIVY_HOME": str(tmp_path / "kivy"), "GPIOZERO_PIN_FACTORY": "mock"}
    env.pop("SORRY_COMPANION_CONFIG", None)
    done = subprocess.run([sys.executable, "-c", CHILD, str(tmp_path / "data")], env=env,
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    flips = int(done.stdout.strip().splitlines()[-1].rsplit(" ", 1)[1])
    assert flips >= 1
