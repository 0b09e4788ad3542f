"""The camera's optional dependencies (numpy, OpenCV), imported only when used."""

from __future__ import annotations

INSTALL_HINT = ("the camera needs its optional part: install it with "
                "`pip install '.[camera]'` in the app's folder (on the Pi: "
                "`sudo deploy/install.sh --camera`)")


class MissingExtra(RuntimeError):
    """numpy or OpenCV is not installed."""


def available() -> bool:
    try:
        require()
    except MissingExtra:
        return False
    return True


def require() -> None:
    """Import numpy and OpenCV, or raise MissingExtra with one sentence saying how."""
    try:
        import cv2  # noqa: F401
        import numpy  # noqa: F401
    except ImportError:
        raise MissingExtra(INSTALL_HINT) from None
