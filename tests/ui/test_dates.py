"""Dates in the language's order (ui/dates.py): French day/month, English the month's name."""

from __future__ import annotations

from datetime import UTC, datetime

from ui.dates import short_date


def test_each_language_writes_the_date_its_own_way() -> None:
    when = datetime(2026, 3, 4, 9, 5, tzinfo=UTC)
    assert short_date(when, "fr", local=False) == "04/03 09:05"
    assert short_date(when, "en", local=False) == "Mar 4 09:05"
    assert short_date(when, "de", local=False) == "Mar 4 09:05"  # unknown: English


def test_local_time_is_shown() -> None:
    when = datetime(2026, 3, 4, 23, 59, tzinfo=UTC)
    local = when.astimezone()
    assert short_date(when, "fr").endswith(f"{local.hour:02}:{local.minute:02}")
