"""Snap's tests are the app's UI tests of a game in its own folder: they take the UI
tests' fixtures and helpers (tests/ui/app_fixtures.py, ui_helpers.py), and, as every test
under tests/ does, see a command's bug as a traceback (tests/conftest.py)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import camera  # noqa: F401  (OpenCV's image limits, set before a test module loads cv2)
from companion.cli import TRACEBACK_ENV

os.environ[TRACEBACK_ENV] = "1"
sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "tests" / "ui"))

from app_fixtures import driver, mock_pins  # noqa: F401
