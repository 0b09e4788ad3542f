"""The camera's software, imported only when used: numpy and OpenCV (the optional extra)
and, for a Raspberry Pi camera, Raspberry Pi OS's picamera2.

Each can fail to import in its own way, and each way is one sentence a parent can act on
(the catalogue's "doctor_<code>" and "doctor_fix_<fix>", English and French), the same in
the doctor, on the Hardware page and from the camera itself: not installed; installed but
broken (a missing system library); or picamera2, built by Raspberry Pi OS for its own
numpy 1.24, refusing the venv's numpy 2 with a ValueError ("numpy.dtype size changed"),
not an ImportError (raspberrypi/picamera2 issue 1088).
"""

from __future__ import annotations

import functools
import importlib
from dataclasses import dataclass

from companion.catalogue import text
from companion.safe_text import one_line

INSTALL_HINT = ("the camera needs its optional part: install it with "
                "`pip install '.[camera]'` in the app's folder (on the Pi: "
                "`sudo deploy/install.sh --camera`)")
EXTRA = ("numpy", "cv2")
PICAMERA = "picamera2"
NUMPY_MISMATCH = ("numpy.dtype size changed", "binary incompatibility")


class MissingExtra(RuntimeError):
    """numpy or OpenCV cannot be imported; the message says how to mend it."""


@dataclass(frozen=True)
class ImportProblem:
    """Why `module` does not import: the catalogue's doctor_<code>, doctor_fix_<fix>."""

    code: str
    fix: str
    module: str
    error: str

    def params(self) -> dict[str, str]:
        return {"module": self.module, "error": self.error}

    def sentence(self, lang: str = "en") -> str:
        """What is wrong and what to do, in one sentence."""
        return text("doctor_found_fix", lang,
                    found=text(f"doctor_{self.code}", lang, **self.params()),
                    fix=text(f"doctor_fix_{self.fix}", lang, **self.params()))


@functools.cache
def import_problem(module: str) -> ImportProblem | None:
    """Why `module` (numpy, cv2 or picamera2) does not import here, or None when it does.
    Cached: the venv does not change while the app runs (tests clear it)."""
    picamera = module == PICAMERA
    try:
        importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name == module:  # itself, not something it needs
            return ImportProblem("picamera_missing" if picamera else "camera_missing",
                                 "install_picamera" if picamera else "install_camera",
                                 module, one_line(str(exc), 160))
        return _broken(module, exc)
    except ValueError as exc:
        if picamera and any(words in str(exc) for words in NUMPY_MISMATCH):
            return ImportProblem("picamera_numpy", "picamera_numpy", module,
                                 one_line(str(exc), 160))
        return _broken(module, exc)
    except Exception as exc:  # ImportError of a system library, OSError, RuntimeError...
        return _broken(module, exc)
    return None


def _broken(module: str, exc: BaseException) -> ImportProblem:
    picamera = module == PICAMERA
    return ImportProblem("picamera_broken" if picamera else "camera_broken",
                         "reinstall_picamera" if picamera else "reinstall_camera", module,
                         one_line(f"{type(exc).__name__}: {exc}", 160))


def stack_problem(picamera: bool) -> ImportProblem | None:
    """The first part of the camera's software that does not import: numpy, OpenCV, then
    picamera2 when the Pi camera is the source."""
    for module in (*EXTRA, *((PICAMERA,) if picamera else ())):
        problem = import_problem(module)
        if problem is not None:
            return problem
    return None


def available() -> bool:
    return stack_problem(picamera=False) is None


def require() -> None:
    """Import numpy and OpenCV, or raise MissingExtra with one sentence saying how."""
    problem = stack_problem(picamera=False)
    if problem is None:
        return
    if problem.code == "camera_missing":
        raise MissingExtra(INSTALL_HINT)
    raise MissingExtra(problem.sentence())
