"""Verified releases (issue 33): `sorry-companion update ARCHIVE` (deploy/release_update.py)
checks an update before any of it is unpacked or run, and release names are names.

Each archive here is a small release made by the test (the layout make dist writes: a top
folder, RELEASE, SHA256SUMS, deploy/install.sh, whose stand-in only leaves a mark that it
ran), signed with a key made for the tests. The real checker runs in a subprocess with the
system's python3, as on the Pi, against the recorded key (SORRY_COMPANION_RELEASE_KEY).
The hostile set signs what it breaks with the right key too, as a stolen key or a broken
build would, so every later check is reached; `make fuzz` runs it larger
(RELEASE_FUZZ_CASES)."""

from __future__ import annotations

import io
import os
import random
import subprocess
import sys
import tarfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from deploy_helpers import (
    DEPLOY,
    SWITCH_SCRIPT,
    UNIT,
    Scripts,
    SigningKey,
    fake_release,
    under,
    write_sums,
)

sys.path.insert(0, str(DEPLOY))
import release_update

CHECKER = DEPLOY / "release_update.py"
RELEASE = "0.2.0-1a2b3c4d"
TOP = f"sorry-companion-{RELEASE}"
FUZZ_CASES = int(os.environ.get("RELEASE_FUZZ_CASES", "20"))  # every kind at least once
# The stand-in install.sh: it leaves its mark where the test looks, with what it was told.
STAND_IN = '#!/bin/sh\nprintf "%s %s\\n" "$SORRY_COMPANION_VERIFIED" "$*" > "$MARK"\n'


@dataclass
class Bench:
    """The folders of one run: the archive's, the checker's work folder, the folder a path
    traversal would reach, and the mark the stand-in install.sh leaves."""
    root: Path
    key: SigningKey

    @property
    def home(self) -> Path:
        return self.root / "home"

    @property
    def work(self) -> Path:
        return self.root / "work"

    @property
    def outside(self) -> Path:
        return self.root / "outside"

    @property
    def mark(self) -> Path:
        return self.root / "ran-install.sh"

    def run(self, archive: Path, *options: str,
            keyring: Path | None = None) -> subprocess.CompletedProcess[str]:
        for folder in (self.work, self.outside):
            folder.mkdir(parents=True, exist_ok=True)
        env = {**os.environ, "TMPDIR": str(self.work), "MARK": str(self.mark),
               "SORRY_COMPANION_RELEASE_KEY": str(keyring or self.key.public)}
        return subprocess.run(["python3", str(CHECKER), str(archive), *options],
                              capture_output=True, text=True, check=False, timeout=120,
                              env=env)


def release_tree(folder: Path, release: str = RELEASE) -> Path:
    tree = folder / f"sorry-companion-{release}"
    (tree / "deploy").mkdir(parents=True)
    (tree / "wheels").mkdir()
    (tree / "RELEASE").write_text(release + "\n")
    install = tree / "deploy" / "install.sh"
    install.write_text(STAND_IN)
    install.chmod(0o755)
    (tree / "wheels" / "sorry_companion-0.2.0-py3-none-any.whl").write_bytes(os.urandom(64))
    write_sums(tree)
    return tree


def pack(tree: Path, archive: Path,
         extra: Callable[[tarfile.TarFile], None] | None = None) -> Path:
    archive.parent.mkdir(parents=True, exist_ok=True)
    with tarfile.open(archive, "w:gz") as tar:
        tar.add(tree, arcname=tree.name)
        if extra is not None:
            extra(tar)
    return archive


def good_archive(bench: Bench) -> Path:
    tree = release_tree(bench.root / f"build-{os.urandom(4).hex()}")
    archive = pack(tree, bench.home / f"{TOP}.tar.gz")
    bench.key.sign(archive)
    return archive


@pytest.fixture
def bench(tmp_path: Path, signing_key: SigningKey) -> Bench:
    return Bench(tmp_path, signing_key)


def refused(bench: Bench, done: subprocess.CompletedProcess[str]) -> str:
    """The one sentence of a refusal, with nothing run and nothing left behind."""
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2 and len(lines) == 1, done.stderr
    assert lines[0].startswith("sorry-companion update: ") and lines[0].endswith("."), lines
    assert not bench.mark.exists(), "install.sh ran"
    assert list(bench.work.iterdir()) == [], "the work folder was not removed"
    assert list(bench.outside.iterdir()) == [], "something was written outside"
    return lines[0]


def test_a_signed_release_is_checked_then_its_installer_runs_with_the_options(bench: Bench):
    archive = good_archive(bench)
    done = bench.run(archive, "--camera")
    assert done.returncode == 0, done.stderr
    assert bench.mark.read_text() == f"{RELEASE} --camera\n"
    assert f"{TOP}: signature, files and SHA256SUMS checked; installing." in done.stdout
    assert list(bench.work.iterdir()) == []


def test_a_tampered_archive_is_refused_before_it_is_unpacked(bench: Bench):
    """Issue 33: nothing checked an archive, so a changed one on a USB stick was root code."""
    archive = good_archive(bench)
    data = bytearray(archive.read_bytes())
    data[-40] ^= 0x01
    archive.write_bytes(data)
    line = refused(bench, bench.run(archive))
    assert f"the signature {TOP}.tar.gz.sig is not by the release key this Pi recorded" in line


def test_a_release_signed_by_another_key_is_refused(bench: Bench, other_key: SigningKey):
    archive = good_archive(bench)
    other_key.sign(archive)
    assert "is not by the release key" in refused(bench, bench.run(archive))


def test_an_archive_without_its_signature_is_refused(bench: Bench):
    archive = good_archive(bench)
    archive.with_name(archive.name + ".sig").unlink()
    line = refused(bench, bench.run(archive))
    assert f"there is no signature {TOP}.tar.gz.sig beside the archive" in line


def test_without_a_recorded_key_nothing_is_taken(bench: Bench):
    archive = good_archive(bench)
    line = refused(bench, bench.run(archive, keyring=bench.root / "none.gpg"))
    assert "this Pi has no recorded release key" in line


@pytest.mark.parametrize("name", ["sorry-companion-...tar.gz", "sorry-companion-...tar.gz",
                                  "sorry-companion-.tar.gz", "sorry-companion--rf.tar.gz",
                                  "sorry-companion-a..b.tar.gz", "other-0.2.0.tar.gz",
                                  "sorry-companion-0.2.0.zip"])
def test_an_archive_not_named_as_a_release_is_refused(bench: Bench, name: str):
    archive = good_archive(bench)
    renamed = archive.with_name(name)
    archive.rename(renamed)
    assert "is not named as a release" in refused(bench, bench.run(renamed))


def test_a_signed_archive_renamed_to_another_release_is_refused(bench: Bench):
    tree = release_tree(bench.root / "build", "0.9.9-ffffffff")
    archive = pack(tree, bench.home / f"{TOP}.tar.gz")
    bench.key.sign(archive)
    line = refused(bench, bench.run(archive))
    assert f"member 'sorry-companion-0.9.9-ffffffff' lies outside {TOP}/" in line


def test_a_signed_archive_whose_release_file_differs_from_its_name_is_refused(bench: Bench):
    tree = release_tree(bench.root / "build")
    (tree / "RELEASE").write_text("0.9.9-ffffffff\n")
    write_sums(tree)
    archive = pack(tree, bench.home / f"{TOP}.tar.gz")
    bench.key.sign(archive)
    line = refused(bench, bench.run(archive))
    assert f"RELEASE says '0.9.9-ffffffff', not {RELEASE}" in line


def hostile_member(kind: str, rng: random.Random) -> Callable[[tarfile.TarFile], None]:
    """A member that a release never holds, added after the good tree."""

    def add(tar: tarfile.TarFile) -> None:
        info = tarfile.TarInfo()
        data = b""
        if kind == "symlink":
            info.name, info.type, info.linkname = f"{TOP}/deploy/link", tarfile.SYMTYPE, \
                rng.choice(["/etc/shadow", "../../outside", "/"])
        elif kind == "hardlink":
            info.name, info.type, info.linkname = f"{TOP}/hard", tarfile.LNKTYPE, "/etc/passwd"
        elif kind == "device":
            info.name, info.type = f"{TOP}/dev", rng.choice([tarfile.CHRTYPE, tarfile.BLKTYPE,
                                                             tarfile.FIFOTYPE])
        elif kind == "traversal":
            info.name = rng.choice([f"{TOP}/../../outside/x", "../outside/x",
                                    f"{TOP}/deploy/../../../outside/y", "/tmp/../outside/z"])
            data = b"escaped"
        elif kind == "absolute":
            info.name = rng.choice(["/etc/cron.d/evil", f"/{TOP}/RELEASE"])
            data = b"* * * * * root true\n"
        elif kind == "outside-top":
            info.name = rng.choice(["evil.sh", "sorry-companion-0.0.1-00000000/x", "deploy/x"])
            data = b"x"
        elif kind == "control":
            info.name = f"{TOP}/a\x1b[2Jname{chr(rng.randrange(1, 31))}"
            data = b"x"
        elif kind == "duplicate":
            info.name = f"{TOP}/deploy/install.sh"
            data = b"#!/bin/sh\necho replaced\n"
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data) if data else None)

    return add


HOSTILE_MEMBERS = ("symlink", "hardlink", "device", "traversal", "absolute", "outside-top",
                   "control", "duplicate")
SUMS_FAULTS = ("changed-file", "unlisted-file", "missing-file", "bad-line", "no-sums",
               "traversal-line")


def signed_with_member(bench: Bench, kind: str, rng: random.Random) -> Path:
    tree = release_tree(bench.root / f"build-{rng.random()}")
    archive = pack(tree, bench.home / f"{TOP}.tar.gz", hostile_member(kind, rng))
    bench.key.sign(archive)
    return archive


def signed_with_sums_fault(bench: Bench, fault: str, rng: random.Random) -> Path:
    tree = release_tree(bench.root / f"build-{rng.random()}")
    sums = tree / "SHA256SUMS"
    if fault == "changed-file":
        (tree / "deploy" / "install.sh").write_text(STAND_IN + "# changed\n")
    elif fault == "unlisted-file":
        (tree / "deploy" / "extra.sh").write_text("#!/bin/sh\n")
    elif fault == "missing-file":
        (tree / "RELEASE").unlink()
    elif fault == "bad-line":
        sums.write_text(sums.read_text() + rng.choice(["garbage\n", "0" * 64 + " ./x\n"]))
    elif fault == "no-sums":
        sums.unlink()
    elif fault == "traversal-line":
        sums.write_text(sums.read_text() + "0" * 64 + "  ./../outside/x\n")
    archive = pack(tree, bench.home / f"{TOP}.tar.gz")
    bench.key.sign(archive)
    return archive


@pytest.mark.parametrize("kind", HOSTILE_MEMBERS)
def test_a_signed_archive_with_a_hostile_member_is_refused_before_unpacking(
        bench: Bench, kind: str):
    line = refused(bench, bench.run(signed_with_member(bench, kind, random.Random(kind))))
    assert "nothing was unpacked" in line
    assert "\x1b" not in line  # the name is shown safely


@pytest.mark.parametrize("fault", SUMS_FAULTS)
def test_a_signed_archive_that_does_not_match_its_sums_is_refused_before_it_runs(
        bench: Bench, fault: str):
    line = refused(bench, bench.run(signed_with_sums_fault(bench, fault, random.Random(fault))))
    assert "SHA256SUMS" in line or "RELEASE" in line


# Names a release is never given (issue 33: `..` passed the name check): as the archive's
# file name (no "/" can be in one), and, signed, as what its RELEASE file says.
HOSTILE_NAMES = ("..", ".", "...", "a..b", "-rf", "", " ", "a b", "x" * 101, ".hidden",
                 "\x1b[2J", "0.2.0-1a2b3c4d\u202e", "caf\u00e9", "0.2.0-1a2b3c4d;reboot")
HOSTILE_RELEASE_FILES = (*HOSTILE_NAMES, "../../etc", "/", f"{RELEASE}/..", "0.9.9-ffffffff")


def signed_with_release_file(bench: Bench, stated: str) -> Path:
    """A good archive, signed, whose RELEASE file says `stated` (its sums made after)."""
    tree = release_tree(bench.root / f"build-{os.urandom(4).hex()}")
    (tree / "RELEASE").write_text(stated + "\n")
    write_sums(tree)
    archive = pack(tree, bench.home / f"{TOP}.tar.gz")
    bench.key.sign(archive)
    return archive


def test_hostile_release_fuzz(bench: Bench, other_key: SigningKey):
    """Random hostile archives: bytes flipped in a signed archive, hostile members and
    broken sums signed with the right key, another key's signature, hostile release names
    (the archive's, or its RELEASE file's, signed). Every one is refused in one sentence;
    none runs its install.sh or writes outside its folder."""
    rng = random.Random(33)
    kinds: dict[str, int] = {}
    for case in range(FUZZ_CASES):
        for stale in bench.home.glob("*"):
            stale.unlink()
        kind = rng.choice(["flip", "member", "sums", "other-key", "truncated", "name",
                           "release-file"])
        kinds[kind] = kinds.get(kind, 0) + 1
        if kind == "member":
            archive = signed_with_member(bench, rng.choice(HOSTILE_MEMBERS), rng)
        elif kind == "sums":
            archive = signed_with_sums_fault(bench, rng.choice(SUMS_FAULTS), rng)
        elif kind == "name":
            archive = good_archive(bench)
            renamed = archive.with_name(f"sorry-companion-{rng.choice(HOSTILE_NAMES)}.tar.gz")
            archive.rename(renamed)
            archive.with_name(archive.name + ".sig").rename(renamed.with_name(
                renamed.name + ".sig"))
            archive = renamed
        elif kind == "release-file":
            archive = signed_with_release_file(bench, rng.choice(HOSTILE_RELEASE_FILES))
        else:
            archive = good_archive(bench)
            data = bytearray(archive.read_bytes())
            if kind == "flip":
                for _ in range(rng.randint(1, 4)):
                    data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
            elif kind == "truncated":
                data = data[:rng.randrange(1, len(data))]
            archive.write_bytes(data)
            if kind == "other-key":
                other_key.sign(archive)
        refused(bench, bench.run(archive))
        if case % 50 == 49:
            print(f"release fuzz: {case + 1} of {FUZZ_CASES}", flush=True)
    made = ", ".join(f"{n} {kind}" for kind, n in sorted(kinds.items()))
    print(f"release fuzz: {FUZZ_CASES} hostile archives ({made}): {FUZZ_CASES} refused in "
          "one sentence, 0 ran install.sh, 0 wrote outside their folder")


# --- release names are names (issue 33: a RELEASE of ".." passed the name check) ---

NAMES = {"0.2.0-1a2b3c4d": True, "0.1.0+pivm.update-328cc566": True, "..": False, ".": False,
         "a..b": False, "../x": False, "-rf": False, "": False, "a b": False, "a/b": False,
         "x" * 101: False}


@pytest.mark.parametrize(("name", "valid"), NAMES.items(), ids=lambda v: repr(v)[:20])
def test_the_switch_and_the_checker_agree_on_release_names(name: str, valid: bool):
    switch = subprocess.run(["bash", str(SWITCH_SCRIPT), "valid-name", name],
                            capture_output=True, check=False, timeout=30)
    assert (switch.returncode == 0) is valid
    assert release_update.is_release_name(name) is valid


def test_an_archive_whose_release_is_dotdot_is_refused_by_install_sh(
        scripts: Scripts, tmp_path: Path):
    """versions/.. is the install folder itself: install.sh's `rm -rf versions/$RELEASE`
    would have removed every release, the way back included."""
    tree = fake_release(tmp_path, [], release="..")
    root = tmp_path / "root"
    result = scripts.run(tree / "deploy" / "install.sh", "--dry-run", "--root", root)
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        f"install.sh: {tree}/RELEASE names no release (it holds '..'): build the archive "
        "again with make dist."]
    assert not (root / "etc").exists()


PI_WHEELS = ["cp313-cp313-manylinux2014_aarch64", "cp311-cp311-manylinux2014_aarch64"]
KEY = "/etc/sorry-companion/release-key.gpg"


def test_the_first_install_records_the_release_key(scripts: Scripts, tmp_path: Path):
    tree = fake_release(tmp_path, PI_WHEELS)
    root = tmp_path / "root"
    result = scripts.run(tree / "deploy" / "install.sh", "--dry-run", "--root", root)
    assert result.returncode == 0, result.stderr
    assert "checked: every file against SHA256SUMS." in result.stdout
    assert under(root, KEY).read_bytes() == b"a public key"
    assert under(root, "/usr/local/lib/sorry-companion/release-update").read_bytes() == (
        DEPLOY / "release_update.py").read_bytes()


@pytest.mark.parametrize("change", ["changed", "added", "removed"])
def test_a_dry_run_checks_the_sums_before_anything(scripts: Scripts, tmp_path: Path,
                                                  change: str):
    tree = fake_release(tmp_path, PI_WHEELS)
    if change == "changed":
        (tree / "deploy" / "install.sh").write_text(
            (tree / "deploy" / "install.sh").read_text() + "\n# changed\n")
    elif change == "added":
        (tree / "deploy" / "left-over.sh").write_text("#!/bin/sh\n")
    else:
        (tree / "deploy" / "sorry-companion.service").unlink()
    root = tmp_path / "root"
    result = scripts.run(tree / "deploy" / "install.sh", "--dry-run", "--root", root)
    assert result.returncode == 2
    (line,) = result.stderr.strip().splitlines()
    assert "SHA256SUMS" in line and line.startswith("install.sh: "), line
    assert not under(root, UNIT).exists()


def test_once_a_key_is_recorded_a_hand_unpacked_update_is_sent_to_the_checker(
        scripts: Scripts, tmp_path: Path):
    tree = fake_release(tmp_path, PI_WHEELS)
    root = tmp_path / "root"
    under(root, KEY).parent.mkdir(parents=True)
    under(root, KEY).write_bytes(b"the first install's key")
    result = scripts.run(tree / "deploy" / "install.sh", "--dry-run", "--root", root)
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        "install.sh: this Pi checks every update's signature before unpacking it: run sudo "
        "sorry-companion update ~/sorry-companion-0.1.0-0123abcd.tar.gz (with its "
        ".tar.gz.sig beside it) instead."]
    os.environ[release_update.VERIFIED_VARIABLE] = "0.1.0-0123abcd"
    try:
        result = scripts.run(tree / "deploy" / "install.sh", "--dry-run", "--root", root)
    finally:
        del os.environ[release_update.VERIFIED_VARIABLE]
    assert result.returncode == 0, result.stderr
    assert under(root, KEY).read_bytes() == b"the first install's key"  # never replaced


def test_release_switch_refuses_to_stage_dotdot(tmp_path: Path):
    opt = tmp_path / "opt"
    (opt / "versions").mkdir(parents=True)
    app = opt / "venv" / "bin" / "sorry-companion"  # what versions/.. would hold
    app.parent.mkdir(parents=True)
    app.write_text("#!/bin/sh\n")
    app.chmod(0o755)
    done = subprocess.run(["bash", str(SWITCH_SCRIPT), "stage", ".."], capture_output=True,
                          text=True, check=False, timeout=30,
                          env={**os.environ, "SORRY_COMPANION_OPT": str(opt)})
    assert done.returncode == 1
    assert "'..' is not a release name" in done.stderr
    assert not (opt / "next").is_symlink()


def test_pruning_never_removes_the_way_back(tmp_path: Path):
    """With `previous` missing or naming no release folder, prune cannot tell the way back
    from old releases, so it removes nothing."""
    opt = tmp_path / "opt"
    for name in ("1.0-aaaa", "1.1-bbbb", "1.2-cccc"):
        (opt / "versions" / name).mkdir(parents=True)
    (opt / "current").symlink_to("versions/1.2-cccc")
    (opt / "previous").symlink_to("versions/..")
    done = subprocess.run(["bash", str(SWITCH_SCRIPT), "ready"], capture_output=True,
                          text=True, check=False, timeout=30,
                          env={**os.environ, "SORRY_COMPANION_OPT": str(opt)})
    assert done.returncode == 0
    assert sorted(p.name for p in (opt / "versions").iterdir()) == [
        "1.0-aaaa", "1.1-bbbb", "1.2-cccc"]
    (opt / "previous").unlink()
    (opt / "previous").symlink_to("versions/1.1-bbbb")
    subprocess.run(["bash", str(SWITCH_SCRIPT), "ready"], check=True, timeout=30,
                   capture_output=True, env={**os.environ, "SORRY_COMPANION_OPT": str(opt)})
    assert sorted(p.name for p in (opt / "versions").iterdir()) == ["1.1-bbbb", "1.2-cccc"]
