"""The real app tells systemd it is ready (Type=notify): the service's rollback rests on it."""

from __future__ import annotations

import os
import socket
import sys
from pathlib import Path

from test_deploy_no_listening_socket import READY_LINE, started


def test_running_app_sends_ready_to_the_notify_socket(tmp_path: Path):
    app = Path(sys.executable).with_name("sorry-companion")
    notify = tmp_path / "notify"
    env = {
        **os.environ,
        "SDL_VIDEODRIVER": "offscreen", "KIVY_NO_ARGS": "1", "KIVY_NO_CONSOLELOG": "1",
        "KIVY_NO_FILELOG": "1", "KIVY_USE_DEFAULTCONFIG": "1",
        "KIVY_HOME": str(tmp_path / "kivy"), "GPIOZERO_PIN_FACTORY": "mock",
        "NOTIFY_SOCKET": str(notify),
    }
    env.pop("SORRY_COMPANION_CONFIG", None)
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as server:
        server.bind(str(notify))
        server.settimeout(30)
        argv = [str(app), "--data", str(tmp_path / "data"), "run"]
        with started(argv, env, READY_LINE) as run:
            assert run.ready, run.why_not_ready("the app")
            assert server.recv(100) == b"READY=1"
