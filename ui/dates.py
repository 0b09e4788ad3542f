"""Dates on the screen, in the language's own order: the one place they are formatted
(the gettext catalogue of issue 20 may take this over).

French writes day/month ("25/11 14:30"); English names the month, so "Nov 25 14:30"
cannot be read as the 11th of some 25th month by anyone. Both in local time, 24-hour.

>>> from datetime import datetime, timezone
>>> when = datetime(2026, 11, 25, 14, 30, tzinfo=timezone.utc)
>>> short_date(when, "fr", local=False), short_date(when, "en", local=False)
('25/11 14:30', 'Nov 25 14:30')
"""

from __future__ import annotations

from datetime import datetime

EN_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov",
             "Dec")


def short_date(when: datetime, lang: str, *, local: bool = True) -> str:
    """Day, month and time of `when` as the language writes them (local time)."""
    at = when.astimezone() if local else when
    clock = f"{at.hour:02}:{at.minute:02}"
    if lang == "fr":
        return f"{at.day:02}/{at.month:02} {clock}"
    return f"{EN_MONTHS[at.month - 1]} {at.day} {clock}"
