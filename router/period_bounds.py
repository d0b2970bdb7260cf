"""Both bounds of one period written as a query, an API call or a data file writes them, read as one range.

Integration writers give a period as two bounds in the notation of their tool, not as a sentence: key=value and
JSON pairs ("from=2025-11-01 to=2026-01-31", "date_from: 2025-07-01, date_to: 2025-09-30", ``"start": "2025-10-01",
"end": "2025-12-31"``, "period=from=... to=..."), comparisons on one date column ("invoice_date >= 2025-09-01 AND
< 2025-11-01", "2025-09-01 <= invoice_date < 2025-11-01") and the ISO 8601 interval ("2026-01-01/2026-03-31",
"2025-07/2026-03"). Read one token at a time, the two bounds were two periods (asked about: "which period do you
mean?") or the first alone (a silent wrong). The rule is structural: a *start bound* (a start key or a lower
comparison) and an *end bound* (an end key or an upper comparison) with only the notation's separators between
them are one range, from the start's first day to the end's. The bounds are written back as the phrase the period
reader (router/periods.py) reads: "from 2025-11-01 through 2026-01-31" (an end included) or "from 2025-09-01 to
before 2025-11-01" (an end left out).

Which bound includes its day is the notation's: an end key ("to", "end", "until", "date_to") and "<=" include
their day (the writer names the last day: "to=2026-01-31"); "<", "lt", "before" leave it out; ">" and "gt",
"after" start the day after. A month as a bound ("to=2026-03") is the whole month. Two bounds on different
columns ("invoice_date in 2025-11 but posting_date >= 2025-12-01") are no range and are left alone; so is a
single bound (router/keyword_query.py reads "invoice_date >= ..." alone as an open start).
"""

from __future__ import annotations

import calendar
import datetime as dt
import re
from collections.abc import Callable
from dataclasses import dataclass

from router.period_grammar import _INCLUDED_AFTER

_I = re.I | re.UNICODE

#: The key words of a bound, as tools name them. A key may carry a column before it ("invoice_date_from",
#: "period.start") and "date"/"day" after it ("start_date", "from_date"). Each maps to the bound's side and whether
#: the day written is inside the range.
_START_KEYS: dict[str, bool] = {"from": True, "start": True, "begin": True, "since": True, "gte": True, "ge": True,
                                "min": True, "after": False, "gt": False}
_END_KEYS: dict[str, bool] = {"to": True, "end": True, "until": True, "till": True, "through": True, "thru": True,
                              "lte": True, "le": True, "max": True, "before": False, "lt": False}
_KEY_WORDS = "|".join(sorted({*_START_KEYS, *_END_KEYS}, key=len, reverse=True))

#: A value: an ISO day, an ISO month or a dotted day ("01.11.2025"), maybe quoted.
_VALUE = (r"[\"'‘’“”]?(?P<{n}>\d{{4}}-\d{{2}}-\d{{2}}|\d{{4}}-\d{{2}}|\d{{1,2}}\.\d{{1,2}}\.\d{{4}})"
          r"(?![\d-]|\.\d)[\"'‘’“”]?")
#: A key with its column around it and its separator: "from=", "date_to:", ``"end": ``, "period.start =".
#: Only the invoice date's own columns (or none) may stand before the key: "due_date_from", "posting_date_to" bound
#: another column, left as typed so the reader names the field it does not have (never the invoice-date period).
_INVOICE_COLUMNS = r"(?:invoice[_.-]?(?:date|dt|month)|inv[_.-]?date|date|period|month)"
_KEY = (r"[\"']?(?:" + _INVOICE_COLUMNS + r"[_.-])?(?P<{n}>" + _KEY_WORDS
        + r")(?:[_.-]?(?:date|day|dt))?[\"']?\s*(?:==|=>|=|:)\s*")
#: What may stand between two bounds: the notation's separators, "and", a closing quote ("&", "|", ",", ";").
_GLUE = r"(?:\s*(?:[,;&|]|\band\b|&&)\s*|\s+)"
_KEY_PAIR = re.compile(rf"(?<![\w-]){_KEY.format(n='ka')}{_VALUE.format(n='a')}{_GLUE}"
                       rf"{_KEY.format(n='kb')}{_VALUE.format(n='b')}", _I)

#: A comparison on a date column: the column (any name; the same both times when written twice), an operator.
_COL = r"[a-z][\w.]*"
_LOWER = r"(?P<op1>>=|=>|≥|>)"
_UPPER = r"(?P<op2><=|=<|≤|<)"
_COMPARED = re.compile(
    rf"(?:(?P<col>{_COL})\s*)?{_LOWER}\s*{_VALUE.format(n='a')}\s*(?:\band\b|&&|,)\s*(?:(?P<col2>{_COL})\s*)?"
    rf"{_UPPER}\s*{_VALUE.format(n='b')}", _I)
#: "2025-09-01 <= invoice_date < 2025-11-01": the column between its bounds.
_CHAINED = re.compile(
    rf"{_VALUE.format(n='a')}\s*(?P<op1><=|=<|≤|<)\s*(?P<col>{_COL})\s*{_UPPER}\s*{_VALUE.format(n='b')}", _I)
#: "2026-01-01/2026-03-31", "2025-07/2026-03": the ISO 8601 interval (the same notation both sides).
_INTERVAL = re.compile(r"(?<![\w/.-])(?P<a>\d{4}-\d{2}-\d{2}|\d{4}-\d{2})\s*/\s*(?P<b>\d{4}-\d{2}-\d{2}|\d{4}-\d{2})"
                       r"(?![\w/-]|\.\d)")


@dataclass(frozen=True)
class Bound:
    """A bound read: its first day and the day after it (a month bound spans the month)."""

    first: dt.date
    after: dt.date


def _bound(text: str) -> Bound | None:
    try:
        if re.fullmatch(r"\d{4}-\d{2}", text):
            first = dt.date(int(text[:4]), int(text[5:]), 1)
            days = calendar.monthrange(first.year, first.month)[1]
            return Bound(first, first + dt.timedelta(days=days))
        if "." in text:
            d, m, y = (int(p) for p in text.split("."))
            first = dt.date(y, m, d)
        else:
            first = dt.date.fromisoformat(text)
    except ValueError:
        return None
    return Bound(first, first + dt.timedelta(days=1))


def range_phrase(start: Bound, start_included: bool, end: Bound, end_included: bool) -> str | None:
    """The period reader's phrase of the range from ``start`` to ``end``, or ``None`` when it would be empty."""
    first = start.first if start_included else start.after
    stop = end.after if end_included else end.first
    if stop <= first:
        return None  # an end before the start: no range anyone writes; left as typed (the reader asks)
    return f"from {first.isoformat()} through {(stop - dt.timedelta(days=1)).isoformat()}"


#: A word after the end bound that says whether its day is inside ("period_end=2026-03-01 (exclusive)").
#: ("incl", "einschl." after the end: the period grammar's table, router/period_grammar.py.)
#: ("excl. VAT", "exkl. Gamma" exclude something else: an abbreviation only with no word after it.)
_EXCLUDED_AFTER = re.compile(r"\s*,?\s*\(?\s*(?:exclusive|excluded|exclusief|"
                             r"(?:excl|exkl|ausschl)\.?(?![.\w])(?!\s*[^\W\d_]))(?![\w])\s*\)?", _I)


def _key_pair(m: re.Match[str]) -> str | tuple[str, int]:
    ka, kb = m.group("ka").casefold(), m.group("kb").casefold()
    a, b = _bound(m.group("a")), _bound(m.group("b"))
    if ka not in _START_KEYS or kb not in _END_KEYS or a is None or b is None:
        return m.group(0)
    return _with_end_word(m, lambda included: range_phrase(a, _START_KEYS[ka], b, included), _END_KEYS[kb])


def _with_end_word(m: re.Match[str], phrase: Callable[[bool], str | None], included: bool) -> str | tuple[str, int]:
    """The phrase of a range whose end's inclusion a word after it may state: the phrase and how much of the text
    after the match it read (the word), or the match unchanged."""
    if (word := _EXCLUDED_AFTER.match(m.string, m.end())) is not None:
        read = phrase(False)
    elif (word := _INCLUDED_AFTER.match(m.string, m.end())) is not None:
        read = phrase(True)
    else:
        read = phrase(included)
    if read is None:
        return m.group(0)
    return (read, word.end() - m.end()) if word is not None else read


#: A joint read where a column may stand ("where >= 2025-10-01 AND < ..."): no column, kept before the range.
_JOINT = re.compile(r"where|and|or|with|if|when", _I)


def _compared(m: re.Match[str]) -> str:
    col, col2 = m.group("col"), m.group("col2")
    joint = ""
    if col and _JOINT.fullmatch(col):
        joint, col = f"{col} ", None
    if col and col2 and col.casefold() != col2.casefold():
        return m.group(0)  # bounds on two columns: two conditions, no range
    a, b = _bound(m.group("a")), _bound(m.group("b"))
    if a is None or b is None:
        return m.group(0)
    if (col and not _is_date_column(col)) or (col2 and not _is_date_column(col2)):
        return m.group(0)  # another column's bounds ("due_date >= ..."): as typed, named back by the reader
    phrase = range_phrase(a, m.group("op1") != ">", b, m.group("op2") != "<")
    return m.group(0) if phrase is None else joint + phrase


def _chained(m: re.Match[str]) -> str:
    a, b = _bound(m.group("a")), _bound(m.group("b"))
    if a is None or b is None or not _is_date_column(m.group("col")):
        return m.group(0)
    return range_phrase(a, m.group("op1") in ("<=", "=<", "≤"), b, m.group("op2") != "<") or m.group(0)


def _interval(m: re.Match[str]) -> str | tuple[str, int]:
    a, b = _bound(m.group("a")), _bound(m.group("b"))
    if a is None or b is None or len(m.group("a")) != len(m.group("b")):
        return m.group(0)
    return _with_end_word(m, lambda included: range_phrase(a, True, b, included), True)


#: The invoice date's column (its bounds are the period); any other column compared with days ("due_date",
#: "posting_date") is kept as typed, named back by the reader as a field it does not have.
_DATE_COLUMN = re.compile(rf"(?:[a-z]+\.)?{_INVOICE_COLUMNS}|invoice[_.-]?month|day", _I)


def _is_date_column(col: str) -> bool:
    return bool(_DATE_COLUMN.fullmatch(col))


def is_bound_key(key: str) -> bool:
    """Whether ``key`` names a bound of the invoice-date period ("from", "date_to", "period.start", "end_date"):
    the one table of bound keys (router/structured_asks.py leaves such a pair as typed, read here)."""
    return re.fullmatch(_KEY.format(n="k").replace(r"\s*(?:==|=>|=|:)\s*", ""), key.strip(), _I) is not None


def _sub(pattern: re.Pattern[str], read: Callable[[re.Match[str]], str | tuple[str, int]], text: str) -> str:
    """``pattern.sub`` whose reader may also consume words after its match (an "(exclusive)" after the end)."""
    out: list[str] = []
    at = 0
    for m in pattern.finditer(text):
        if m.start() < at:
            continue
        got = read(m)
        phrase, extra = got if isinstance(got, tuple) else (got, 0)
        out.append(text[at:m.start()] + phrase)
        at = m.end() + extra
    return "".join(out) + text[at:]


def read_period_bounds(text: str) -> str:
    """``text`` with each pair of period bounds written as one range the period reader reads.

    >>> read_period_bounds("spend | comp=Kestrel | from=2025-11-01 to=2026-01-31")
    'spend | comp=Kestrel | from 2025-11-01 through 2026-01-31'
    >>> read_period_bounds("count invoice_date >= 2025-09-01 AND < 2025-11-01")
    'count from 2025-09-01 through 2025-10-31'
    >>> read_period_bounds("spend comp-b 2026-01-01/2026-03-31")
    'spend comp-b from 2026-01-01 through 2026-03-31'
    """
    text = _sub(_KEY_PAIR, _key_pair, text)
    text = _CHAINED.sub(_chained, text)
    text = _COMPARED.sub(_compared, text)
    return _sub(_INTERVAL, _interval, text)
