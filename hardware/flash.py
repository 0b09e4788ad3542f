"""`sorry-companion ledboard flash`: the LED board's firmware onto its Pico, then a check.

mpremote (pinned in the release's lock, so it sits in the app's own venv: Bookworm's
system Python refuses `pip install`) copies the firmware's three files and resets the
board; the board must then answer PAWNLED/1's hello, checked as `doctor` checks it. The
Pico must already run MicroPython: which file that is depends on the board
(`MICROPYTHON_BUILDS`, hardware/README.md). On the Pi the `sorry-companion` command stops
the game's service first (the running game holds the board's serial port).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from hardware import firmware
from hardware.errors import HardwareConfigError

FIRMWARE_DIR = Path(firmware.__file__).resolve().parent
FIRMWARE_FILES = ("pawnled.py", "ledboard.py", "main.py")
# The MicroPython build each board needs (micropython.org/download/<name>), as a .uf2.
MICROPYTHON_BUILDS = {"Pico": "RPI_PICO", "Pico W": "RPI_PICO_W", "Pico 2": "RPI_PICO2"}
MPREMOTE_ENV = "SORRY_COMPANION_MPREMOTE"  # another mpremote program (the tests' stand-in)
MPREMOTE_TIMEOUT_S = 120.0
BACK_AFTER_RESET_S = 15.0  # the Pico leaves USB while it resets, then comes back
SAFE_MODE = ("put the jumper on GP15-GND, replug the board (it then starts without the "
             "firmware), run this again, then remove the jumper and replug")


class FlashError(HardwareConfigError):
    """The firmware could not be put on the board; the message says what to do."""


def mpremote_program() -> str:
    """$SORRY_COMPANION_MPREMOTE, else the mpremote beside this Python (the app's venv),
    else one on the PATH."""
    chosen = os.environ.get(MPREMOTE_ENV) or str(Path(sys.executable).with_name("mpremote"))
    if Path(chosen).is_file() and os.access(chosen, os.X_OK):
        return chosen
    found = shutil.which("mpremote")
    if found is None:
        raise FlashError("mpremote is missing from the app's venv: install the release again "
                         "(sudo deploy/install.sh), or in a checkout run make venv")
    return found


def find_pico(candidates: Sequence[str], looking_for: str) -> str:
    if not candidates:
        raise FlashError(f"no Pico running MicroPython found ({looking_for}); install "
                         "MicroPython on it first (hardware/README.md, 'Flashing the "
                         "firmware'), plug it in, or name its port with --port")
    if len(candidates) > 1:
        raise FlashError(f"{len(candidates)} Picos found ({', '.join(candidates)}); unplug "
                         "all but the LED board, or name its port with --port")
    return candidates[0]


def copy_firmware(mpremote: str, port: str) -> None:
    files = [str(FIRMWARE_DIR / name) for name in FIRMWARE_FILES]
    argv = [mpremote, "connect", port, "fs", "cp", *files, ":", "+", "reset"]
    try:
        done = subprocess.run(argv, capture_output=True, text=True, check=False,
                              timeout=MPREMOTE_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        raise FlashError(f"mpremote got no answer from {port} in {MPREMOTE_TIMEOUT_S:.0f} s; "
                         f"if the board runs the firmware already, {SAFE_MODE}") from None
    if done.returncode != 0:
        said = (done.stderr + done.stdout).strip().splitlines()
        last = said[-1] if said else f"exit status {done.returncode}"
        if "raw repl" in " ".join(said).lower():
            raise FlashError(f"the board runs the LED firmware, which keeps mpremote out; "
                             f"{SAFE_MODE}")
        raise FlashError(f"mpremote could not copy the firmware to {port} ({last})")


def wait_for_port(port: str, timeout: float = BACK_AFTER_RESET_S) -> bool:
    """Until the port exists again after the board's reset (a device appearing has no
    event to wait on without udev, so this looks twice a second)."""
    deadline = time.monotonic() + timeout
    while not os.path.exists(port):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.5)
    return True


def flash(port: str | None, *, say: Callable[[str], None]) -> str:
    """Flash and check; returns the line `doctor` shows for the board."""
    from companion.config import LedBoardConfig
    from hardware.doctor import check_ledboard
    from hardware.ports import PortFinder

    mpremote = mpremote_program()
    finder = PortFinder(port=port or "")
    pico = find_pico(finder(), finder.looking_for)
    say(f"copying {', '.join(FIRMWARE_FILES)} to the Pico on {pico} with {mpremote} ...")
    copy_firmware(mpremote, pico)
    say("the board restarts with the firmware; checking that it answers PAWNLED/1 ...")
    if not wait_for_port(pico):
        raise FlashError(f"the board did not come back on {pico} after its reset; replug "
                         "it and run `sorry-companion doctor`")
    check = check_ledboard(LedBoardConfig(port=pico), ledboard_port=pico)
    if check.result != "ok":
        raise FlashError(f"the firmware is on the board but it does not answer PAWNLED/1 "
                         f"({check.detail}{'; ' + check.fix if check.fix else ''})")
    return check.detail
