"""What the app asks of the Pi's system: say it is ready, and turn the Pi off.

Standard library only. `notify_ready()` is systemd's sd_notify("READY=1") written with a
plain socket, so the service (Type=notify) knows the first frame is on the screen: an
update that never gets there is rolled back by the service (deploy/switch-release.sh).
`poweroff()` is Menu > Turn off: `systemctl poweroff` asks logind, which lets the
service user do it only because deploy/install.sh installs one polkit rule
(deploy/50-sorry-companion-poweroff.rules) allowing exactly that action to that user.
"""

from __future__ import annotations

import os
import socket
import subprocess
from collections.abc import Callable, Mapping, Sequence

NOTIFY_ENV = "NOTIFY_SOCKET"
POWEROFF_COMMAND = ("systemctl", "poweroff")
POWEROFF_TIMEOUT_S = 20.0


class PowerOffError(RuntimeError):
    """The Pi could not be turned off; the message says why and what to do."""


def notify_ready(environ: Mapping[str, str] = os.environ) -> bool:
    """Tell systemd the app is ready; False (and nothing sent) outside a notify service.

    >>> notify_ready({})
    False
    """
    address = environ.get(NOTIFY_ENV, "")
    if not address.startswith(("/", "@")):
        return False
    if address.startswith("@"):  # an abstract socket
        address = "\0" + address[1:]
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        try:
            sock.connect(address)
            sock.sendall(b"READY=1")
        except OSError:
            return False
    return True


Runner = Callable[..., "subprocess.CompletedProcess[str]"]


def poweroff(command: Sequence[str] = POWEROFF_COMMAND, run: Runner = subprocess.run) -> None:
    """Shut the Pi down cleanly; raises PowerOffError with one sentence when refused."""
    try:
        done = run(list(command), capture_output=True, text=True, check=False,
                   timeout=POWEROFF_TIMEOUT_S)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise PowerOffError(f"could not turn the table off ({exc}); hold the power button "
                            "or unplug it once the screen is dark") from None
    if done.returncode != 0:
        why = (done.stderr or done.stdout).strip().splitlines()
        reason = why[-1] if why else f"exit status {done.returncode}"
        raise PowerOffError(f"the system refused to turn the table off ({reason}); run "
                            "`sudo deploy/install.sh` again to reinstall the power-off "
                            "permission, or unplug the table")
