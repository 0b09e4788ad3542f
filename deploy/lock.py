"""Write deploy/requirements-pi.lock: every package the Pi's venv needs, pinned and hashed;
and deploy/requirements-camera.lock: what the camera's extra adds (install.sh --camera).

    python deploy/lock.py            (`make lock`)

The Pi gets exactly these files (the release carries the aarch64 wheels; install.sh
installs them with pip's --require-hashes and no index), so two installs never differ.
The roots are the app's runtime pins in requirements.txt (kivy, gpiozero, pyserial) and
mpremote (for `sorry-companion ledboard flash`); pip resolves their dependencies for
CPython 3.13 (Raspberry Pi OS Trixie) and 3.11 (Bookworm), each on manylinux aarch64
(Pi 4/5) and x86_64 (a PC or a test machine), wheels only, and each package gets the
hashes of every one of those files (one version for all of them, or the lock is
refused). The camera's lock is resolved on its own roots (numpy, OpenCV headless): they
depend on nothing else. Needs PyPI.
"""

from __future__ import annotations

import hashlib
import itertools
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LOCK = ROOT / "deploy" / "requirements-pi.lock"
CAMERA_LOCK = ROOT / "deploy" / "requirements-camera.lock"
RUNTIME = ("kivy", "gpiozero", "pyserial", "mpremote")
CAMERA = ("numpy", "opencv-python-headless")
PLATFORMS = ("manylinux2014_aarch64", "manylinux2014_x86_64")
# numpy ships only manylinux_2_28 wheels now; Bookworm's glibc (2.36) runs them
CAMERA_PLATFORMS = ("manylinux_2_28_aarch64", "manylinux_2_28_x86_64")
# The Pythons of the Raspberry Pi OS releases the archive installs on: Trixie first,
# Bookworm kept (deploy/supported-systems, which dist.sh and install.sh read too).
SYSTEMS = ROOT / "deploy" / "supported-systems"


def pythons() -> tuple[str, ...]:
    return tuple(line.split()[1] for line in SYSTEMS.read_text().splitlines()
                 if line.strip() and not line.startswith("#"))


PYTHONS = pythons()


def roots(names: tuple[str, ...] = RUNTIME) -> list[str]:
    pins = {}
    for line in (ROOT / "requirements.txt").read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if "==" in line:
            pins[line.split("==")[0].strip().lower()] = line
    missing = [name for name in names if name not in pins]
    if missing:
        sys.exit(f"lock.py: requirements.txt pins no version of {', '.join(missing)}.")
    return [pins[name] for name in names]


def download(platform: str, python: str, into: Path, names: tuple[str, ...]) -> None:
    subprocess.run(
        [sys.executable, "-m", "pip", "download", "--quiet", "--only-binary=:all:",
         "--platform", platform, "--python-version", python, "--implementation", "cp",
         "--abi", "cp" + python.replace(".", ""), "--dest", str(into), *roots(names)],
        check=True)


def name_version(wheel: Path) -> tuple[str, str]:
    name, version = wheel.name.split("-")[:2]
    return re.sub(r"[-_.]+", "-", name).lower(), version


def write(lock: Path, names: tuple[str, ...], what: str,
          platforms: tuple[str, ...] = PLATFORMS) -> None:
    found: dict[tuple[str, str], set[str]] = {}
    versions: dict[str, set[str]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for platform, python in itertools.product(platforms, PYTHONS):
            folder = Path(tmp) / f"{platform}-{python}"
            download(platform, python, folder, names)
            for wheel in sorted(folder.glob("*.whl")):
                key = name_version(wheel)
                versions.setdefault(key[0], set()).add(key[1])
                found.setdefault(key, set()).add(hashlib.sha256(wheel.read_bytes()).hexdigest())
    split = {name: v for name, v in versions.items() if len(v) > 1}
    if split:
        sys.exit(f"lock.py: the platforms resolve to different versions: {split}")
    lines = [f"# {what}, pinned, with the sha256 of each wheel for",
             f"# CPython {' and '.join(PYTHONS)} on manylinux aarch64 and x86_64. Written by",
             "# `make lock` (deploy/lock.py) from requirements.txt; do not edit by hand."]
    for (name, version), hashes in sorted(found.items()):
        lines.append(f"{name}=={version} \\")
        lines += [f"    --hash=sha256:{h}" + (" \\" if i < len(hashes) - 1 else "")
                  for i, h in enumerate(sorted(hashes))]
    lock.write_text("\n".join(lines) + "\n")
    print(f"wrote {lock.relative_to(ROOT)}: {len(found)} packages")


def main() -> int:
    write(LOCK, RUNTIME, "Every package of the Pi's venv")
    write(CAMERA_LOCK, CAMERA, "The camera's extra (install.sh --camera)",
          CAMERA_PLATFORMS)
    return 0


if __name__ == "__main__":
    sys.exit(main())
