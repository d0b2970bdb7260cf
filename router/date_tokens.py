"""The period-coverage invariant of a reading: no date token of the question may be dropped.

A date token the period reading did not consume is a period read in part: "P04 FY26" read as the fiscal year,
"from 2025-09 to the end" read as September. Every date-like token of the question must lie inside a span some
reading consumed (a period, a context clause set aside, an approval's or snapshot's day, an amount, a name), or it is
named back as not understood (router/reader.py turns it into an :class:`~router.reader.Unread` of kind "date"),
never answered without it. The unread-word invariant (router/unread_words.py) skips tokens with digits: this is
its rule for them.

Date tokens (the shapes, not a list of strings): ISO days ("2026-03-15"), ISO months written with a dash or
without one ("2025-10", "202510"), numeric months ("10/2025", "10.2025"), compact quarters and halves with their
year ("Q3/25", "3Q25", "2025Q3", "H2-25"), and fiscal period numbers ("P07", "P10-P12"). A month word alone is
one only when its month lies outside the period read: inside it, it restates the period ("two months ago
(january)"); outside it, the period read is narrower than the one asked. (A year outside it is often another
reader's, a cut-off's posting year or a comparison's base, and is left to those readers.)
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable

from router.period_grammar import DAY_MONTH_WORDS

_YEAR = r"(?:19|20)\d{2}"
_MONTH = r"(?:0[1-9]|1[0-2])"
#: One date token; never inside a code, a number or a word ("INV-2025-0503", "1.202.510,00", "PRD-2025").
DATE_TOKEN = re.compile(
    rf"(?<![\w./-])(?:"
    rf"{_YEAR}-{_MONTH}-(?:0[1-9]|[12]\d|3[01])"  # ISO day
    rf"|{_YEAR}-?{_MONTH}"  # ISO month, with or without its dash
    rf"|0?[1-9]/{_YEAR}|1[0-2]/{_YEAR}"  # numeric month
    rf"|q[1-4]\s?['’/-]\s?\d{{2}}|[1-4]q\s?(?:20)?\d{{2}}|{_YEAR}-?q[1-4]|h[12]\s?['’/-]\s?\d{{2}}|{_YEAR}-?h[12]"
    r"|p(?:0?[1-9]|1[0-2])(?:\s?[-–]\s?p?(?:0?[1-9]|1[0-2]))?"  # fiscal period number
    r")(?![\w/-]|[.,]\d)",
    re.I,
)


#: A key of a key=value or key: value notation before a token ("plant_id = 'P02'", "cost_center: P07"): the token
#: is that key's value, a date token only when the key names a time ("period=", "month:", "date_from:").
#: (a colon makes a key only after a field name, "cost_center:", never after a word: "Orion: February to June")
_KEY_BEFORE = re.compile(r"(?:(?P<key>[a-z_][\w.]*)\s*==?|(?P<field>[a-z][\w]*[_.][\w.]*)\s*:)\s*['\"]?$", re.I)
_TIME_KEY = re.compile(r"period|month|date|year|quarter|fy|from|to|start|end|since|until|day|time|when|as_?of", re.I)


def keyed_elsewhere(text: str, start: int) -> bool:
    """Whether the token at ``start`` is the value of a key that names no time ("plant_id = 'P02'")."""
    key = _KEY_BEFORE.search(text, 0, start)
    return key is not None and _TIME_KEY.search(key.group("key") or key.group("field")) is None


#: Month words that are everyday words too ("may", "march", "set", "out"): never a token alone.
_WORD_TOO = frozenset({"may", "march", "mar", "jan", "mai", "set", "out", "ago", "mei", "marco", "sept", "dec", "nov"})
#: (three-letter abbreviations of other languages are English words or codes too: "gen", "mag", "sty", "ott")
_MONTH_WORDS = {w: n for w, n in DAY_MONTH_WORDS.items()
                if w not in _WORD_TOO and (len(w) >= 4 or w in {"feb", "apr", "jun", "jul", "aug", "sep", "oct"})}
_MONTH_W = "|".join(sorted(map(re.escape, _MONTH_WORDS), key=len, reverse=True))
#: A year or a month word alone: a date token only when the time it names lies outside the period read (a year
#: or month restating or inside it, "last year (2025)", "two months ago (january)", is consumed by that period).
_TIME_WORD = re.compile(
    rf"(?<![\w./'’-])(?:(?P<year>{_YEAR})|(?P<month>{_MONTH_W})"
    r"\.?)(?![\w/'’-]|[.,]\d)(?!\s*(?:%|€|\$|£|eur\b|euros?\b|usd\b|chf\b|gbp\b|k\b|tsd\b|mio\b))", re.I)


def _outside(match: re.Match[str], period: tuple[dt.date, dt.date]) -> bool:
    """Whether the year or month word ``match`` names a time the ``period`` read does not touch."""
    start, end = period
    if match.group("year"):
        year = int(match.group("year"))
        return not (dt.date(year, 1, 1) < end and start < dt.date(year + 1, 1, 1))
    month = _MONTH_WORDS[match.group("month").casefold()]
    day, months = start.replace(day=1), set()
    while day < end and len(months) < 12:
        months.add(day.month)
        day = dt.date(day.year + day.month // 12, day.month % 12 + 1, 1)
    return month not in months


def unread_date_tokens(text: str, consumed: Iterable[tuple[int, int]],
                       period: tuple[dt.date, dt.date] | None = None) -> list[tuple[str, tuple[int, int]]]:
    """The date tokens of ``text`` that lie inside no ``consumed`` span, each with its span, in order; with the
    ``period`` read, also a year or month word alone whose time lies outside it ("Feb. to June 2026" read as June:
    "Feb" is named).

    >>> unread_date_tokens("spend P04 FY26", [(10, 14)])
    [('P04', (6, 9))]
    >>> unread_date_tokens("spend 2025-10 for INV-2025-0503", [(6, 13)])
    []
    """
    spans = tuple(consumed)
    left: list[tuple[str, tuple[int, int]]] = []
    for match in DATE_TOKEN.finditer(text):
        start, end = match.span()
        if not any(s <= start and end <= e for s, e in spans) and not keyed_elsewhere(text, start):
            left.append((match.group(0), (start, end)))
    if period is not None:
        for match in _TIME_WORD.finditer(text):
            start, end = match.span()
            # (a year outside the period is often another reader's: a cut-off's posting year, a comparison's
            # base; only a month word is named here)
            if match.group("month") and not any(s < end and start < e for s, e in spans) \
                    and not keyed_elsewhere(text, start) and _outside(match, period):
                left.append((match.group(0), (start, end)))
    return sorted(left, key=lambda t: t[1])
