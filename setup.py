"""The build's one step beyond setup.cfg: the catalogues' .mo files are compiled from their
.po sources (compile_locales.py, Babel) before the packages are copied, so every wheel
and every editable install ships them (setup.cfg's package_data takes locales/*.mo)."""

from __future__ import annotations

import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

sys.path.insert(0, str(Path(__file__).resolve().parent))
import compile_locales


class BuildWithLocales(build_py):
    """build_py, with the .mo files written beside their .po first."""

    def run(self) -> None:
        compile_locales.compile_all(compile_locales.sources())
        vars(self).pop("data_files", None)  # listed again, with the .mo files
        super().run()


setup(cmdclass={"build_py": BuildWithLocales})
