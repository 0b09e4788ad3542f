"""Issue 31: every way the camera's software fails to import is one sentence, in a
parent's words, in the doctor (the real command) and on the Hardware page (English and
French), and the camera source says the same. Nothing of picamera2 exists here, so fake
modules on sys.path raise the very errors a Pi gives: picamera2 missing; picamera2
present but its JPEG helper simplejpeg, built for numpy 1.24, refusing numpy 2 with a
ValueError; picamera2 without libcamera; OpenCV or numpy missing or broken."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

from camera.extra import import_problem
from companion.catalogue import text
from companion.config import load_config
from hardware.doctor import app_checks

REPO = Path(__file__).resolve().parents[2]
SIMPLEJPEG = ("numpy.dtype size changed, may indicate binary incompatibility. Expected 96 "
              "from C header, got 88 from PyObject")
FAKES = {  # case: {file under the fake folder: its code}
    "picamera2 refuses numpy 2": {
        "picamera2/__init__.py": "import simplejpeg\n",
        "simplejpeg/__init__.py": f"raise ValueError({SIMPLEJPEG!r})\n"},
    "picamera2 without libcamera": {"picamera2/__init__.py": "import libcamera\n"},
    "picamera2 missing": {},
    "OpenCV missing": {"cv2/__init__.py": "raise ModuleNotFoundError(\"No module named "
                                          "'cv2'\", name='cv2')\n"},
    "OpenCV broken": {"cv2/__init__.py": "raise ImportError('libGL.so.1: cannot open shared "
                                         "object file: No such file or directory')\n"},
    "numpy missing": {"numpy/__init__.py": "raise ModuleNotFoundError(\"No module named "
                                           "'numpy'\", name='numpy')\n"},
}
EXPECTED = {  # case: (doctor_<code>, doctor_fix_<fix>, the error shown)
    "picamera2 refuses numpy 2": ("picamera_numpy", "picamera_numpy", SIMPLEJPEG),
    "picamera2 without libcamera": ("picamera_broken", "reinstall_picamera",
                                    "ModuleNotFoundError: No module named 'libcamera'"),
    "picamera2 missing": ("picamera_missing", "install_picamera", "No module named 'picamera2'"),
    "OpenCV missing": ("camera_missing", "install_camera", "No module named 'cv2'"),
    "OpenCV broken": ("camera_broken", "reinstall_camera", "ImportError: libGL.so.1: cannot "
                      "open shared object file: No such file or directory"),
    "numpy missing": ("camera_missing", "install_camera", "No module named 'numpy'"),
}


@pytest.fixture(autouse=True)
def no_real_picamera() -> None:
    if importlib.util.find_spec("picamera2") is not None:
        pytest.skip("a real picamera2 is installed here")


def fake_folder(tmp_path: Path, case: str) -> Path:
    folder = tmp_path / "fakes"
    for name, code in FAKES[case].items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(code)
    folder.mkdir(exist_ok=True)
    return folder


def camera_config(tmp_path: Path) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(f'data_dir = "{tmp_path}"\n[camera]\nenabled = true\n'
                    'source = "picamera"\n')
    return path


def words(case: str, lang: str) -> tuple[str, str]:
    code, fix, error = EXPECTED[case]
    facts = {"module": "", "error": error}
    return text(f"doctor_{code}", lang, **facts), text(f"doctor_fix_{fix}", lang, **facts)


@pytest.mark.parametrize("case", sorted(FAKES))
def test_the_doctor_says_each_import_failure_in_one_sentence(tmp_path: Path, case: str) -> None:
    env = {**os.environ, "PYTHONPATH": f"{fake_folder(tmp_path, case)}{os.pathsep}{REPO}"}
    done = subprocess.run([sys.executable, "-m", "companion.cli", "--config",
                           str(camera_config(tmp_path)), "doctor"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120)
    assert "Traceback" not in done.stderr, done.stderr
    found, fix = words(case, "en")
    rows = [line for line in done.stdout.splitlines() if line.startswith("camera ")]
    assert rows == [f"camera    warn    {found}"], done.stdout
    assert f"  camera: {fix}" in done.stdout.splitlines(), done.stdout


@pytest.mark.parametrize("case", ["picamera2 refuses numpy 2", "picamera2 without libcamera",
                                  "picamera2 missing"])
def test_the_hardware_page_and_the_camera_source_say_the_same_in_both_languages(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, case: str) -> None:
    from camera.sources import PiCameraSource, SourceError

    monkeypatch.syspath_prepend(str(fake_folder(tmp_path, case)))
    for name in ("picamera2", "simplejpeg", "libcamera"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    import_problem.cache_clear()
    try:
        config = load_config(camera_config(tmp_path))
        camera = next(c for c in app_checks(config, {}) if c.name == "camera")
        for lang in ("en", "fr"):
            assert (camera.detail_in(lang), camera.fix_in(lang)) == words(case, lang)
        with pytest.raises(SourceError) as refused:
            PiCameraSource()
        found, fix = words(case, "en")
        assert str(refused.value) == f"{found}: {fix}"
        assert camera.result == "warn"
    finally:
        import_problem.cache_clear()


def test_the_french_sentence_has_its_own_punctuation() -> None:
    assert text("doctor_found_fix", "fr", found="a", fix="b") == "a : b"
    assert text("doctor_picamera_numpy", "fr").startswith("le logiciel de la caméra")
