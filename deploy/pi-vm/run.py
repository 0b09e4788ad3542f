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
            with the app's own screenshot of that screen, docs/screenshots/1280x720)
  ledboard  the LED board simulator, on the host behind an emulated USB serial port,
            got the app's PAWNLED/1 state
  resume    a game in progress, the machine killed (SIGKILL to qemu), booted again: the
            game is offered for resuming with every event kept
  waits     an update, given to `sorry-companion update` (signature, members, sums
            checked first), installed while a game is on waits for the next start
  update    after a restart the update runs
  rollback  a broken update (its app exits at start), checked, staged and started on
            trial, goes back by itself to the update
  poweroff  Menu > Turn off's own call (companion.system.poweroff) as the service user in
            the running service's mount and network namespaces turns the machine off
            (the polkit rule)

Raspberry-Pi-only steps (python3-lgpio, quiet boot in /boot/firmware, GPIO buttons) are
skipped by install.sh and named in its output. Prints one line per check and writes the
summary to deploy/pi-vm/last-run.md. Needs root; runs qemu and the build under nice 15.

Not proven here (said in deploy/README.md): the resume check writes its events with the
app's own Session and compares screens, rather than tapping through the running app with
input events; power-off runs the app's call in the service's namespaces, not a tap on Menu
> Turn off; the LED board is QEMU's FTDI usb-serial (QEMU cannot give it the Pico's USB
id), so the udev rule and cdc_acm are not exercised; the screen check allows 25 % of
pixels off.

  run.py --stop-after ledboard    stop after that check (install, service, screen and
                                  ledboard: about 12 minutes instead of 25), for looking
                                  into one check; `make pi-vm PI_VM_ARGS="--stop-after ..."`
"""

from __future__ import annotations

import argparse
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
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))
from hardware.simulator import SimulatedLedBoard  # noqa: E402  (after the path above)

HERE = Path(__file__).resolve().parent
CACHE = Path(os.environ.get("PI_VM_CACHE", "/var/cache/sorry-pi-vm"))
RESULT = HERE / "last-run.md"
NICE = ["nice", "-n", "15"]
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
GUIDE_MARK = "Last result, "
# The app's screenshot is drawn offscreen on this machine, the screendump by Mesa in the
# emulated machine, with its own status line (the LED board is there): close, not equal.
SCREEN_TOLERANCE = 0.25


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
    checks: list[tuple[str, bool, str]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    stop_after: str | None = None
    suite: str = "trixie"

    def check(self, name: str, ok: bool, detail: str) -> bool:
        self.checks.append((name, ok, detail))
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
        passed = sum(ok for _, ok, _ in self.checks)
        load = os.getloadavg()
        lines = [f"# Last `make pi-vm` run: {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}",
                 "",
                 f"{passed} of {len(self.checks)} checks passed in {minutes:.1f} min on "
                 f"{os.cpu_count()} cores (load at the end {load[0]:.1f}, qemu TCG under "
                 f"nice 15), Debian {self.suite} arm64.", "", "| check | result | detail |",
                 "| --- | --- | --- |"]
        lines += [f"| {name} | {'pass' if ok else 'FAIL'} | {detail} |"
                  for name, ok, detail in self.checks]
        if self.notes:
            lines += ["", *[f"- {note}" for note in self.notes]]
        RESULT.write_text("\n".join(lines) + "\n")
        guide = REPO / "deploy" / "README.md"
        text = guide.read_text()
        start = text.index(GUIDE_MARK)
        end = text.index("\n### ", start)
        body = "\n".join([GUIDE_MARK + lines[0].split(": ", 1)[1], *lines[1:]])
        guide.write_text(text[:start] + body + "\n" + text[end:])


# --- host preparation ---

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
    subprocess.run([*NICE, "bash", str(HERE / "build-base.sh"), str(CACHE), suite, *packages],
                   check=True)


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
                     '    raise SystemExit("pi-vm: a release broken on purpose")\n')
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
            "-device", "qemu-xhci",
            "-drive", f"if=none,id=stick,file={self.stick},format=raw,readonly=on",
            "-device", "usb-storage,drive=stick",
            "-chardev", f"tty,id=ledboard,path={self.board_tty}",
            "-device", "usb-serial,chardev=ledboard",
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


def difference(a: tuple[int, int, bytes], b: tuple[int, int, bytes]) -> float:
    """The share of pixels (sampled every 4th) that differ by more than 48 in a channel."""
    if a[:2] != b[:2]:
        return 1.0
    pa = a[2]
    pb, differing, seen = b[2], 0, 0
    for offset in range(0, len(pa) - 2, 3 * 4):
        seen += 1
        if max(abs(pa[offset + i] - pb[offset + i]) for i in range(3)) > 48:
            differing += 1
    return differing / max(seen, 1)


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
    report = Report(stop_after=args.stop_after, suite=args.suite)
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
    return 0 if report.checks and all(ok for _, ok, _ in report.checks) else 1


def check_ledboard(machine: Machine, board: SimulatedLedBoard, report: Report) -> None:
    """The app names the board by the id only the simulator's answer carries; then a
    PAWNLED/1 line of the app's after the greeting must reach the simulator (the start
    screen has no game, so that is the ?STATE keep-alive). Both are waited for, polling."""
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
    ok = rc == 0 and heard
    if not ok:  # what the machine shows of the port, for the summary
        _, seen = machine.sh(
            "ls -l /dev/ttyUSB* 2>&1; grep -E 'ttyUSB|ttyACM' /proc/devices; "
            "lsmod | grep -E '^(ftdi_sio|usbserial|cdc_acm) ' | cut -d' ' -f1; "
            "journalctl -u sorry-companion -b --no-pager -o cat | grep 'LED board' | tail -2")
        report.note("the LED board in the machine: " + " / ".join(seen.strip().splitlines()))
    sent = [message.verb for message in board.received if message.verb in HOST_VERBS]
    report.check("ledboard", ok,
                 (f"the app logged 'LED board connected {BOARD_UID}' {connected:.0f} s into "
                  "the check" if rc == 0 else
                  f"no 'LED board connected {BOARD_UID}' in the app's log within "
                  f"{LEDBOARD_S:.0f} s") +
                 f"; the simulator, behind the emulated USB serial port, got "
                 f"{len(sent)} PAWNLED/1 lines from the app "
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
    report.note("set for the emulated machine only: [ledboard] port = /dev/ttyUSB0 in "
                f"{GUEST_CONFIG}, and a drop-in with TimeoutStartSec=900 (emulation starts "
                "the app far slower than a Pi)")
    if rc != 0:
        return
    # The VM's own settings: the board behind the emulated USB serial port, no GPIO.
    machine.sh(f"sed -i 's|^\\[ledboard\\]$|[ledboard]\\nport = \"/dev/ttyUSB0\"|; "
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
    time.sleep(20)  # a frame or two more on a slow emulated GPU before the picture
    shot = read_ppm(machine.screendump(work / "start.ppm"))
    own = read_png(REPO / "docs" / "screenshots" / f"{SCREEN[0]}x{SCREEN[1]}" / "start-en.png")
    share = difference(shot, own)
    report.check("screen", colours(shot) > 8 and share < SCREEN_TOLERANCE,
                 f"screendump {shot[0]}x{shot[1]}, {colours(shot)} colours sampled; "
                 f"{share:.1%} of pixels differ from the app's own start-en.png")
    check_ledboard(machine, board, report)

    # A game in progress, then the machine killed.
    machine.sh("systemctl stop sorry-companion", timeout=120)
    _, said = machine.sh("journalctl -u sorry-companion -b --no-pager -o cat | "
                         "grep 'sorry-companion: ' | grep -v ': ready$' || true")
    report.note("the app on SIGTERM (systemctl stop) said: "
                + (" / ".join(said.strip().splitlines()[-3:]) or "nothing"))
    rc, out = machine.sh(
        "runuser -u sorry -- /opt/sorry-companion/current/venv/bin/python -c '"
        "from companion.journal import Journal\n"
        "from companion.session import Session\n"
        "from games.revenge.rules import Card, Play, Setup\n"
        "j = Journal.open(\"/var/lib/sorry-companion\")\n"
        "s = Session(j)\n"
        "s.new_game(Setup.create([\"Ann\", \"Bob\", \"Cy\"]))\n"
        "[s.submit(Play(Card.parse(c))) for c in (\"4\", \"5\", \"7\", \"3\")]\n"
        "s.close()\nprint(len(j.unfinished().events))\nj.close()'", timeout=300)
    events = out.strip().splitlines()[-1] if rc == 0 else "?"
    machine.sh("systemctl start sorry-companion || true", timeout=READY_S)
    active, _ = wait_active(machine)
    time.sleep(20)
    before = read_ppm(machine.screendump(work / "game-before-kill.ppm"))
    machine.kill()
    report.note("machine killed with SIGKILL while the game was open")
    machine.start()
    machine.wait_boot()
    active, state = wait_active(machine)
    time.sleep(20)
    after = read_ppm(machine.screendump(work / "game-after-kill.ppm"))
    rc, out = machine.sh(
        "runuser -u sorry -- /opt/sorry-companion/current/venv/bin/python -c '"
        "from companion.journal import Journal\n"
        "j = Journal(\"/var/lib/sorry-companion/journal.sqlite3\", readonly=True)\n"
        "g = j.unfinished()\nprint(len(g.events) if g else 0)'")
    kept = out.strip().splitlines()[-1] if rc == 0 else "?"
    share = difference(before, after)
    report.check("resume", active and kept == events and events != "?" and share < 0.05,
                 f"{events} events before the kill, {kept} after; the screen after the "
                 f"reboot differs from the one before the kill in {share:.1%} of pixels")

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
    said = next((line for line in log_lines.splitlines()[::-1] if "did not get ready" in line),
                "no rollback in the log")
    # marked failed, or already pruned once the release before got ready again
    _, left = machine.sh(f"ls /opt/sorry-companion/versions/{broken_id}/ 2>/dev/null || "
                         "echo pruned")
    report.check("rollback", installed and started and active
                 and f"current   {update_id}" in status
                 and bool({"FAILED", "pruned"} & set(left.split())),
                 f"update checked and staged ({'yes' if installed else 'no'}), started on "
                 f"trial ({'yes' if started else 'no'}); service {state}; "
                 f"{said.split('release-switch: ', 1)[-1]}")

    # Menu > Turn off: the app's own companion.system.poweroff(), as the service user inside
    # the running service's mount and network namespaces (its sandboxed view of the system).
    machine.sh("P=$(systemctl show -p MainPID --value sorry-companion); "
               "(sleep 2; nsenter -t $P -m -n -- setpriv --reuid=sorry --regid=sorry "
               "--init-groups /opt/sorry-companion/current/venv/bin/python -c "
               "'from companion.system import poweroff; poweroff()' >/root/poweroff.out 2>&1) "
               ">/dev/null 2>&1 &", timeout=30)
    off = machine.wait_exit(300)
    said = "" if off else machine.sh("cat /root/poweroff.out")[1].strip()
    report.check("poweroff", off, "the machine powered off when the app's Menu > Turn off "
                 "call ran as 'sorry' in the service's namespaces" if off else
                 f"still running 300 s after companion.system.poweroff() as 'sorry': {said}")


if __name__ == "__main__":
    sys.exit(main())
