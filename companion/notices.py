"""Sentences the journal leaves for the scorekeeper (a repair, a set-aside, a lost -wal).

A Notice is the English sentence itself (a str, so logs and the CLI print it as is) plus
a `code` and its facts in `params`, so the start screen can say it in French too.
"""

from __future__ import annotations

from typing import Any


class Notice(str):
    """One sentence with its code and facts; compares and prints as its text."""

    code: str
    params: dict[str, Any]

    def __new__(cls, text: str, code: str, **params: Any) -> Notice:
        notice = super().__new__(cls, text)
        notice.code = code
        notice.params = params
        return notice
