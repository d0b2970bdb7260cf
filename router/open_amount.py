"""Status measures in the words people use: "what's still open (posted, not paid) from Beta", "paid-only spend".

"What's still open" asks for the open amount now: the spend of the posted (not yet paid) invoices. It names no
measure word the reader knows, so :func:`open_question` rewrites it into the reader's words ("open spend");
an open amount asked with no period is the state on the as-of date, over every invoice dated up to it (the
answer's interpretation states the range). "Paid-only" / "posted-only" is the status filter written as one word.
Both are retries of a question the first reading could not answer (router/routing.py), never a change of a
question that was understood.
"""

from __future__ import annotations

import datetime as dt
import re

#: "paid-only spend", "posted-only": the status, written as one hyphenated word.
_ONLY = re.compile(r"\b(paid|posted|open|unpaid|settled)[- ]only\b", re.I)
#: "what's still open", "how much is outstanding", "what do we still owe": the open amount, now.
_OPEN_NOW = re.compile(
    r"\bwhat(?:'s|’s|\s+is|\s+was|\s+are)\s+(?:still\s+|currently\s+|now\s+)?(?:open|outstanding|unpaid)\b|"
    r"\bhow\s+much\s+(?:is|was)\s+(?:still\s+|currently\s+)?(?:open|outstanding|unpaid)\b|"
    r"\bwhat\s+do\s+we\s+still\s+owe\b", re.I)
#: The first day of the whole history (as the status listings: router/statuses.py).
HISTORY_START = dt.date(1990, 1, 1)


def status_only(text: str) -> str:
    """``text`` with "paid-only" written as "only paid" (the reader's status words).

    >>> status_only("kestrel: paid-only spend last quarter")
    'kestrel: only paid spend last quarter'
    """
    return _ONLY.sub(lambda m: f"only {m.group(1)}", text)


def open_question(text: str) -> str | None:
    """The open-amount question in the reader's words, or ``None`` when ``text`` asks no open amount.

    >>> open_question("what's still open (posted, not paid) from northwind for alpenland, EUR")
    'open spend (posted, not paid) from northwind for alpenland, EUR'
    """
    found = _OPEN_NOW.search(text)
    if found is None:
        return None
    return (text[:found.start()] + "open spend" + text[found.end():]).strip()


def up_to(text: str, as_of: dt.date) -> str:
    """``text`` with the whole history up to the as-of date as its period (an open amount is a state now)."""
    return f"{text.rstrip(' ?.!')} from {HISTORY_START.isoformat()} through {as_of.isoformat()}"


__all__ = ["open_question", "status_only", "up_to"]
