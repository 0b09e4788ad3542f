"""ui/, hardware/ and the games' screens and faces use the core only through its public
API (companion/__init__.py): the session and its updates, the errors, the configuration,
the games registry and each game's rules package (never a game's rules modules, the
journal, the undo stack or the timer)."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

import games
from companion import PUBLIC_MODULES

ROOT = Path(__file__).resolve().parent.parent
# every game's folder, the tests' fixtures' too (games.FIXTURES)
MANIFESTS = [importlib.import_module(p).MANIFEST
             for p in (*games.PLUGINS.values(), *games.FIXTURES.values())]


def module_files(module: str) -> list[Path]:
    """The files of a dotted module: a package's every .py, or the one module's."""
    base = ROOT / Path(*module.split("."))
    return sorted(base.rglob("*.py")) if base.is_dir() else [base.with_suffix(".py")]


FILES = sorted({*(p for part in ("ui", "hardware") for p in (ROOT / part).rglob("*.py")),
                *(p for m in MANIFESTS for part in (m.screens, m.face) if part
                  for p in module_files(part))})
RULES = {m.rules for m in MANIFESTS}  # each game's rules package: its public names


def companion_imports(path: Path) -> set[str]:
    """Every module of the core or of a game's rules a file imports, at its top or inside a
    function."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if _core_or_rules(a.name)}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module == "companion" or node.module in {r.rsplit(".", 1)[0] for r in RULES}:
                found |= {f"{node.module}.{a.name}" for a in node.names
                          if _core_or_rules(f"{node.module}.{a.name}")}
            elif _core_or_rules(node.module):
                found.add(node.module)
    return found


def _core_or_rules(module: str) -> bool:
    return module.split(".")[0] == "companion" or any(
        module == r or module.startswith(r + ".") for r in RULES)


def test_the_public_modules_are_the_session_errors_config_and_games():
    expected = ("companion.session", "companion.errors", "companion.config", "companion.games",
                "companion.plugins", "companion.version", "companion.system", "companion.backup",
                "companion.notices", "companion.catalogue", "companion.seats")
    assert expected == PUBLIC_MODULES


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(ROOT)) for p in FILES])
def test_ui_and_hardware_import_only_the_public_api(path: Path):
    private = sorted(companion_imports(path) - set(PUBLIC_MODULES) - RULES)
    assert private == [], f"{path.relative_to(ROOT)} reaches past the public API"


def test_the_check_would_see_a_reach_in(tmp_path: Path):
    sample = tmp_path / "sample.py"
    sample.write_text("from companion.session import Session\n"
                      "def f():\n    from games.revenge.rules.engine import apply\n"
                      "    from companion import journal\n"
                      "    from games.board import rules\n"
                      "    from games.board.rules import Draw\n", encoding="utf-8")
    assert companion_imports(sample) == {"companion.session", "games.revenge.rules.engine",
                                         "companion.journal", "games.board.rules"}
