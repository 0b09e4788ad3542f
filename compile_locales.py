"""Compile the catalogues' .po sources to the .mo files the app reads (a build step).

`python compile_locales.py [PO ...]` writes each `<lang>.mo` beside its `<lang>.po`; with no
argument, every .po of the checkout (the core's `companion/locales/` and each game plugin's
`locales/`). The Makefile runs it before the app and the tests, and setup.py's build_py
before the wheel is packed, so a fresh clone, `make dist` and `pip install .` all ship
.mo files that say what the .po files say; the .mo files are never committed.

Babel (`babel.messages`, a build and test dependency only: the app reads the .mo files
with the standard library's gettext) reads each .po, keeps its own Plural-Forms header,
and writes the .mo. One thing is added: a plural entry's msgid_plural is the name of its
counting placeholder ("hand" / "n"), which gettext's reader does not keep, so each is
written again as the entry `msgctxt "msgid_plural"`, `msgid "hand"`, `msgstr "n"`, read
back by `companion.catalogue` with `pgettext`.
"""

from __future__ import annotations

import datetime
import io
import os
import sys
from collections.abc import Iterable
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT))  # setup.py runs this from a build environment
from companion.catalogue import PLURAL_NAME  # noqa: E402  (the context it reads them under)

SKIPPED = {".git", ".venv", "build", "dist", "screenshots", "__pycache__", "node_modules"}
# The .mo depends on its .po alone: Babel would stamp the compile time in its header.
FIXED_DATE = datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC)


def sources(root: Path = ROOT) -> list[Path]:
    """Every .po of the checkout, in a folder named locales."""
    found = []
    for folder, subfolders, files in os.walk(root):
        subfolders[:] = [d for d in subfolders if d not in SKIPPED and not d.startswith(".")]
        if Path(folder).name == "locales":
            found += [Path(folder, f) for f in files if f.endswith(".po")]
    return sorted(found)


def catalogue(po: Path) -> Catalog:
    """The .po as Babel reads it; a line Babel cannot read stops here, named."""
    with po.open("rb") as source:
        return read_po(source, abort_invalid=True)


def mo_bytes(po: Path) -> bytes:
    """The .mo of `po`, with each plural entry's counting placeholder beside it."""
    cat = catalogue(po)
    cat.creation_date = FIXED_DATE
    for message in list(cat):
        if message.id and message.pluralizable and not isinstance(message.id, str):
            cat.add(message.id[0], message.id[1], context=PLURAL_NAME)
    out = io.BytesIO()
    write_mo(out, cat)
    return out.getvalue()


def compile_all(pos: Iterable[Path]) -> list[Path]:
    """Write each .mo beside its .po; the .mo paths."""
    written = []
    for po in pos:
        mo = po.with_suffix(".mo")
        mo.write_bytes(mo_bytes(po))
        written.append(mo)
    return written


def main(argv: list[str]) -> int:
    pos = [Path(a) for a in argv] or sources()
    missing = [str(p) for p in pos if not p.is_file()]
    if missing:
        print(f"compile_locales: no such .po file: {', '.join(missing)}", file=sys.stderr)
        return 2
    try:
        compile_all(pos)
    except Exception as error:  # Babel's parse errors name the file and line
        print(f"compile_locales: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
