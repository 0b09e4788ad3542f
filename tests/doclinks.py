"""Where a Markdown guide's links land: shared by the repository's guides (tests/test_docs.py)
and the release archive's (tests/deploy), so both are checked by the same reading."""

from __future__ import annotations

import re
from pathlib import Path

LINK = re.compile(r"\]\(([^)\s]+)\)|<img [^>]*src=\"([^\"]+)\"")
FENCE = re.compile(r"```[a-z]*\n(.*?)```", re.DOTALL)
SPAN = re.compile(r"`([^`\n]+)`")


def links(text: str) -> list[str]:
    """Every link target of a Markdown document, outside code."""
    prose = SPAN.sub("", FENCE.sub("", text))
    return [a or b for a, b in LINK.findall(prose)]


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    words = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return words.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    text = FENCE.sub("", path.read_text(encoding="utf-8"))
    return {slug(m) for m in re.findall(r"^#+ (.+)$", text, re.MULTILINE)}


def broken_links(path: Path, root: Path) -> list[str]:
    broken = []
    for target in links(path.read_text(encoding="utf-8")):
        if re.match(r"[a-z]+:", target):
            broken.append(f"{target}: no address leaves the repository (a reader may have "
                          "only the archive)")
            continue
        name, _, anchor = target.partition("#")
        goal = (path.parent / name).resolve() if name else path
        if not goal.is_relative_to(root):
            broken.append(f"{target}: outside the repository")
        elif not goal.exists():
            broken.append(f"{target}: no such file")
        elif anchor and goal.suffix == ".md" and anchor not in anchors(goal):
            broken.append(f"{target}: no such heading in {goal.name}")
    return broken
