"""The guides hold together: every relative link lands on a file (and heading) inside the
repository, the specs they link are the binding ones, and every `sorry-companion` command
line the parent's guide gives is one the command line accepts."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from doclinks import FENCE, SPAN, broken_links

from companion.cli import build_parser

ROOT = Path(__file__).resolve().parent.parent
DOCUMENTS = sorted({ROOT / "README.md", *(ROOT / "docs").glob("*.md"),
                    ROOT / "hardware" / "README.md", ROOT / "deploy" / "README.md"})
SHARED_SPEC = ROOT.parent / "shared" / "spec"
GUIDE = ROOT / "docs" / "GUIDE.md"
@pytest.mark.parametrize("path", DOCUMENTS, ids=[str(p.relative_to(ROOT)) for p in DOCUMENTS])
def test_every_relative_link_lands_inside_the_repository(path: Path):
    assert broken_links(path, ROOT) == []


def test_the_link_check_sees_each_kind_of_broken_link(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "GUIDE.md").write_text("# A guide\n", encoding="utf-8")
    (tmp_path.parent / "elsewhere.md").write_text("# Away\n", encoding="utf-8")
    sample = tmp_path / "docs" / "sample.md"
    sample.write_text("# Top\n[a](GUIDE.md#no-such) [b](../../elsewhere.md) [c](nope.md) "
                      "[d](https://example.org) [e](#top) [g](GUIDE.md#a-guide) "
                      "`[f](inside-code.md)`\n", encoding="utf-8")
    problems = broken_links(sample, tmp_path)
    assert [p.split(":")[0] for p in problems] == [
        "GUIDE.md#no-such", "../../elsewhere.md", "nope.md", "https"]


@pytest.mark.skipif(not SHARED_SPEC.is_dir(), reason="no ../shared/spec beside this checkout")
def test_the_specs_in_docs_are_the_binding_ones():
    shared = {p.name: p.read_text(encoding="utf-8") for p in SHARED_SPEC.glob("*.md")}
    copied = {p.name: p.read_text(encoding="utf-8")
              for p in (ROOT / "docs" / "spec").glob("*.md")}
    assert copied == shared, "copy ../shared/spec/*.md into docs/spec/ again"


def guide_commands(text: str) -> list[list[str]]:
    """Each `sorry-companion ...` command line in the guide's code, as words, up to a pipe,
    a redirection or the next command."""
    code = [line for block in FENCE.findall(text) for line in block.splitlines()]
    code += SPAN.findall(FENCE.sub("", text))
    found = []
    for line in code:
        for part in re.split(r"&&|\|\||;|\|", line.split(" #")[0]):
            words = shlex.split(re.split(r"\s[0-9]?[<>]", part)[0])
            if words[:1] == ["sudo"]:
                words = words[1:]
            if words[:1] == ["sorry-companion"]:  # not `systemctl restart sorry-companion`
                found.append(words[1:])
    return found


def test_the_guide_names_only_commands_and_options_that_exist():
    commands = guide_commands(GUIDE.read_text(encoding="utf-8"))
    assert len(commands) >= 10, "the guide should give its commands in code"
    parser = build_parser()
    for words in commands:
        if words[:1] == ["update"]:  # the Pi's own word, handled by deploy/command.sh
            assert '== update' in (ROOT / "deploy" / "command.sh").read_text(encoding="utf-8")
            continue
        try:
            parser.parse_args(words)
        except SystemExit as stop:  # `--version` and `--help` stop with 0 once they print
            if stop.code == 0:
                continue
            pytest.fail(f"the guide says `sorry-companion {' '.join(words)}`, which the "
                        "command line refuses")


def test_the_command_check_would_refuse_a_made_up_command():
    parser = build_parser()
    for words in (["history", "--csv"], ["reset"], ["export", "--html"]):
        with pytest.raises(SystemExit):
            parser.parse_args(words)
