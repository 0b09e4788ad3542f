"""The running app opens no listening socket: nothing on the table can be reached from outside.

The unit forbids the network anyway (PrivateNetwork, RestrictAddressFamilies=AF_UNIX); this
checks the app itself, as it runs, so a debug server or a socket-based IPC would be noticed.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path

READY_LINE = "sorry-companion: ready"
READY_TIMEOUT = 60.0
TCP_LISTEN = "0A"
UNIX_ACCEPTCON = 0x00010000


def _children(pid: int) -> set[int]:
    found: set[int] = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        if ppid == pid:
            found.add(int(entry.name))
    return found


def process_tree(pid: int) -> set[int]:
    tree, todo = {pid}, [pid]
    while todo:
        new = _children(todo.pop()) - tree
        tree |= new
        todo.extend(new)
    return tree


def socket_inodes(pid: int) -> set[int]:
    inodes = set()
    fd_dir = Path(f"/proc/{pid}/fd")
    for fd in fd_dir.iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue  # closed while we looked
        if target.startswith("socket:["):
            inodes.add(int(target[len("socket:["):-1]))
    return inodes


def listening_sockets(pid: int) -> list[str]:
    """Sockets of pid and its children that wait for others: TCP in LISTEN, bound UDP
    (a UDP socket with a local port receives from anyone), unix sockets that accept."""
    found = []
    for member in sorted(process_tree(pid)):
        inodes = socket_inodes(member)
        net = Path(f"/proc/{member}/net")
        for table in ("tcp", "tcp6", "udp", "udp6"):
            for row in (net / table).read_text().splitlines()[1:]:
                fields = row.split()
                local, state, inode = fields[1], fields[3], int(fields[9])
                if inode not in inodes:
                    continue
                port = int(local.rsplit(":", 1)[1], 16)
                if (table.startswith("tcp") and state == TCP_LISTEN) or (
                        table.startswith("udp") and port != 0):
                    found.append(f"{table} {local} (pid {member})")
        for row in (net / "unix").read_text().splitlines()[1:]:
            fields = row.split()
            flags, inode = int(fields[3], 16), int(fields[6])
            if inode in inodes and flags & UNIX_ACCEPTCON:
                path = fields[7] if len(fields) > 7 else "(unnamed)"
                found.append(f"unix {path} (pid {member})")
    return found


@dataclass
class Started:
    proc: subprocess.Popen[str]
    ready: bool
    lines: list[str]

    def why_not_ready(self, what: str) -> str:
        if self.proc.poll() is None:
            how = f"was still starting after {READY_TIMEOUT:.0f} s"
        else:
            how = f"ended with exit status {self.proc.returncode}"
        return f"{what} {how} without saying it was ready; its stderr:\n" + "\n".join(
            self.lines[-30:])


@contextmanager
def started(argv: list[str], env: dict[str, str], ready_line: str) -> Iterator[Started]:
    """Start argv and wait until it prints ready_line on stderr or ends; kill it after."""
    proc = subprocess.Popen(argv, env=env, stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    lines: list[str] = []
    ready = threading.Event()
    settled = threading.Event()

    def read() -> None:
        assert proc.stderr is not None
        for line in proc.stderr:
            lines.append(line.rstrip("\n"))
            if line.strip() == ready_line:
                ready.set()
                settled.set()
        proc.wait()  # stderr closed: the process is ending
        settled.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        settled.wait(READY_TIMEOUT)
        yield Started(proc, ready.is_set(), lines)
    finally:
        with suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)  # the process and any helper it started
        proc.wait(timeout=30)
        reader.join(timeout=30)


LISTENER = """
import socket, sys, time
tcp = socket.socket(); tcp.bind(("127.0.0.1", 0)); tcp.listen()
udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); udp.bind(("127.0.0.1", 0))
unix = socket.socket(socket.AF_UNIX); unix.bind(sys.argv[1]); unix.listen()
pair = socket.socketpair()
print("listening", file=sys.stderr, flush=True)
time.sleep(3600)
"""

QUIET = """
import socket, sys, time
pair = socket.socketpair()
client = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
print("quiet", file=sys.stderr, flush=True)
time.sleep(3600)
"""


def test_detector_finds_tcp_udp_and_unix_listeners(tmp_path: Path):
    """The control: the check below would notice a listener of each kind."""
    argv = [sys.executable, "-c", LISTENER, str(tmp_path / "app.sock")]
    with started(argv, dict(os.environ), "listening") as run:
        assert run.ready, run.why_not_ready("the listener")
        found = listening_sockets(run.proc.pid)
    kinds = sorted(entry.split()[0] for entry in found)
    assert kinds == ["tcp", "udp", "unix"], found
    assert any(str(tmp_path / "app.sock") in entry for entry in found)


def test_detector_ignores_sockets_that_do_not_listen():
    argv = [sys.executable, "-c", QUIET]
    with started(argv, dict(os.environ), "quiet") as run:
        assert run.ready, run.why_not_ready("the quiet process")
        assert len(socket_inodes(run.proc.pid)) == 3
        assert listening_sockets(run.proc.pid) == []


def test_running_app_opens_no_listening_socket(tmp_path: Path):
    app = Path(sys.executable).with_name("sorry-companion")
    assert app.exists(), f"no console script at {app}: install the project (make venv)"
    env = {
        **os.environ,
        "SDL_VIDEODRIVER": "offscreen", "KIVY_NO_ARGS": "1", "KIVY_NO_CONSOLELOG": "1",
        "KIVY_NO_FILELOG": "1", "KIVY_USE_DEFAULTCONFIG": "1",
        "KIVY_HOME": str(tmp_path / "kivy"), "GPIOZERO_PIN_FACTORY": "mock",
    }
    env.pop("SORRY_COMPANION_CONFIG", None)
    argv = [str(app), "--data", str(tmp_path / "data"), "run"]
    with started(argv, env, READY_LINE) as run:
        assert run.ready, run.why_not_ready(f"`sorry-companion {' '.join(argv[1:])}`")
        found = listening_sockets(run.proc.pid)
    assert found == [], f"the app listens on: {found}"
