#!/usr/bin/python3
"""`sudo sorry-companion update ARCHIVE`: an update checked before any of it is unpacked or run.

The first install recorded the release key (/etc/sorry-companion/release-key.gpg, from the
archive's deploy/release-key.gpg). An update is taken only when, in this order:

1. its file is named sorry-companion-<release>.tar.gz, <release> a release name (never
   `..`, never a path), with its signature beside it as <archive>.sig;
2. gpgv (GnuPG's verifier, on every Raspberry Pi OS: apt checks its own lists with it)
   says that signature over the archive's bytes is by the recorded key;
3. it holds only regular files and folders, all inside sorry-companion-<release>/, with no
   absolute path, no `..`, no link or device, within a size and count limit;
4. unpacked into a new folder only root can read, every file matches its SHA256SUMS line,
   every file is listed, and its RELEASE names the release of the file name.

Only then is its deploy/install.sh run (with the options given). Each refusal is one
sentence, and nothing has been unpacked outside that new folder, which is removed.

Installed by install.sh as /usr/local/lib/sorry-companion/release-update; the standard
library and the system's python3 only, since it must run before any venv exists.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path, PurePosixPath

PROG = "sorry-companion update"
KEYRING = Path(os.environ.get("SORRY_COMPANION_RELEASE_KEY",
                              "/etc/sorry-companion/release-key.gpg"))
ARCHIVE_PREFIX, ARCHIVE_SUFFIX = "sorry-companion-", ".tar.gz"
SIGNATURE_SUFFIX = ".sig"
SUMS = "SHA256SUMS"
# A release name: the app's version and 8 hex digits, or any name of these characters
# starting with a letter or digit, so never ".", "..", a path or an option.
RELEASE_NAME = re.compile(r"[0-9A-Za-z][0-9A-Za-z._+-]{0,99}")
SUMS_LINE = re.compile(r"([0-9a-f]{64})  \./(.+)")
# A real archive holds about 200 files and 150 MB unpacked (two Pythons' wheels).
MAX_MEMBERS = 5000
MAX_BYTES = 1 << 30
# Told to the release's install.sh, which refuses an update it was not told was checked.
VERIFIED_VARIABLE = "SORRY_COMPANION_VERIFIED"


class Refused(Exception):
    """The one sentence that says why an archive is not taken."""


def shown(text: str) -> str:
    """A name from the archive as the terminal may print it: no control characters."""
    return "".join(c if c.isprintable() else f"\\x{ord(c):02x}" for c in text)


def is_release_name(name: str) -> bool:
    """>>> [is_release_name(n) for n in ("0.2.0-1a2b3c4d", "..", "a/b", "-rf", "")]
    [True, False, False, False, False]
    """
    return RELEASE_NAME.fullmatch(name) is not None and ".." not in name


def release_of(archive: Path) -> str:
    name = archive.name
    release = name.removeprefix(ARCHIVE_PREFIX).removesuffix(ARCHIVE_SUFFIX)
    if not (name.startswith(ARCHIVE_PREFIX) and name.endswith(ARCHIVE_SUFFIX)
            and is_release_name(release)):
        raise Refused(f"'{shown(name)}' is not named as a release "
                      f"({ARCHIVE_PREFIX}<release>{ARCHIVE_SUFFIX}, as make dist writes it): "
                      "give the archive's own file name.")
    if not archive.is_file():
        raise Refused(f"{shown(str(archive))} is not a file here: give the path of the "
                      "archive you copied (ls ~ shows it).")
    return release


def check_signature(archive: Path, keyring: Path) -> None:
    signature = archive.with_name(archive.name + SIGNATURE_SUFFIX)
    if not keyring.is_file():
        raise Refused(f"this Pi has no recorded release key ({keyring}): install a release "
                      "first (deploy/install.sh from its unpacked archive), which records it.")
    if not signature.is_file():
        raise Refused(f"there is no signature {shown(signature.name)} beside the archive: "
                      "copy it too from the computer that built the release.")
    done = subprocess.run(["gpgv", "--keyring", str(keyring), str(signature), str(archive)],
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise Refused(f"the signature {shown(signature.name)} is not by the release key this "
                      f"Pi recorded at its first install ({keyring}): the archive was changed "
                      "or made by someone else, so nothing of it was unpacked; copy both "
                      "files again from the computer that built them.")


def member_fault(member: tarfile.TarInfo, top: str) -> str | None:
    """What makes one member unsafe to unpack, or None."""
    if not (member.isfile() or member.isdir()):
        kind = ("a symbolic link" if member.issym() else "a hard link" if member.islnk()
                else "a device or pipe")
        return f"is {kind}"
    path = PurePosixPath(member.name)
    if path.is_absolute() or ".." in path.parts or any(
            not part.isprintable() for part in path.parts):
        return "has an absolute path, a '..' or a control character in its name"
    if path.parts[0] != top:
        return f"lies outside {top}/"
    return None


def safe_members(tar: tarfile.TarFile, top: str) -> list[tarfile.TarInfo]:
    members, total, seen = [], 0, set()
    for member in tar:
        fault = member_fault(member, top)
        if fault is None and member.name.rstrip("/") in seen:
            fault = "appears twice"
        if fault is not None:
            raise Refused(f"the archive's member '{shown(member.name)}' {fault}: a release "
                          "made by make dist holds none such, so nothing was unpacked.")
        seen.add(member.name.rstrip("/"))
        members.append(member)
        total += member.size
        if len(members) > MAX_MEMBERS or total > MAX_BYTES:
            raise Refused(f"the archive holds more than {MAX_MEMBERS} files or "
                          f"{MAX_BYTES >> 20} MB: a release is far smaller, so nothing was "
                          "unpacked.")
    return members


def unpack(archive: Path, release: str, into: Path) -> Path:
    top = ARCHIVE_PREFIX + release
    try:
        with tarfile.open(archive, "r:gz") as tar:
            members = safe_members(tar, top)
            for member in members:  # no set-user-id, no one else's rights
                member.mode &= 0o755
                member.uid = member.gid = 0
                member.uname = member.gname = "root"
            if hasattr(tarfile, "data_filter"):
                tar.extractall(into, members=members, filter="data")
            else:  # Python 3.11 before 3.11.4: the members were checked above
                tar.extractall(into, members=members)
    except (tarfile.TarError, EOFError, OSError, UnicodeError) as exc:
        raise Refused(f"{shown(archive.name)} is not a complete release archive "
                      f"({shown(str(exc)) or type(exc).__name__}): copy it again.") from None
    tree = into / top
    if not tree.is_dir():
        raise Refused(f"the archive holds no folder {top}: it is not this release's archive.")
    return tree


def check_sums(tree: Path) -> None:
    sums = tree / SUMS
    if not sums.is_file():
        raise Refused(f"the archive has no {SUMS}: it is not a release made by make dist.")
    listed: dict[str, str] = {}
    for line in sums.read_text(errors="replace").splitlines():
        found = SUMS_LINE.fullmatch(line)
        if found is None or ".." in PurePosixPath(found.group(2)).parts:
            raise Refused(f"{SUMS} has a line that is not '<sha256>  ./<file>': "
                          f"'{shown(line[:80])}'.")
        listed[found.group(2)] = found.group(1)
    present = {str(p.relative_to(tree)) for p in tree.rglob("*") if not p.is_dir()} - {SUMS}
    for name in sorted(present - listed.keys()):
        raise Refused(f"the archive's file {shown(name)} is not in its {SUMS}: it was added "
                      "after the release was made.")
    for name, digest in sorted(listed.items()):
        path = tree / name
        if not path.is_file() or path.is_symlink():
            raise Refused(f"{SUMS} lists {shown(name)}, which the archive does not hold.")
        if hashlib.sha256(path.read_bytes()).hexdigest() != digest:
            raise Refused(f"the archive's file {shown(name)} does not match its {SUMS} line: "
                          "it was changed after the release was made.")


def check_release_file(tree: Path, release: str) -> None:
    stated = (tree / "RELEASE").read_text(errors="replace").strip() \
        if (tree / "RELEASE").is_file() else ""
    if stated != release:
        raise Refused(f"the archive's RELEASE says '{shown(stated[:60])}', not {release} as "
                      "its file name does: give the archive its own name back.")


def verified_tree(archive: Path, into: Path, keyring: Path = KEYRING) -> Path:
    """Every check above, in order; the unpacked release folder under `into`."""
    release = release_of(archive)
    check_signature(archive, keyring)
    tree = unpack(archive, release, into)
    check_sums(tree)
    check_release_file(tree, release)
    return tree


def main(argv: list[str]) -> int:
    options = [arg for arg in argv if arg in ("--camera", "--dry-run")]
    paths = [arg for arg in argv if arg not in options]
    if len(paths) != 1 or any(arg.startswith("-") for arg in paths):
        print(f"{PROG}: give one archive and at most --camera and --dry-run, as in "
              f"sudo {PROG} ~/{ARCHIVE_PREFIX}0.2.0-1a2b3c4d{ARCHIVE_SUFFIX}.", file=sys.stderr)
        return 2
    # /var/tmp, not /tmp: Trixie's /tmp is in memory, and a release unpacks to 150 MB.
    work = Path(tempfile.mkdtemp(prefix="sorry-companion-update.",
                                 dir=os.environ.get("TMPDIR") or "/var/tmp"))
    try:
        try:
            tree = verified_tree(Path(paths[0]).absolute(), work)
        except Refused as refusal:
            print(f"{PROG}: {refusal}", file=sys.stderr)
            return 2
        print(f"{PROG}: {tree.name}: signature, files and {SUMS} checked; installing.")
        env = {**os.environ, VERIFIED_VARIABLE: tree.name.removeprefix(ARCHIVE_PREFIX)}
        return subprocess.run(["bash", str(tree / "deploy" / "install.sh"), *options],
                              env=env, check=False).returncode
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
