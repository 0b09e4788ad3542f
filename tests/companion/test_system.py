"""companion.system and companion.version: readiness to systemd, power-off, the version line.

The notify socket is a real unix datagram socket; power-off runs a real program standing
for systemctl (a script that records its arguments), as the service would run it.
"""

from __future__ import annotations

import os
import socket
from pathlib import Path

import pytest

from companion import __version__
from companion.system import PowerOffError, notify_ready, poweroff
from companion.version import running_version, version_line, waiting_update
from games.revenge.rules import Card, Play


def test_notify_ready_sends_ready_to_the_notify_socket(tmp_path: Path):
    path = tmp_path / "notify"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as server:
        server.bind(str(path))
        assert notify_ready({"NOTIFY_SOCKET": str(path)}) is True
        assert server.recv(100) == b"READY=1"


def test_notify_ready_reaches_an_abstract_socket():
    name = f"sorry-test-{os.getpid()}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as server:
        server.bind("\0" + name)
        assert notify_ready({"NOTIFY_SOCKET": "@" + name}) is True
        assert server.recv(100) == b"READY=1"


def test_notify_ready_outside_a_service_or_with_a_gone_socket(tmp_path: Path):
    assert notify_ready({}) is False
    assert notify_ready({"NOTIFY_SOCKET": str(tmp_path / "gone")}) is False


def _fake_systemctl(tmp_path: Path, status: int, message: str = "") -> Path:
    script = tmp_path / "systemctl"
    script.write_text(f"#!/bin/sh\necho \"$@\" > {tmp_path / 'called'}\n"
                      f"echo '{message}' >&2\nexit {status}\n")
    script.chmod(0o755)
    return script


def test_poweroff_runs_systemctl_poweroff(tmp_path: Path):
    fake = _fake_systemctl(tmp_path, 0)
    poweroff((str(fake), "poweroff"))
    assert (tmp_path / "called").read_text() == "poweroff\n"


def test_a_refused_poweroff_is_one_sentence_with_the_reason(tmp_path: Path):
    fake = _fake_systemctl(tmp_path, 1, "Interactive authentication required.")
    with pytest.raises(PowerOffError) as caught:
        poweroff((str(fake), "poweroff"))
    text = str(caught.value)
    assert "Interactive authentication required." in text
    assert "install.sh" in text and "\n" not in text


def test_a_missing_systemctl_is_one_sentence(tmp_path: Path):
    with pytest.raises(PowerOffError, match="could not turn the table off"):
        poweroff((str(tmp_path / "no-such-systemctl"), "poweroff"))


def test_version_line_names_the_running_and_the_staged_release(tmp_path: Path):
    assert running_version() == __version__
    assert version_line(tmp_path) == f"version {__version__}"
    (tmp_path / "versions" / "0.2.0-abcd1234").mkdir(parents=True)
    (tmp_path / "next").symlink_to(tmp_path / "versions" / "0.2.0-abcd1234")
    assert waiting_update(tmp_path) == "0.2.0-abcd1234"
    assert version_line(tmp_path) == (
        f"version {__version__} (update 0.2.0-abcd1234 starts at the next start)")



def test_game_in_progress_reads_the_journal_of_the_config(tmp_path: Path):
    """A real journal: empty, then with an open game (an update waits), then finished."""
    from companion.session import Session
    from companion.version import game_in_progress
    from games.revenge.rules import Setup

    data = tmp_path / "data"
    config = tmp_path / "config.toml"
    config.write_text(f'data_dir = "{data}"\n')
    assert game_in_progress(config) is False  # no journal yet
    journal = Session.open_journal(data)
    try:
        session = Session(journal)
        session.new_game(Setup.create(["Ann", "Bob"], pawns=1))
        session.submit(Play(Card.parse("4")))
        assert game_in_progress(config) is True
        session.submit(Play(Card.parse("slide:20")))
        session.submit(Play(Card.parse("5")))  # Bob busts: Ann wins
        assert game_in_progress(config) is False
    finally:
        journal.close()

def test_an_unreadable_journal_counts_as_a_game_on(tmp_path: Path):
    from companion.version import game_in_progress

    data = tmp_path / "data"
    data.mkdir()
    (data / "journal.sqlite3").write_bytes(b"not a database at all" * 100)
    config = tmp_path / "config.toml"
    config.write_text(f'data_dir = "{data}"\n')
    assert game_in_progress(config) is True
