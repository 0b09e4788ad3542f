"""Dates on the screen, in the language's own order: the one place they are formatted,
with the words and the order from the catalogue (`date_short`, `month_<n>`).

French writes day/month ("25/11 14:30"); English names the month, so "Nov 25 14:30"
cannot be read as the 11th of some 25th month by anyone. Both in local time, 24-hour.

>>> from datetime import datetime, timezone
>>> when = datetime(2026, 11, 5, 14, 30, tzinfo=timezone.utc)
>>> short_date(when, "fr", local=False), short_date(when, "en", local=False)
('05/11 14:30', 'Nov 5 14:30')
"""

from __future__ import annotations

from datetime import datetime

from ui.i18n import tr


def short_date(when: datetime, lang: str, *, local: bool = True) -> str:
    """Day, month and time of `when` as the language writes them (local time)."""
    at = when.astimezone() if local else when
    return tr("date_short", lang, day=str(at.day), month=tr(f"month_{at.month}", lang),
              time=f"{at.hour:02}:{at.minute:02}")
