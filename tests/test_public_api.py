"""ui/ and hardware/ use the core only through its public API (companion/__init__.py):
the session and its updates, the errors, the configuration, the games registry and each
game's package (never a game's modules, the journal, the undo stack or the timer)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from companion import PUBLIC_MODULES
from companion.games import names

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted(p for part in ("ui", "hardware") for p in (ROOT / part).rglob("*.py"))


def companion_imports(path: Path) -> set[str]:
    """Every companion module a file imports, at its top or inside a function."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.split(".")[0] == "companion"}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module == "companion":
                found |= {f"companion.{a.name}" for a in node.names}
            elif node.module.startswith("companion."):
                found.add(node.module)
    return found


def test_the_public_modules_are_the_session_errors_config_and_games():
    expected = ("companion.session", "companion.errors", "companion.config", "companion.games",
                *(f"companion.games.{n}" for n in names()),
                "companion.version", "companion.system", "companion.backup", "companion.notices",
                "companion.catalogue")
    assert expected == PUBLIC_MODULES


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(ROOT)) for p in FILES])
def test_ui_and_hardware_import_only_the_public_api(path: Path):
    private = sorted(companion_imports(path) - set(PUBLIC_MODULES))
    assert private == [], f"{path.relative_to(ROOT)} reaches past the public API"


def test_the_check_would_see_a_reach_in(tmp_path: Path):
    sample = tmp_path / "sample.py"
    sample.write_text("from companion.session import Session\n"
                      "def f():\n    from companion.games.revenge.engine import apply\n"
                      "    from companion import journal\n", encoding="utf-8")
    assert companion_imports(sample) == {"companion.session", "companion.games.revenge.engine",
                                         "companion.journal"}
