"""`make pi-vm`: the install proven on an emulated arm64 machine (issues 18 and 31).

Builds (once, cached in /var/cache/sorry-pi-vm/SUITE) a Debian arm64 system from Debian's
packages, Trixie by default (`--suite bookworm` keeps the Bookworm run), bare as a freshly
flashed Raspberry Pi OS Lite (no Mesa, espeak-ng, polkitd or python3-venv), with beside it
the packages install.sh asks for (read from its own dry run) as a small package archive;
boots it in qemu-system-aarch64 -M virt with a virtio GPU and no network, puts three
signed releases made by deploy/dist.sh (this tree, an update, and an update broken on
purpose, signed by a key made for the run) and that archive on an emulated USB stick, and
checks, in order:

  offline   the first install with no network stops in one sentence saying so, before
            any change (the machine's apt sources are Debian's, unreachable)
  install   with the stick's archive as the apt source (standing for the Pi's Wi-Fi),
            install.sh from the unpacked first release, as deploy/README.md says
  service   the service is active after the reboot (Type=notify: the app said READY=1)
  screen    the start screen is drawn on the virtual display (QMP screendump, compared
            with the app's own screenshot of that screen, docs/screenshots/1280x720: at
            most 3 % of pixels off)
  ledboard  a USB device with the Pico's id (2e8a:0005, a CDC ACM gadget in the machine)
            is plugged in: cdc_acm and the udev rule make it /dev/sorry-ledboard, the app
            finds it by that id (no port configured) and the LED board simulator, on the
            host at the far end, gets the app's PAWNLED/1 state
  resume    a game started and played by taps (QMP input-send-event on a virtio tablet,
            read by the app through the kernel's evdev), the machine killed (SIGKILL to
            qemu) just after one more tap, booted again: the resume offer is on screen,
            every confirmed event is kept, and Resume tapped goes on with the same game
  waits     an update, given to `sorry-companion update` (signature, members, sums
            checked first), installed while a game is on waits for the next start
  update    after a restart the update runs
  rollback  a broken update (its app exits at start), checked, staged and started on
            trial (its app's own message in the log), goes back by itself to the update
  poweroff  Menu > Turn off > Turn off tapped on the running service's screen turns the
            machine off (the app's call, inside the unit's sandbox, and the polkit rule)

Raspberry-Pi-only steps (python3-lgpio, quiet boot in /boot/firmware, GPIO buttons) are
skipped by install.sh and named in its output. Prints one line per check and writes the
summary (per suite) to deploy/pi-vm/last-run.md and deploy/README.md. Needs root; runs qemu and the
build under nice 19.

Not proven here (said in deploy/README.md): the touch is an absolute pointer (QEMU 7.2 has
no multitouch device), which the app off a Pi reads as SDL's mouse, not the Pi's mtdev
provider; the Pico is a gadget inside the machine, not a device QEMU plugs in (QEMU's
usb-serial cannot carry another USB id).

  run.py --stop-after ledboard    stop after that check (install, service, screen and
                                  ledboard: about 12 minutes instead of 25), for looking
                                  into one check; `make pi-vm PI_VM_ARGS="--stop-after ..."`
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import functools
import json
import os
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))
from hardware.simulator import SimulatedLedBoard  # noqa: E402  (after the path above)

HERE = Path(__file__).resolve().parent
CACHE = Path(os.environ.get("PI_VM_CACHE", "/var/cache/sorry-pi-vm"))
RESULT = HERE / "last-run.md"
NICE = ["nice", "-n", "19"]  # the 2 cores are shared: everything else goes first
TOOLS = {"qemu-system-aarch64": "qemu-system-arm", "mmdebstrap": "mmdebstrap",
         "qemu-aarch64-static": "qemu-user-static", "update-binfmts": "binfmt-support",
         "mkfs.ext4": "e2fsprogs", "qemu-img": "qemu-utils",
         # mmdebstrap refuses a foreign architecture without it
         "arch-test": "arch-test"}
SCREEN = (1280, 720)
BOARD_UID = "PIVM0001"
BOOT_S = 600.0
READY_S = 900.0
INSTALL_S = 1800.0
LEDBOARD_S = 60.0  # the app rescans once a second; emulation makes each try slow
# Lines only a host sends (LEDBOARD.md): the board's own lines can come back to the
# simulator as a tty echo whenever something opens the guest's port without raw mode.
SERVING_VERBS = ("=STATE", "?STATE")  # after the greeting: a state, or the keep-alive
HOST_VERBS = ("?HELLO", *SERVING_VERBS)
UPDATE_VERSION = "0.1.0+pivm.update"
BROKEN_VERSION = "0.1.0+pivm.broken"
GUEST_CONFIG = "/etc/sorry-companion/config.toml"
# The app under emulation starts far slower than on a Pi: a drop-in gives it time.
SLOW_START = "[Service]\nTimeoutStartSec=900\n"
# Each suite's last result stands between its own two marks, in last-run.md and in
# deploy/README.md, so a Trixie run and a Bookworm run each keep their table.
RESULT_MARKS = ("<!-- pi-vm {suite} -->", "<!-- /pi-vm {suite} -->")
# The app's screenshot is drawn offscreen on this machine, the screendump by Mesa in the
# emulated machine: close, not equal (the last Bookworm run measured 0.9 % of the start
# screen's pixels off). A share of pixels differing by more than 48 in a channel.
SCREEN_TOLERANCE = 0.03
SCREEN_WAIT_S = 300.0
# QEMU's absolute pointer range (INPUT_EVENT_ABS_MAX), mapped onto the virtio tablet's.
ABS_MAX = 0x7FFF
TAP_S = 0.15  # how long a finger rests on the glass
EVENT_WAIT_S = 120.0
# The LED board: a USB gadget with the Pico's id, inside the machine (see ledboard_gadget).
PICO_ID = ("2e8a", "0005")
BOARD_PORT = "org.sorry.ledboard"
BROKEN_SAYS = "pi-vm: a release broken on purpose"


def log(text: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {text}", flush=True)


SUITES = ("trixie", "bookworm")
# The machine has no network: its apt reads this archive on the stick instead (the packages
# install.sh asks for, downloaded when the base was built), as a Pi reads Debian's online.
STICK_SOURCE = "deb [trusted=yes] file:/mnt/stick/debs ./"
CHECKS = ("offline", "install", "service", "screen", "ledboard", "resume", "waits", "update",
          "rollback", "poweroff")


class StopAfter(Exception):
    """The check named by --stop-after is done: the run ends there."""


@dataclass
class Report:
    started: float = field(default_factory=time.monotonic)
    # name, passed, detail, minutes into the run, the host's 1-minute load then
    checks: list[tuple[str, bool, str, float, float]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    stop_after: str | None = None
    suite: str = "trixie"
    commit: str = "?"

    def check(self, name: str, ok: bool, detail: str) -> bool:
        minutes = (time.monotonic() - self.started) / 60
        self.checks.append((name, ok, detail, minutes, os.getloadavg()[0]))
        log(f"{'PASS' if ok else 'FAIL'} {name}: {detail}")
        self.write()  # a run stopped half-way still leaves what it checked
        if name == self.stop_after:
            raise StopAfter(name)
        return ok

    def note(self, text: str) -> None:
        self.notes.append(text)
        log(text)

    def write(self) -> None:
        minutes = (time.monotonic() - self.started) / 60
        passed = sum(check[1] for check in self.checks)
        load = os.getloadavg()
        lines = [f"Last `make pi-vm` run on Debian {self.suite} arm64: "
                 f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}",
                 "",
                 f"{passed} of {len(self.checks)} checks passed in {minutes:.1f} min on "
                 f"{os.cpu_count()} cores (load at the end {load[0]:.1f}, qemu TCG under "
                 f"nice 19), commit {self.commit}.", "",
                 "| check | result | done at | load | detail |", "| --- | --- | --- | --- | --- |"]
        lines += [f"| {name} | {'pass' if ok else 'FAIL'} | {at:.1f} min | {load1:.1f} | "
                  f"{detail} |" for name, ok, detail, at, load1 in self.checks]
        if self.notes:
            lines += ["", *[f"- {note}" for note in self.notes]]
        CACHE.mkdir(parents=True, exist_ok=True)
        with locked(CACHE / "results.lock"):  # a run of the other suite writes them too
            for path in (RESULT, REPO / "deploy" / "README.md"):
                put_between_marks(path, self.suite, "\n".join(lines))


@contextlib.contextmanager
def locked(path: Path) -> Iterator[None]:
    """Held while the block runs: two runs at once (one per suite) take turns."""
    with open(path, "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def put_between_marks(path: Path, suite: str, body: str) -> None:
    """`body` in place of what stands between the suite's marks in `path` (both marks
    must be there: the file says where its tables go)."""
    text = path.read_text()
    opening, closing = (mark.format(suite=suite) for mark in RESULT_MARKS)
    start = text.index(opening) + len(opening)
    end = text.index(closing, start)
    path.write_text(text[:start] + "\n" + body + "\n" + text[end:])


# --- host preparation ---

def tree_commit() -> str:
    """The commit the releases are made from ("-dirty" when the tree has changes)."""
    head = subprocess.run(["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"],
                          capture_output=True, text=True).stdout.strip()
    changed = subprocess.run(  # the result files are written by the runs themselves
        ["git", "-C", str(REPO), "status", "--porcelain", "--", ".",
         f":!{RESULT.relative_to(REPO)}", ":!deploy/README.md"],
        capture_output=True, text=True).stdout.strip()
    return (head + ("-dirty" if changed else "")) or "unknown (not a git checkout)"


def ensure_tools() -> None:
    missing = sorted({pkg for tool, pkg in TOOLS.items() if shutil.which(tool) is None})
    if missing:
        log(f"installing {' '.join(missing)} from Debian's packages")
        subprocess.run(["apt-get", "install", "-y", "--no-install-recommends", *missing],
                       check=True, env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"})


def install_packages(suite: str) -> list[str]:
    """The Debian packages install.sh asks apt-get for on this suite, off a Pi: read from
    its own dry run, so the machine's package archive never drifts from the installer."""
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "etc").mkdir()
        (Path(tmp) / "etc" / "os-release").write_text(f"VERSION_CODENAME={suite}\n")
        done = subprocess.run(["bash", str(REPO / "deploy" / "install.sh"), "--dry-run",
                               "--root", tmp], capture_output=True, text=True, check=True)
    line = next(line for line in done.stdout.splitlines() if "apt-get install" in line)
    return line.split("--no-install-recommends", 1)[1].split()


def build_base(suite: str, packages: list[str]) -> None:
    """Once per suite at a time: a second run of the same suite waits for the first's build
    (and then finds the base up to date) instead of building over it."""
    CACHE.mkdir(parents=True, exist_ok=True)
    with locked(CACHE / f"{suite}.lock"):
        subprocess.run([*NICE, "bash", str(HERE / "build-base.sh"), str(CACHE), suite,
                        *packages], check=True)


def make_release(work: Path, version: str | None = None, broken: bool = False) -> Path:
    """An archive from deploy/dist.sh: of this tree, or of a copy with another version
    (and, broken, an app that exits as soon as `run` starts)."""
    source = REPO
    if version is not None:
        source = work / f"src-{version}"
        shutil.copytree(REPO, source, ignore=shutil.ignore_patterns(
            ".git", ".venv", "build", "dist", "*.egg-info", "__pycache__", "screenshots"))
        init = source / "companion" / "__init__.py"
        text = init.read_text().replace('__version__ = "0.1.0"', f'__version__ = "{version}"')
        if broken:
            text += ('\nimport sys as _sys\nif _sys.argv[1:2] == ["run"]:\n'
                     f'    raise SystemExit("{BROKEN_SAYS}")\n')
        init.write_text(text)
        cfg = source / "setup.cfg"
        cfg.write_text(cfg.read_text().replace("version = 0.1.0", f"version = {version}"))
    out = work / "stick"
    env = {**os.environ, "PYTHON": sys.executable,
           "SORRY_COMPANION_SIGNING_HOME": str(work / "signing")}
    if not (work / "signing").exists():  # a key for this run only, as a maintainer's own
        subprocess.run(["bash", str(REPO / "deploy" / "dist.sh"), "--new-key"], check=True,
                       capture_output=True, env=env)
    done = subprocess.run(
        [*NICE, "bash", str(REPO / "deploy" / "dist.sh"), "--source", str(source), "--out",
         str(out)], check=True, capture_output=True, text=True, env=env)
    return Path(done.stdout.strip().splitlines()[-1])


def link_or_copy(source: str, target: str) -> None:
    try:
        os.link(source, target)
    except OSError:  # another file system
        shutil.copy2(source, target)


def stick_image(work: Path, debs: Path) -> Path:
    """The releases and their signatures, and the package archive standing for the Pi's
    network (debs/, with its Packages index)."""
    folder = work / "stick"
    shutil.copytree(debs, folder / "debs", copy_function=link_or_copy)
    size = sum(p.stat().st_size for p in folder.rglob("*") if p.is_file()) + 64 * 2**20
    image = work / "stick.img"
    subprocess.run(["truncate", "-s", str(size), str(image)], check=True)
    subprocess.run(["mkfs.ext4", "-q", "-L", "STICK", "-d", str(folder), str(image)], check=True)
    return image


# --- the machine ---

class Machine:
    def __init__(self, work: Path, base: Path, disk: Path, stick: Path, board_tty: str) -> None:
        self.work, self.disk, self.stick, self.board_tty = work, disk, stick, board_tty
        self.base = base
        self.proc: subprocess.Popen[bytes] | None = None
        self.agent: socket.socket | None = None
        self.buffer = b""
        self.boot = ""
        self.serial = 0

    def start(self) -> None:
        agent, qmp = self.work / "agent.sock", self.work / "qmp.sock"
        for path in (agent, qmp):
            path.unlink(missing_ok=True)
        argv = [
            *NICE, "qemu-system-aarch64", "-M", "virt", "-cpu", "cortex-a72", "-smp", "2",
            "-m", "2048", "-accel", "tcg,thread=multi", "-nic", "none",
            "-kernel", str(self.base / "vmlinuz"), "-initrd", str(self.base / "initrd.img"),
            "-append", "root=/dev/vda rw console=ttyAMA0 net.ifnames=0",
            "-drive", f"if=none,id=root,file={self.disk},format=qcow2",
            "-device", "virtio-blk-pci,drive=root",
            "-device", f"virtio-gpu-pci,xres={SCREEN[0]},yres={SCREEN[1]}",
            "-display", "none",
            "-serial", f"file:{self.work / 'console.log'}",
            "-qmp", f"unix:{qmp},server=on,wait=off",
            "-device", "virtio-serial-pci",
            "-chardev", f"socket,id=agent,path={agent},server=on,wait=off",
            "-device", "virtserialport,chardev=agent,name=org.sorry.agent",
            "-chardev", f"tty,id=ledboard,path={self.board_tty}",
            "-device", f"virtserialport,chardev=ledboard,name={BOARD_PORT}",
            # the touchscreen: absolute pointer events sent with QMP input-send-event
            "-device", "virtio-tablet-pci",
            "-device", "qemu-xhci",
            "-drive", f"if=none,id=stick,file={self.stick},format=raw,readonly=on",
            "-device", "usb-storage,drive=stick",
        ]
        with open(self.work / "qemu.log", "ab") as qemu_log:
            self.proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=qemu_log,
                                         stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 30
        while not agent.exists():
            if time.monotonic() > deadline or self.proc.poll() is not None:
                raise RuntimeError(f"qemu did not start: see {self.work / 'qemu.log'}")
            time.sleep(0.2)
        self.agent = socket.socket(socket.AF_UNIX)
        self.agent.connect(str(agent))
        self.buffer = b""

    def _line(self, timeout: float) -> dict[str, object] | None:
        assert self.agent is not None
        self.agent.settimeout(timeout)
        while b"\n" not in self.buffer:
            try:
                chunk = self.agent.recv(65536)
            except TimeoutError:
                return None
            if not chunk:
                raise RuntimeError("the machine's control channel closed")
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        try:
            reply: dict[str, object] = json.loads(line)
        except ValueError:
            return None
        return reply

    def wait_boot(self, timeout: float = BOOT_S) -> float:
        """Until the agent of a new boot says hello; the seconds it took."""
        began = time.monotonic()
        while time.monotonic() - began < timeout:
            assert self.agent is not None
            self.agent.sendall(b"{}\n")
            reply = self._line(10)
            if reply and "hello" in reply and reply["hello"] != self.boot:
                self.boot = str(reply["hello"])
                self.buffer = b""
                return time.monotonic() - began
        raise RuntimeError(f"no boot within {timeout:.0f} s: see {self.work / 'console.log'}")

    def sh(self, command: str, timeout: float = 300.0) -> tuple[int, str]:
        assert self.agent is not None
        self.serial += 1
        self.agent.sendall(json.dumps({"id": self.serial, "cmd": command,
                                       "timeout": timeout}).encode() + b"\n")
        deadline = time.monotonic() + timeout + 30
        while time.monotonic() < deadline:
            reply = self._line(max(1.0, deadline - time.monotonic()))
            if reply and reply.get("id") == self.serial:
                return int(str(reply["rc"])), str(reply["out"]) + str(reply["err"])
        raise RuntimeError(f"no answer to {command!r} within {timeout:.0f} s")

    def qmp(self, command: str, **arguments: object) -> dict[str, object]:
        with socket.socket(socket.AF_UNIX) as sock:
            sock.connect(str(self.work / "qmp.sock"))
            reader = sock.makefile("rb")
            reader.readline()  # the greeting
            for message in ({"execute": "qmp_capabilities"},
                            {"execute": command, "arguments": arguments}):
                sock.sendall(json.dumps(message).encode() + b"\n")
                while True:
                    reply: dict[str, object] = json.loads(reader.readline())
                    if "return" in reply or "error" in reply:
                        break
            return reply

    def tap(self, x: int, y: int) -> None:
        """A finger on the screen at (x, y): the virtio tablet's events, as the kernel
        hands them to the app's input (evdev), pressed for TAP_S."""
        where = [{"type": "abs", "data": {"axis": axis, "value": round(v * ABS_MAX / (size - 1))}}
                 for axis, v, size in (("x", x, SCREEN[0]), ("y", y, SCREEN[1]))]
        for events in (where, [{"type": "btn", "data": {"down": True, "button": "left"}}],
                       [{"type": "btn", "data": {"down": False, "button": "left"}}]):
            reply = self.qmp("input-send-event", events=events)
            if "error" in reply:
                raise RuntimeError(f"input-send-event failed: {reply['error']}")
            if events is not where:
                time.sleep(TAP_S)

    def screendump(self, path: Path) -> Path:
        reply = self.qmp("screendump", filename=str(path))
        if "error" in reply:
            raise RuntimeError(f"screendump failed: {reply['error']}")
        return path

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait()
        if self.agent is not None:
            self.agent.close()
        self.agent = None

    def wait_exit(self, timeout: float) -> bool:
        assert self.proc is not None
        try:
            self.proc.wait(timeout)
            return True
        except subprocess.TimeoutExpired:
            return False


def wait_active(machine: Machine, timeout: float = READY_S) -> tuple[bool, str]:
    """Wait in the guest until the service is active (READY=1 came) or has given up."""
    script = (f"for i in $(seq {int(timeout / 5)}); do "
              "s=$(systemctl show -p ActiveState --value sorry-companion); "
              "[ \"$s\" = active ] && { echo active; exit 0; }; "
              "[ \"$s\" = failed ] && { echo failed; exit 1; }; sleep 5; done; echo $s; exit 1")
    rc, out = machine.sh(script, timeout=timeout + 30)
    return rc == 0, out.strip().splitlines()[-1] if out.strip() else "?"


# --- pictures ---

def read_ppm(path: Path) -> tuple[int, int, bytes]:
    """A binary PPM (P6) as RGB bytes: four header words, one whitespace byte, pixels."""
    data = path.read_bytes()
    words: list[bytes] = []
    pos = 0
    while len(words) < 4:
        while data[pos:pos + 1].isspace():
            pos += 1
        end = pos
        while not data[end:end + 1].isspace():
            end += 1
        words.append(data[pos:end])
        pos = end
    width, height = int(words[1]), int(words[2])
    return width, height, data[pos + 1:pos + 1 + width * height * 3]


def read_png(path: Path) -> tuple[int, int, bytes]:
    """An 8-bit RGB or RGBA PNG as RGB bytes (the screenshots the app's tests write)."""
    data = path.read_bytes()
    pos, idat, width, height, channels = 8, b"", 0, 0, 3
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, _depth, color = struct.unpack(">IIBB", body[:10])
            channels = {2: 3, 6: 4}[color]
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw, stride = zlib.decompress(idat), width * channels
    rows: list[bytearray] = []
    prev = bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up, corner = prev[i], prev[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 255
            elif kind == 2:
                line[i] = (line[i] + up) & 255
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc
                                      else corner)) & 255
        rows.append(line)
        prev = line
    rgb = bytearray()
    for line in rows:
        for x in range(width):
            rgb += line[x * channels:x * channels + 3]
    return width, height, bytes(rgb)


Box = tuple[int, int, int, int]  # left, top, right, bottom (exclusive) in screen pixels
WHOLE: Box = (0, 0, *SCREEN)


def difference(a: tuple[int, int, bytes], b: tuple[int, int, bytes], box: Box = WHOLE) -> float:
    """The share of pixels in `box` (every 2nd column of every 2nd row) that differ by more
    than 48 in a channel."""
    if a[:2] != b[:2]:
        return 1.0
    width, (pa, pb) = a[0], (a[2], b[2])
    left, top, right, bottom = box
    differing = seen = 0
    for y in range(top, bottom, 2):
        for x in range(left, right, 2):
            offset = (y * width + x) * 3
            seen += 1
            if max(abs(pa[offset + i] - pb[offset + i]) for i in range(3)) > 48:
                differing += 1
    return differing / max(seen, 1)


@dataclass(frozen=True)
class Look:
    """A screen as the app draws it: its own screenshot (docs/screenshots/1280x720) and the
    part of it that does not depend on the game's names, version or status line."""

    name: str
    picture: str
    box: Box = WHOLE

    def share_off(self, shot: tuple[int, int, bytes]) -> float:
        return difference(shot, screenshot(self.picture), self.box)


@functools.cache
def screenshot(name: str) -> tuple[int, int, bytes]:
    """One of the app's own screenshots, decoded once (read_png is slow pure Python)."""
    return read_png(REPO / "docs" / "screenshots" / f"{SCREEN[0]}x{SCREEN[1]}" / name)


START = Look("the start screen", "start-en.png")
RESUME = Look("the resume offer", "resume-en.png", (0, 270, 1280, 720))  # below the names
TABLE = Look("the game's card pad", "table-en.png", (604, 100, 1280, 620))
MENU = Look("the menu", "menu-en.png", (0, 0, 1280, 660))  # above the version line
# The start screen once the players are named: below their name buttons (and no refusal
# line over the bottom row); the name keyboard by its Cancel and OK row (its title and
# keys' letters change with the seat and the shift).
START_NAMED = Look("the start screen, named", "start-en.png", (0, 340, 1280, 720))
KEYBOARD = Look("the name keyboard", "name-en.png", (0, 650, 1280, 720))
TURN_OFF = Look("the turn-off question", "menu-turn-off-en.png", (80, 90, 1200, 630))
# Where a finger taps, from those screenshots (1280x720).
START_GAME = (993, 684)
# The start screen refuses a game with a seat unnamed: each of the two seats is named by
# taps on the name keyboard (no letter twice in a row: a key's bounce time drops that).
NAME_SEATS = ((631, 178), (631, 290))
NAMES = ("ana", "bob")
KEYS = {"a": (68, 317), "b": (697, 452), "n": (812, 452), "o": (1082, 183)}
NAME_OK = (852, 684)
RESUME_GAME = (640, 395)
MENU_BUTTON = (1223, 25)
MENU_TURN_OFF = (1107, 588)
CONFIRM_TURN_OFF = (923, 584)
# Small cards: the round's total (14, 20 with the last) stays under 21, so no bust ends it.
CARDS = {"0": (669, 164), "2": (939, 164), "3": (1074, 164), "4": (1209, 164),
         "5": (669, 294), "6": (804, 294)}


def wait_for_screen(machine: Machine, look: Look, shot: Path,
                    timeout: float = SCREEN_WAIT_S) -> tuple[bool, float, float]:
    """Screendumps every few seconds until the screen is `look` (within SCREEN_TOLERANCE);
    whether it came, the share of pixels off in the last one, and the seconds waited."""
    began = time.monotonic()
    while True:
        share = look.share_off(read_ppm(machine.screendump(shot)))
        waited = time.monotonic() - began
        if share < SCREEN_TOLERANCE or waited > timeout:
            return share < SCREEN_TOLERANCE, share, waited
        time.sleep(3)


def colours(picture: tuple[int, int, bytes]) -> int:
    return len({picture[2][i:i + 3] for i in range(0, len(picture[2]), 3 * 97)})


# --- the run ---

def main() -> int:
    parser = argparse.ArgumentParser(description="make pi-vm: the install proven on an "
                                     "emulated arm64 machine")
    parser.add_argument("--stop-after", choices=CHECKS, metavar="CHECK",
                        help=f"end the run after this check (one of {', '.join(CHECKS)})")
    parser.add_argument("--suite", choices=SUITES, default=SUITES[0],
                        help="the Debian release standing for Raspberry Pi OS (default: "
                        f"{SUITES[0]}, the one Raspberry Pi Imager offers first)")
    args = parser.parse_args()
    if os.geteuid() != 0:
        print("pi-vm: run it as root (it installs qemu and builds a system image).",
              file=sys.stderr)
        return 2
    report = Report(stop_after=args.stop_after, suite=args.suite, commit=tree_commit())
    ensure_tools()
    work = Path(tempfile.mkdtemp(prefix="sorry-pi-vm.", dir="/var/tmp"))
    log(f"work folder {work}; the releases")
    first = make_release(work)
    update = make_release(work, UPDATE_VERSION)
    broken = make_release(work, BROKEN_VERSION, broken=True)
    base = CACHE / args.suite
    log(f"{args.suite} base image (cached in {base})")
    began = time.monotonic()
    build_base(args.suite, install_packages(args.suite))
    report.note(f"base image: Debian {args.suite} arm64, what Raspberry Pi OS Lite holds "
                f"({time.monotonic() - began:.0f} s; cached)")
    names = [p.name.removesuffix(".tar.gz") for p in (first, update, broken)]
    report.note(f"on the stick: {', '.join(p.name for p in (first, update, broken))} "
                "(each with its .sig), and debs/: install.sh's packages, for the network")
    stick = stick_image(work, base / "debs")
    disk = work / "pi.qcow2"
    subprocess.run(["qemu-img", "create", "-q", "-f", "qcow2", "-F", "raw", "-b",
                    str(base / "base.img"), str(disk)], check=True)

    with SimulatedLedBoard(uid=BOARD_UID) as board:
        machine = Machine(work, base, disk, stick, board.path)
        try:
            run_checks(machine, board, report, names, work)
        except StopAfter as done:
            report.note(f"stopped after the {done} check (--stop-after)")
        except Exception as exc:  # a step that could not run: say so in the summary
            report.check("run", False, f"stopped: {exc}")
        finally:
            machine.kill()
    report.write()
    log(f"summary written to {RESULT.relative_to(REPO)} and deploy/README.md")
    return 0 if report.checks and all(check[1] for check in report.checks) else 1


# The LED board as the Pi sees it: a USB device with the Pico's id (2e8a:0005) and a CDC
# ACM serial function, which the kernel's cdc_acm driver makes /dev/ttyACM0 and udev's rule
# (99-sorry-ledboard.rules) names /dev/sorry-ledboard. QEMU 7.2 cannot give any USB device
# of its own that id (its usb-serial is an FTDI chip with fixed ids), so the device is a
# USB gadget inside the machine (configfs, on the dummy_hcd host controller: the same USB
# enumeration a plugged Pico goes through), its far end relayed to the board simulator on
# the host through a virtio serial port.
LEDBOARD_GADGET = f"""set -e
modprobe -a dummy_hcd libcomposite usb_f_acm
mountpoint -q /sys/kernel/config || mount -t configfs none /sys/kernel/config
g=/sys/kernel/config/usb_gadget/pico
mkdir -p $g/strings/0x409 $g/configs/c.1/strings/0x409 $g/functions/acm.usb0
echo 0x{PICO_ID[0]} > $g/idVendor; echo 0x{PICO_ID[1]} > $g/idProduct
echo {BOARD_UID} > $g/strings/0x409/serialnumber
echo MicroPython > $g/strings/0x409/manufacturer
echo 'Board in FS mode' > $g/strings/0x409/product
echo CDC > $g/configs/c.1/strings/0x409/configuration
ln -sf $g/functions/acm.usb0 $g/configs/c.1/
for i in $(seq 50); do [ -c /dev/ttyGS0 ] && break; sleep 0.2; done
systemd-run --unit=pi-vm-ledboard --quiet /usr/bin/python3 -c '
import os, select, time, tty
port = os.open("/dev/virtio-ports/{BOARD_PORT}", os.O_RDWR)
gadget = os.open("/dev/ttyGS0", os.O_RDWR | os.O_NOCTTY)
tty.setraw(gadget)
while True:
    for fd in select.select([port, gadget], [], [])[0]:
        data = os.read(fd, 4096)
        if data:
            os.write(gadget if fd == port else port, data)
        else:
            time.sleep(0.1)
'
ls /sys/class/udc | head -1 > $g/UDC
"""


def check_ledboard(machine: Machine, board: SimulatedLedBoard, report: Report) -> None:
    """The board plugged in (the gadget bound), the app must find it by its USB id alone
    (ledboard.port is left empty, as on a Pi), through cdc_acm and the udev rule, and name
    it by the id only the simulator's answer carries; then a PAWNLED/1 line of the app's
    after the greeting must reach the simulator (the start screen has no game, so that is
    the ?STATE keep-alive). Both are waited for, polling."""
    rc, out = machine.sh(LEDBOARD_GADGET, timeout=120)
    if rc != 0:
        report.check("ledboard", False, "the USB gadget with the Pico's id could not be "
                     f"made in the machine: {' / '.join(out.strip().splitlines()[-3:])}")
        return
    began = time.monotonic()
    rc, _ = machine.sh(
        f"end=$((SECONDS + {int(LEDBOARD_S)})); while [ $SECONDS -lt $end ]; do "
        "journalctl -u sorry-companion -b --no-pager -o cat | "
        f"grep -q 'LED board connected {BOARD_UID}' && exit 0; sleep 1; done; exit 1",
        timeout=LEDBOARD_S + 30)
    connected = time.monotonic() - began
    heard = rc == 0 and board.wait_for(
        lambda b: any(m.verb in SERVING_VERBS for m in b.received),
        timeout=max(LEDBOARD_S - connected, 5.0))
    _, seen = machine.sh(
        "readlink -f /dev/sorry-ledboard; stat -L -c '%G %a' /dev/sorry-ledboard; "
        "basename $(readlink -f /sys/class/tty/ttyACM0/device/driver); "
        "cat /sys/class/tty/ttyACM0/device/../idVendor /sys/class/tty/ttyACM0/device/../idProduct")
    named = seen.split()
    udev = named[:3] == ["/dev/ttyACM0", "dialout", "660"] and named[3:6] == [
        "cdc_acm", *PICO_ID]
    ok = rc == 0 and heard and udev
    if not ok:  # what the machine shows of the port, for the summary
        _, more = machine.sh(
            "ls -l /dev/ttyACM* /dev/sorry-ledboard 2>&1; lsusb 2>/dev/null; "
            "journalctl -u sorry-companion -b --no-pager -o cat | grep 'LED board' | tail -2")
        report.note("the LED board in the machine: " + " / ".join(
            (seen + more).strip().splitlines()))
    sent = [message.verb for message in board.received if message.verb in HOST_VERBS]
    report.check("ledboard", ok,
                 f"USB {':'.join(PICO_ID)} (cdc_acm) is "
                 + (f"/dev/sorry-ledboard -> /dev/ttyACM0 ({named[1]}, {named[2]}) by the udev "
                    "rule" if udev else f"not as the udev rule says: {' '.join(named)}")
                 + "; " + (f"the app, with no port configured, logged 'LED board connected "
                           f"{BOARD_UID}' {connected:.0f} s after the plug" if rc == 0 else
                           f"no 'LED board connected {BOARD_UID}' in the app's log within "
                           f"{LEDBOARD_S:.0f} s")
                 + f"; the simulator got {len(sent)} PAWNLED/1 lines from the app "
                 f"({', '.join(sorted(set(sent))) or 'none'})")


def install(machine: Machine, name: str, first: bool = False) -> tuple[int, str, float]:
    """As deploy/README.md says: the archive (and its signature) from the USB stick; the
    first unpacked and its install.sh run, each later one given to `sorry-companion
    update`, which checks it against the key the first install recorded."""
    began = time.monotonic()
    then = (f"tar xzf {name}.tar.gz && cd {name} && deploy/install.sh" if first else
            f"sorry-companion update /root/{name}.tar.gz")
    rc, out = machine.sh(
        # The emulated USB stick shows up a while after the machine is up, as a real one does.
        "set -e; for i in $(seq 90); do [ -b /dev/sda ] && break; sleep 2; done; "
        "mkdir -p /mnt/stick; mountpoint -q /mnt/stick || mount -o ro /dev/sda /mnt/stick; "
        f"cp /mnt/stick/{name}.tar.gz /mnt/stick/{name}.tar.gz.sig /root/ && cd /root && {then}",
        timeout=INSTALL_S)
    return rc, out, time.monotonic() - began


def run_checks(machine: Machine, board: SimulatedLedBoard, report: Report, names: list[str],
               work: Path) -> None:
    first, update, broken = names
    update_id = update.removeprefix("sorry-companion-")
    machine.start()
    report.note(f"first boot of the emulated machine: {machine.wait_boot():.0f} s")
    # A fresh card with no network: install.sh must say so in one sentence, change nothing.
    rc, out, took = install(machine, first, first=True)
    said = [line for line in out.splitlines() if "cannot reach the package archive" in line]
    _, unit = machine.sh("test -e /etc/systemd/system/sorry-companion.service && echo unit || "
                         "echo none")
    report.check("offline", rc != 0 and len(said) == 1 and unit.strip() == "none",
                 f"install.sh with no network, exit {rc} in {took:.0f} s; said: "
                 + (said[0].split(": ", 1)[-1] if said else
                    f"no network sentence: {out.strip().splitlines()[-1:]}"))
    # The network, as the Pi's Wi-Fi would give it: apt reads the stick's package archive.
    machine.sh(f"echo '{STICK_SOURCE}' > /etc/apt/sources.list; "
               "rm -f /etc/apt/sources.list.d/*")
    _, python = machine.sh("python3 --version; . /etc/os-release; echo $PRETTY_NAME")
    report.note("the machine: " + " / ".join(python.strip().splitlines()))
    rc, out, took = install(machine, first, first=True)
    (work / "install.log").write_text(out)
    skipped = [line for line in out.splitlines() if line.startswith("skipped")]
    fetched = next((line for line in out.splitlines() if line.startswith("missing: ")), "")
    report.check("install", rc == 0,
                 f"install.sh from the stick, {took / 60:.1f} min, fetching "
                 f"{len(fetched.split(';')[0].split()) - 1} packages (with their dependencies)"
                 " from the stick's archive"
                 + ("" if rc == 0 else f"; exit {rc}: {out.strip().splitlines()[-1:]}"))
    for line in skipped:
        report.note(f"install.sh said: {line}")
    report.note("skipped (no such part in the emulated machine): the GPIO buttons ([gpio] "
                "enabled = false), the backlight (virtio-gpu has none: the app dims with its "
                "black layer), the USB stick mount for Menu > Back up (the stick is ext4)")
    report.note(f"set for the emulated machine only, in {GUEST_CONFIG}: [gpio] enabled = "
                "false, [display] dim_after = 0 and sleep_after = 0 (the checks wait minutes "
                "between taps; a tap on a dimmed screen only wakes it); and a drop-in with "
                "TimeoutStartSec=900 (emulation starts the app far slower than a Pi)")
    if rc != 0:
        return
    # The VM's own settings: no GPIO, no dimming (the LED board is found by its USB id).
    machine.sh("sed -i 's|^\\[display\\]$|[display]\\ndim_after = 0\\nsleep_after = 0|; "
               f"s|^\\[gpio\\]$|[gpio]\\nenabled = false|' {GUEST_CONFIG}; "
               "mkdir -p /etc/systemd/system/sorry-companion.service.d; "
               f"printf '{SLOW_START}' > /etc/systemd/system/sorry-companion.service.d/pi-vm.conf")
    machine.sh("(sleep 2; systemctl reboot) >/dev/null 2>&1 &", timeout=30)
    report.note(f"reboot after the install: {machine.wait_boot():.0f} s to the control channel")
    began = time.monotonic()
    active, state = wait_active(machine)
    report.check("service", active, f"sorry-companion.service {state} "
                 f"{time.monotonic() - began:.0f} s after boot"
                 + (" (Type=notify: READY=1 received)" if active else ""))
    if not active:
        _, journal = machine.sh("journalctl -u sorry-companion -b --no-pager | tail -30")
        report.note("service log: " + " / ".join(journal.strip().splitlines()[-8:]))
        return
    came, share, waited = wait_for_screen(machine, START, work / "start.ppm", timeout=120)
    shot = read_ppm(work / "start.ppm")
    report.check("screen", came and colours(shot) > 8,
                 f"screendump {shot[0]}x{shot[1]}, {colours(shot)} colours sampled; "
                 f"{share:.1%} of pixels differ (by more than 48 in a channel) from the app's "
                 f"own start-en.png, {waited:.0f} s after READY=1 (at most "
                 f"{SCREEN_TOLERANCE:.0%} allowed)")
    check_ledboard(machine, board, report)

    check_resume(machine, report, work)

    # An update while the game is on waits; a restart applies it.
    rc, out, took = install(machine, update)
    waited = "a game is on" in out
    _, status = machine.sh("/usr/local/lib/sorry-companion/release-switch status")
    report.check("waits", rc == 0 and waited and f"next      {update_id}" in status,
                 f"install.sh {took / 60:.1f} min; said: "
                 f"{next((x for x in out.splitlines() if 'game is on' in x), 'no wait')}")
    machine.sh("systemctl restart sorry-companion || true", timeout=READY_S)
    active, state = wait_active(machine)
    _, version = machine.sh("sorry-companion --version")
    _, status = machine.sh("/usr/local/lib/sorry-companion/release-switch status")
    report.check("update", active and UPDATE_VERSION in version,
                 f"service {state}; `sorry-companion --version` says {version.strip()}")

    # A broken update, installed (its update checked and staged) and started, goes back by
    # itself.
    broken_id = broken.removeprefix("sorry-companion-")
    rc, out, took = install(machine, broken)
    _, staged = machine.sh("/usr/local/lib/sorry-companion/release-switch status")
    installed = rc == 0 and f"next      {broken_id}" in staged
    machine.sh("systemctl restart sorry-companion || true", timeout=READY_S)
    active, state = wait_active(machine)
    _, status = machine.sh("/usr/local/lib/sorry-companion/release-switch status")
    _, log_lines = machine.sh("journalctl -b --no-pager -o cat | grep 'release-switch: '")
    started = f"starting release {broken_id} on trial" in log_lines
    _, ran = machine.sh(f"journalctl -u sorry-companion -b --no-pager -o cat | grep -c "
                        f"'{BROKEN_SAYS}' || true")
    gave_up = next((line for line in log_lines.splitlines()[::-1]
                    if "did not get ready" in line), "no rollback in the log")
    # marked failed, or already pruned once the release before got ready again
    _, left = machine.sh(f"ls /opt/sorry-companion/versions/{broken_id}/ 2>/dev/null || "
                         "echo pruned")
    report.check("rollback", installed and started and active
                 and f"current   {update_id}" in status
                 and bool({"FAILED", "pruned"} & set(left.split())) and ran.strip() != "0",
                 f"update checked and staged ({'yes' if installed else 'no'}), started on "
                 f"trial ({'yes' if started else 'no'}), its app ran and said "
                 f"'{BROKEN_SAYS}' {ran.strip()} times; service {state}; "
                 f"{gave_up.split('release-switch: ', 1)[-1]}")

    check_poweroff(machine, report, work)


COUNT_EVENTS = ("runuser -u sorry -- /opt/sorry-companion/current/venv/bin/python -c '"
                "from companion.journal import Journal\n"
                "j = Journal(\"/var/lib/sorry-companion/journal.sqlite3\", readonly=True)\n"
                "g = j.unfinished()\nprint(g.game_id if g else 0, len(g.events) if g else 0)'")


def unfinished(machine: Machine) -> tuple[int, int]:
    """The unfinished game in the machine's journal, read as the app's user: (its id, how
    many events it has); (0, 0) when there is none."""
    rc, out = machine.sh(COUNT_EVENTS)
    words = out.split()
    return (int(words[-2]), int(words[-1])) if rc == 0 and len(words) >= 2 else (0, 0)


def wait_events(machine: Machine, count: int) -> tuple[int, int]:
    """Polls the journal until the unfinished game has `count` events (or EVENT_WAIT_S)."""
    deadline = time.monotonic() + EVENT_WAIT_S
    while True:
        game = unfinished(machine)
        if game[1] >= count or time.monotonic() > deadline:
            return game
        time.sleep(2)


def tap_to(machine: Machine, where: tuple[int, int], look: Look, shot: Path) -> str:
    """Tap, then wait for the screen the tap leads to; "" when it came, else what was seen."""
    machine.tap(*where)
    came, share, waited = wait_for_screen(machine, look, shot)
    return "" if came else f"{look.name} did not come within {waited:.0f} s ({share:.1%} off)"


def name_seats(machine: Machine, shot: Path) -> str:
    """Each seat named by taps, as a family does; "" when done, else what went wrong."""
    for seat, name in zip(NAME_SEATS, NAMES, strict=True):
        problem = tap_to(machine, seat, KEYBOARD, shot)
        if problem:
            return problem
        for letter in name:
            machine.tap(*KEYS[letter])
        problem = tap_to(machine, NAME_OK, START_NAMED, shot)
        if problem:
            return problem
    return ""


def check_resume(machine: Machine, report: Report, work: Path) -> None:
    """A game started and played by taps on the screen (the virtio tablet), the machine
    killed with SIGKILL 0.5 s after one more tap (its event in flight), booted again: the
    app must offer the game on screen, keep every event the journal had, and go on with
    it when Resume is tapped (the next tap's event lands in the same game)."""
    began = time.monotonic()
    plays = ("2", "3", "0", "4")
    problem = name_seats(machine, work / "name.ppm")
    game, confirmed = 0, 0
    if not problem:
        machine.tap(*START_GAME)
        came, share, _ = wait_for_screen(machine, TABLE, work / "table.ppm")
        game, confirmed = wait_events(machine, 1)
        problem = "" if came and confirmed >= 1 else (
            f"no game after tapping Start the game ({TABLE.name} {share:.1%} off, "
            f"{confirmed} events)")
    for card in plays if not problem else ():
        machine.tap(*CARDS[card])
        game, now = wait_events(machine, confirmed + 1)
        if now != confirmed + 1:
            problem = f"the tap on {card} gave {now - confirmed} events, not 1"
            break
        confirmed = now
    tapped = time.monotonic() - began
    if problem:
        report.check("resume", False, problem)
        return
    machine.tap(*CARDS["5"])  # one more, and the power goes before the app is sure of it
    time.sleep(0.5)
    machine.kill()
    report.note(f"resume: {len(plays) + 1} taps in {tapped:.0f} s ({confirmed} events, the "
                "setup first, confirmed in the journal), one more tap, then SIGKILL 0.5 s "
                "after it")
    machine.start()
    machine.wait_boot()
    active, _ = wait_active(machine)
    offered, share, waited = wait_for_screen(machine, RESUME, work / "resume.ppm")
    kept_game, kept = unfinished(machine)
    went_on = tap_to(machine, RESUME_GAME, TABLE, work / "resumed.ppm") if offered else ""
    after = kept
    if offered and not went_on:
        machine.tap(*CARDS["6"])
        after = wait_events(machine, kept + 1)[1]
    same = kept_game == game and kept >= confirmed
    report.check("resume", active and offered and same and not went_on and after == kept + 1,
                 f"{confirmed} events from taps confirmed before the kill (+1 in flight), "
                 f"{kept} in game {kept_game} after the reboot (game {game} before); "
                 + (f"the resume offer on screen {waited:.0f} s after the service was up "
                    f"({share:.1%} of its pixels off)" if offered else
                    f"no resume offer on screen within {waited:.0f} s ({share:.1%} off)")
                 + (f"; Resume tapped, one more tap made event {after} of the same game"
                    if offered and not went_on else f"; {went_on}" if went_on else ""))


def check_poweroff(machine: Machine, report: Report, work: Path) -> None:
    """Menu > Turn off > Turn off, tapped on the screen of the running service: the app's
    own call, inside its sandbox, through the polkit rule, must power the machine off."""
    problem = ""
    offered, _, _ = wait_for_screen(machine, RESUME, work / "off-resume.ppm", timeout=60)
    steps = ([(RESUME_GAME, TABLE)] if offered else []) + [
        (MENU_BUTTON, MENU), (MENU_TURN_OFF, TURN_OFF)]
    for where, look in steps:
        problem = tap_to(machine, where, look, work / "off.ppm")
        if problem:
            break
    if problem:
        report.check("poweroff", False, f"the taps to Turn off did not get there: {problem}")
        return
    began = time.monotonic()
    machine.tap(*CONFIRM_TURN_OFF)
    off = machine.wait_exit(300)
    said = "" if off else machine.sh(
        "journalctl -b --no-pager -o cat | grep -iE 'power|polkit' | tail -3")[1].strip()
    report.check("poweroff", off,
                 f"Menu > Turn off > Turn off tapped in the running service: the machine "
                 f"powered off {time.monotonic() - began:.0f} s later" if off else
                 f"still running 300 s after the tap on Turn off: {said}")

if __name__ == "__main__":
    sys.exit(main())
