"""`make dist`: the archive a parent carries to the Pi holds everything install.sh needs.

Runs the real deploy/dist.sh once, unpacks the archive, and checks it: contents, hashes
against the lock, that pip resolves every requirement for the Pi from the archive alone,
and that its install.sh reads the release.

dist.sh runs unchanged on a copy of this tree whose locks name the same packages at the
same versions as deploy/*.lock, each with a small stand-in wheel for the Pi (and an x86_64
one beside it that must stay out), served by a local folder instead of PyPI: the same
`pip download --platform ... --require-hashes` and the rest of the script, without
fetching and packing 80 MB of OpenCV, numpy and Kivy (minutes on a fresh clone, and a
test that needs the network). The real aarch64 wheels of the real lock are proven by
`make pi-vm`, which builds its releases with this script and installs them on an emulated
arm64 Pi, and here with DIST_FROM_PYPI=1."""

from __future__ import annotations

import base64
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest
from deploy_helpers import DEPLOY, LOCK, Scripts, SigningKey
from doclinks import broken_links

CAMERA_LOCK = DEPLOY / "requirements-camera.lock"
REAL_WHEELS = os.environ.get("DIST_FROM_PYPI") == "1"
LOCKS = {LOCK.name: "manylinux2014_aarch64", CAMERA_LOCK.name: "manylinux_2_28_aarch64"}
COMPILED = ("kivy", "charset-normalizer", "numpy", "opencv-python-headless")
# what `pip wheel` needs to build the app's own wheel (pyproject.toml's build requires,
# and what they require)
BUILD_TOOLS = ("setuptools", "wheel", "babel")
# left out of the copy of the tree dist.sh builds from: nothing the wheel or archive takes
NOT_COPIED = {".git", ".venv", "build", "dist", "tests", "screenshots", ".mypy_cache",
              ".ruff_cache", ".hypothesis", ".pytest_cache"}

# The Pythons of the systems the archive installs on (Trixie's 3.13, Bookworm's 3.11).
PYTHONS = [line.split()[1] for line in (DEPLOY / "supported-systems").read_text().splitlines()
           if line.strip() and not line.startswith("#")]
ABIS = ["cp" + python.replace(".", "") for python in PYTHONS]

pytestmark = pytest.mark.slow


def pins(lock: Path) -> dict[str, str]:
    """name -> version of every package a lock pins."""
    return dict(re.findall(r"^([a-z0-9-]+)==(\S+) \\$", lock.read_text(), re.MULTILINE))


def _record_hash(data: bytes) -> str:
    return base64.urlsafe_b64encode(hashlib.sha256(data).digest()).decode().rstrip("=")


def stand_in_wheel(folder: Path, name: str, version: str, tag: str) -> Path:
    """A small valid wheel of `name` `version` for `tag` (pip reads its metadata only)."""
    dist = re.sub(r"[-_.]+", "_", name)
    info = f"{dist}-{version}.dist-info"
    files = {
        f"{info}/METADATA": f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n",
        f"{info}/WHEEL": f"Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: "
                         f"{'false' if 'linux' in tag else 'true'}\nTag: {tag}\n",
    }
    record = [f"{path},sha256={_record_hash(text.encode())},{len(text.encode())}"
              for path, text in files.items()]
    files[f"{info}/RECORD"] = "\n".join([*record, f"{info}/RECORD,,"]) + "\n"
    path = folder / f"{dist}-{version}-{tag}.whl"
    with zipfile.ZipFile(path, "w") as whl:
        for name_in, text in files.items():
            whl.writestr(name_in, text)
    return path


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def stand_in_source(root: Path) -> tuple[Path, Path]:
    """A copy of this tree whose locks pin the real locks' packages and versions to stand-in
    wheels, and the folder that serves them (with the real build tools for the app's
    wheel, and the real setuptools the Pi's lock pins, which is the build tool too)."""
    wheels, source = root / "wheelhouse", root / "source"
    wheels.mkdir()
    build_pins = [f"{n}=={pins(LOCK)[n]}" if n in pins(LOCK) else n for n in BUILD_TOOLS]
    done = subprocess.run([sys.executable, "-m", "pip", "download", "--quiet",
                           "--only-binary=:all:", "-d", str(wheels), *build_pins],
                          capture_output=True, text=True, check=False, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    real = {re.sub(r"[-_.]+", "-", w.name.split("-")[0]).lower(): w
            for w in wheels.glob("*.whl")}
    shutil.copytree(DEPLOY.parent, source, ignore=lambda folder, names: [
        n for n in names if n == "__pycache__" or n.endswith((".egg-info", ".mo"))
        or (Path(folder) == DEPLOY.parent and n in NOT_COPIED)
        or (Path(folder) == DEPLOY.parent / "docs" and n == "screenshots")])
    for lock, platform in LOCKS.items():
        lines = [line for line in (DEPLOY / lock).read_text().splitlines()
                 if line.startswith("#")]
        for name, version in pins(DEPLOY / lock).items():
            if name in real:
                hashes = [sha256(real[name])]
            elif name in COMPILED:  # the real locks hold every Python on both, as here
                hashes = [sha256(stand_in_wheel(wheels, name, version, f"{abi}-{abi}-{tag}"))
                          for abi in ABIS
                          for tag in (platform, "manylinux_2_28_x86_64")]
            else:
                hashes = [sha256(stand_in_wheel(wheels, name, version, "py3-none-any"))]
            lines.append(f"{name}=={version} \\")
            lines += [f"    --hash=sha256:{h}" + (" \\" if i < len(hashes) - 1 else "")
                      for i, h in enumerate(hashes)]
        (source / "deploy" / lock).write_text("\n".join(lines) + "\n")
    return source, wheels


@pytest.fixture(scope="module")
def release(tmp_path_factory: pytest.TempPathFactory, signing_key: SigningKey) -> Path:
    out = tmp_path_factory.mktemp("dist")
    env = {**os.environ, "PYTHON": sys.executable,
           "SORRY_COMPANION_SIGNING_HOME": str(signing_key.home)}
    source = DEPLOY.parent
    if not REAL_WHEELS:
        source, wheels = stand_in_source(tmp_path_factory.mktemp("stand-in"))
        env.update({"PIP_NO_INDEX": "1", "PIP_FIND_LINKS": str(wheels)})
    done = subprocess.run(["bash", str(DEPLOY / "dist.sh"), "--source", str(source),
                           "--out", str(out)],
                          capture_output=True, text=True, check=False, timeout=600, env=env)
    assert done.returncode == 0, done.stderr[-2000:]
    archive = Path(done.stdout.strip().splitlines()[-1])
    assert archive.parent == out and archive.name.endswith(".tar.gz")
    with tarfile.open(archive) as tar:
        tar.extractall(out, filter="data")
    return out / archive.name.removesuffix(".tar.gz")


def locked_hashes(release: Path) -> dict[str, set[str]]:
    """The release's app lock and camera lock (its wheels ride in the archive too)."""
    found: dict[str, set[str]] = {}
    for lock in LOCKS:
        for name, block in re.findall(r"^([a-z0-9-]+)==\S+ \\\n((?:    --hash=.*\n)+)",
                                      (release / "deploy" / lock).read_text(), re.MULTILINE):
            found[name] = set(re.findall(r"sha256:([0-9a-f]{64})", block))
    return found


def test_the_archive_is_named_after_its_release(release: Path):
    version = re.search(r'__version__ = "([^"]+)"',
                        (DEPLOY.parent / "companion" / "__init__.py").read_text())
    assert version is not None
    stated = (release / "RELEASE").read_text().strip()
    assert release.name == f"sorry-companion-{stated}"
    assert re.fullmatch(re.escape(version.group(1)) + r"-[0-9a-f]{8}", stated)


def test_the_archive_holds_the_installer_firmware_and_guides(release: Path):
    for path in ("deploy/install.sh", "deploy/uninstall.sh", "deploy/common.sh",
                 "deploy/release-switch.sh", "deploy/command.sh",
                 "deploy/sorry-companion.service", "deploy/99-sorry-ledboard.rules",
                 "deploy/sorry-companion-modules.conf",
                 "deploy/50-sorry-companion-poweroff.rules", "deploy/requirements-pi.lock",
                 "deploy/requirements-camera.lock", "deploy/supported-systems",
                 "deploy/README.md", "hardware/README.md", "hardware/firmware/main.py",
                 "hardware/firmware/ledboard.py", "hardware/firmware/pawnled.py",
                 "companion/default_config.toml", "README.txt", "SHA256SUMS",
                 "deploy/release_update.py", "deploy/release-key.gpg",
                 "docs/GUIDE.md", "docs/wiring.svg", "docs/spec/RULES.md"):
        assert (release / path).is_file(), path
    assert os.access(release / "deploy" / "install.sh", os.X_OK)
    from companion.default_config import default_config_text

    # the whole default configuration: the app's tables and each game's folder's own
    assert (release / "companion" / "default_config.toml").read_text() == default_config_text()
    assert "<" not in (release / "README.txt").read_text()  # no placeholder left


def test_every_link_of_the_archives_guides_lands_inside_the_archive(release: Path):
    guides = sorted(release.rglob("*.md"))
    assert release / "docs" / "GUIDE.md" in guides
    broken = {str(g.relative_to(release)): broken_links(g, root=release) for g in guides}
    assert not any(broken.values()), broken


def test_every_wheel_is_the_locked_one_for_the_pi(release: Path):
    wheels = sorted((release / "wheels").glob("*.whl"))
    app = [w for w in wheels if w.name.startswith("sorry_companion-")]
    assert len(app) == 1
    locked = locked_hashes(release)
    deps = [w for w in wheels if w not in app]
    names = [re.sub(r"[-_.]+", "-", w.name.split("-")[0]).lower() for w in deps]
    assert set(names) == set(locked)
    for wheel, name in zip(deps, names, strict=True):
        assert hashlib.sha256(wheel.read_bytes()).hexdigest() in locked[name], wheel.name
        assert wheel.name.endswith(("-none-any.whl", "aarch64.whl")), wheel.name
    if not REAL_WHEELS:  # a compiled stand-in rides once per Python (Trixie's, Bookworm's)
        for compiled in COMPILED:
            tags = {"-".join(w.name.split("-")[-3:-1])
                    for w, name in zip(deps, names, strict=True) if name == compiled}
            assert tags == {f"{abi}-{abi}" for abi in ABIS}, compiled
    # one wheel for every package and version the real locks pin
    pinned = {**pins(LOCK), **pins(CAMERA_LOCK)}
    assert {re.sub(r"[-_.]+", "-", w.name.split("-")[0]).lower(): w.name.split("-")[1]
            for w in deps} == pinned


@pytest.mark.parametrize("python", PYTHONS)
@pytest.mark.parametrize("lock, platform", [("requirements-pi.lock", "manylinux2014_aarch64"),
                                            ("requirements-camera.lock", "manylinux_2_28_aarch64")])
def test_pip_resolves_the_pi_from_the_archive_alone(release: Path, tmp_path: Path, lock: str,
                                                    platform: str, python: str):
    """What install.sh asks of pip on the Pi (with --camera too), resolved here for aarch64
    with no index, for Trixie's Python and Bookworm's (an archive with cp311 wheels only
    stopped at pip on Trixie: issue 31)."""
    done = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--dry-run", "--quiet", "--no-index",
         "--find-links", str(release / "wheels"), "--only-binary=:all:", "--ignore-installed",
         "--require-hashes", "-r", str(release / "deploy" / lock),
         "--platform", platform, "--python-version", python, "--implementation", "cp",
         "--abi", "cp" + python.replace(".", ""), "--target", str(tmp_path / "t")],
        capture_output=True, text=True, check=False, timeout=300,
        env={**os.environ, "PIP_FIND_LINKS": "", "PIP_EXTRA_INDEX_URL": ""})
    assert done.returncode == 0, done.stderr[-2000:]


def test_the_sums_match_the_files(release: Path):
    done = subprocess.run(["sha256sum", "--check", "--quiet", "SHA256SUMS"], cwd=release,
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_archives_installer_reads_its_release(release: Path, tmp_path: Path):
    scripts = Scripts(tmp_path)
    result = scripts.run(release / "deploy" / "install.sh", "--dry-run", "--root",
                         tmp_path / "root")
    assert result.returncode == 0, result.stderr
    stated = (release / "RELEASE").read_text().strip()
    assert f"== release {stated} in /opt/sorry-companion/versions/{stated}" in result.stdout
    assert f"release-switch stage {stated}" in result.stdout
    app_wheel = next((release / "wheels").glob("sorry_companion-*.whl"))
    assert f"--no-deps {app_wheel}" in result.stdout


def test_the_app_wheel_carries_every_package_and_data_file_the_app_reads(release: Path):
    """A screen's .kv, a locale or a package missing from the wheel works in a checkout and
    fails only on the Pi (the card game's screens were once left out of it). Each .po's
    .mo is compiled by the wheel's own build (the copy it is built from has none)."""
    import zipfile

    repo = DEPLOY.parent
    app_wheel = next((release / "wheels").glob("sorry_companion-*.whl"))
    carried = set(zipfile.ZipFile(app_wheel).namelist())
    needed = {str(p.relative_to(repo)) for top in ("companion", "hardware", "ui", "camera")
              for pattern in ("*.py", "*.kv", "*.json", "*.toml", "*.po")
              for p in (repo / top).rglob(pattern)
              if "__pycache__" not in p.parts}
    needed |= {name.removesuffix(".po") + ".mo" for name in needed if name.endswith(".po")}
    assert any(name.endswith("locales/fr.mo") for name in needed)
    assert sorted(needed - carried) == []


def test_the_archive_is_signed_by_the_key_it_carries(release: Path, signing_key: SigningKey):
    """gpgv, as the Pi runs it for an update, accepts the signature beside the archive
    with the public key the archive carries (which the first install records), and
    refuses it for the archive with one byte changed."""
    archive = release.parent / f"{release.name}.tar.gz"
    signature = archive.with_name(archive.name + ".sig")
    carried = release / "deploy" / "release-key.gpg"
    assert carried.read_bytes() == signing_key.public.read_bytes()
    check = ["gpgv", "--keyring", str(carried), str(signature)]
    assert subprocess.run([*check, str(archive)], capture_output=True,
                          check=False).returncode == 0
    changed = release.parent / "changed.tar.gz"
    data = bytearray(archive.read_bytes())
    data[len(data) // 2] ^= 1
    changed.write_bytes(data)
    assert subprocess.run([*check, str(changed)], capture_output=True,
                          check=False).returncode != 0


def test_dist_without_a_signing_key_stops_in_one_sentence(tmp_path: Path):
    done = subprocess.run(["bash", str(DEPLOY / "dist.sh"), "--out", str(tmp_path / "out")],
                          capture_output=True, text=True, check=False, timeout=120,
                          env={**os.environ, "SORRY_COMPANION_SIGNING_HOME": str(tmp_path / "k")})
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        f"dist.sh: no release signing key in {tmp_path / 'k'}: make one with 'deploy/dist.sh "
        "--new-key' (make signing-key), or point SORRY_COMPANION_SIGNING_HOME at the folder "
        "that holds yours."]
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


def test_a_signing_key_inside_the_tree_is_refused(tmp_path: Path):
    inside = DEPLOY.parent / "build" / "signing-key-test"
    done = subprocess.run(["bash", str(DEPLOY / "dist.sh"), "--out", str(tmp_path / "out")],
                          capture_output=True, text=True, check=False, timeout=120,
                          env={**os.environ, "SORRY_COMPANION_SIGNING_HOME": str(inside)})
    assert done.returncode == 2
    assert "is inside the source tree: keep it outside" in done.stderr


def test_an_update_from_the_archive_is_checked_then_its_installer_runs(release: Path,
                                                                       tmp_path: Path):
    """The whole update path on make dist's own output: `sorry-companion update ARCHIVE
    --dry-run` (the installed checker) verifies the signature with the recorded key,
    unpacks, checks the sums, and runs the archive's install.sh, which checks them again."""
    archive = release.parent / f"{release.name}.tar.gz"
    work = tmp_path / "work"
    work.mkdir()
    done = subprocess.run(
        ["python3", str(DEPLOY / "release_update.py"), str(archive), "--dry-run"],
        capture_output=True, text=True, check=False, timeout=300,
        env={**os.environ, "TMPDIR": str(work),
             "SORRY_COMPANION_RELEASE_KEY": str(release / "deploy" / "release-key.gpg")})
    assert done.returncode == 0, done.stderr
    stated = (release / "RELEASE").read_text().strip()
    assert f"{release.name}: signature, files and SHA256SUMS checked; installing." in done.stdout
    assert "checked: every file against SHA256SUMS." in done.stdout
    assert f"release-switch stage {stated}" in done.stdout
    assert [p for p in work.iterdir() if p.name.startswith("sorry-companion-update.")] == []
