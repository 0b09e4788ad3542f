"""What the journal had to repair or set aside, shown over the start screen until the
scorekeeper taps OK, in the current language.

The journal's sentences (companion.notices.Notice) carry a code and their facts, so
each is said in French from `notice_<code>` in the catalogue (companion/locales); one
without a translation is shown in English as the journal wrote it. Notices not yet
dismissed are kept in `notices.json` in the data folder (companion.notices: the journal
makes each durable before it uses what it repaired), so a crash or a power cut before
anyone read them does not hide them: they come back at the next start until OK is tapped.
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

from kivy.metrics import dp, sp
from kivy.uix.boxlayout import BoxLayout

from companion.notices import as_record, dismiss, keep, read
from ui.i18n import has, tr
from ui.widgets import FitLabel, GuardedView, TapButton


def notice_text(note: Any, lang: str) -> str:
    """One notice in `lang`: its translation when there is one, else its English text."""
    code = getattr(note, "code", "") or (note.get("code", "") if isinstance(note, dict) else "")
    params = getattr(note, "params", None) or (note.get("params", {}) if isinstance(note, dict)
                                               else {})
    text = note.get("text", "") if isinstance(note, dict) else str(note)
    key = f"notice_{code}"
    if lang != "en" and code and has(key, lang):
        with contextlib.suppress(KeyError, IndexError, ValueError):
            return tr(key, lang, **params)
    return text


def pending(data_dir: Path, new: list[Any]) -> list[dict[str, Any]]:
    """The notices not yet dismissed (from notices.json) plus `new`, each once; kept."""
    try:
        return keep(data_dir, new)
    except OSError:  # shown anyway; kept only if the disk allows
        records = read(data_dir)
        texts = {r["text"] for r in records}
        return records + [as_record(n) for n in dict.fromkeys(new) if str(n) not in texts]


class NoticeView(GuardedView):
    """The notices over the start screen, with one OK button; re-said on a language
    change."""

    def __init__(self, app: Any, records: list[dict[str, Any]], **kwargs: Any) -> None:
        super().__init__(size_hint=(0.94, 0.9), auto_dismiss=False, **kwargs)
        self.app = app
        self.records = records
        box = BoxLayout(orientation="vertical", padding=dp(12), spacing=dp(10))
        self.label = FitLabel(max_font_size=sp(18), halign="left", valign="top")
        self.ok = TapButton(code="notice_ok", size_hint_y=None, height=dp(64))
        self.ok.bind(on_release=lambda *_: self.close())
        box.add_widget(self.label)
        box.add_widget(self.ok)
        self.add_widget(box)
        app.bind(lang=self.retext, on_stop=self._hide)
        self.retext()

    def retext(self, *_: Any) -> None:
        lang = self.app.lang
        self.label.text = "\n\n".join(notice_text(r, lang) for r in self.records)
        self.ok.text = tr("notice_ok", lang)

    def close(self) -> None:
        """OK: the notices are read; they are not shown again."""
        dismiss(self.app.data_dir)
        self._hide()

    def _hide(self, *_: Any) -> None:
        """Off the screen (the app stops, or OK); notices.json decides the next start."""
        self.app.unbind(lang=self.retext, on_stop=self._hide)
        self.dismiss(animation=False)
