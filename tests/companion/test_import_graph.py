"""The session and its helpers import one another one way only: the window timer and the
background writer get what they need through a narrow interface (companion.windows.WindowHost,
companion.session_background.GameHost), never by importing the session."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HELPERS = ("companion.windows", "companion.session_background", "companion.update",
           "companion.journal_writer", "companion.game")


def _modules() -> dict[str, Path]:
    found = {}
    for path in (ROOT / "companion").rglob("*.py"):
        name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        found[name.removesuffix(".__init__")] = path
    return found


def _graph() -> dict[str, set[str]]:
    """Every import between companion's modules: at the top, inside functions, and under
    TYPE_CHECKING alike (each one is a dependency a reader has to follow)."""
    modules = _modules()
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        deps: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                deps.add(node.module)
                deps.update(f"{node.module}.{alias.name}" for alias in node.names)
            elif isinstance(node, ast.Import):
                deps.update(alias.name for alias in node.names)
        graph[name] = {d for d in deps if d in modules and d != name}
    return graph


def _reachable(graph: dict[str, set[str]], start: str) -> set[str]:
    seen, todo = set(), [start]
    while todo:
        for dep in graph[todo.pop()]:
            if dep not in seen:
                seen.add(dep)
                todo.append(dep)
    return seen


def test_no_helper_of_the_session_imports_it_even_for_types():
    graph = _graph()
    assert "companion.windows" in graph["companion.session"]  # the graph is read right
    for helper in HELPERS:
        assert "companion.session" not in _reachable(graph, helper), helper


def test_the_session_is_in_no_import_cycle():
    graph = _graph()
    assert "companion.session" not in _reachable(graph, "companion.session")


@pytest.mark.parametrize("module", ("companion.session", *HELPERS))
def test_each_module_imports_alone(module):
    done = subprocess.run([sys.executable, "-c", f"import {module}"], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
