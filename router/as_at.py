"""A day named "as at" (as of, per) a question: a snapshot date, not a period of its own.

Auditors and treasurers date their questions: "open invoices as at 15 May 2026", "2026 year to date as at 15 May
2026", "Q1 2026 invoices settled, as at 15 May 2026". Read as a period, the day would be a one-day range beside
(or instead of) the period asked, which is either a silent wrong figure ("no open invoice dated 2026-05-15") or a
needless "which period?". The rules:

* With another period in the question, the as-at day is the day that period is read against: "year to date as at
  D" is the year to date ending D (inclusive; "as at 31 December 2025" is calendar 2025), "Q1 2026 ... as at D" is
  Q1 2026 (a period still running on D ends with D: nothing after the snapshot is known).
* Alone, beside the words of an invoice status ("open", "unpaid", "outstanding", "overdue", "payables", "paid",
  "settled"), the as-at day is the cut-off of the invoice dates: every invoice dated on or before D. The corpus
  records each invoice's status today and no payment date, so "open as at D" is posted today among the invoices
  dated up to D (the answer says which status is read).
* Alone without a status word (a plain figure "as at D"), it stays a point in time, and the router asks whether
  the year to date or the day is meant.

"up to D" with no start on a question that lists documents ("which invoices were duplicated up to 15 May 2026")
is every document dated up to D (inclusive), as a listing with no period lists every date on file.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from router.contract import TimeRange
from router.periods import HISTORY_START, MONTH_NAMES, PeriodResolution, parse_day, resolve_period
from router.rules import mask

if TYPE_CHECKING:
    from router.reader import Unread

_MONTH = f"(?:{MONTH_NAMES})"
#: A calendar day with its year: ISO, day-month-year in words, month-day-year, dd.mm.yyyy, or dd/mm/yyyy (read
#: only when the day cannot be a month, see :func:`_day`).
_DAY = (rf"(?P<day>\d{{4}}-\d{{2}}-\d{{2}}|\d{{1,2}}(?:st|nd|rd|th)?\.?\s+(?:of\s+)?{_MONTH}\.?,?\s+\d{{4}}"
        rf"|{_MONTH}\.?\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s+\d{{4}}|\d{{1,2}}\.\d{{1,2}}\.\d{{4}}|\d{{1,2}}/\d{{1,2}}/\d{{4}}"
        # "30-Apr-26", "31-Mar-2026": the clerks' dashed day (router/clerk_dates.py)
        rf"|\d{{1,2}}-{_MONTH}\.?-(?:\d{{4}}|\d{{2}}))")
_AS_AT = re.compile(rf"\(?\b(?:as\s+(?:at|of|per)|(?:per\s+)?stichtag|zum\s+stichtag|stand(?:\s+per)?)\s+(?:the\s+)?"
                    rf"{_DAY}(?![\w-]|\.\d)\)?", re.I)
_UP_TO = re.compile(rf"\b(?:up\s+to(?:\s+and\s+including)?|until|till|through|thru|no\s+later\s+than)\s+(?:the\s+)?"
                    rf"{_DAY}(?![\w-]|\.\d)", re.I)
#: Words of an invoice status asked at the snapshot date ("open", "unpaid", "overdue", "payables", "settled").
_STATUS_WORDS = re.compile(
    r"\b(?:open|unpaid|outstanding|not\s+(?:yet\s+)?paid|yet\s+to\s+be\s+paid|overdue|past\s+due|payables?|"
    r"owed|owing|owe|(?:already\s+)?(?:paid|settled)|offen\w*|unbezahlt\w*|überfällig\w*|ueberfaellig\w*)\b", re.I)
#: Words of a question that lists documents ("which invoices", "list", "duplicates").
_LISTING = re.compile(r"\b(?:which|list|show|name|duplicat\w*|submitted\s+twice|welche)\b", re.I)


@dataclass(frozen=True)
class AsAt:
    """The snapshot day a question names, with its words and where they stand."""

    day: dt.date
    words: str
    span: tuple[int, int]


def _day(text: str) -> dt.date | None:
    """The day of one :data:`_DAY` match; a slashed day only when its first number cannot be a month (15/05/2026
    is the 15th of May to every reader, 05/04/2026 is not)."""
    slashed = re.fullmatch(r"(\d{1,2})/(\d{1,2})/(\d{4})", text)
    dashed = re.fullmatch(r"(\d{1,2})-([a-z]+)\.?-(\d{2}|\d{4})", text, re.I)
    if dashed is not None:
        year = dashed[3] if len(dashed[3]) == 4 else f"20{dashed[3]}"
        text = f"{dashed[1]} {dashed[2]} {year}"
    try:
        if slashed is not None:
            first, second, year = (int(g) for g in slashed.groups())
            if first <= 12 and first != second:
                return None
            return dt.date(year, second, first)
        # "15. May 2026": the German ordinal dot is no part of the day
        return parse_day(re.sub(r"(?<=\d)\.(?=\s)", "", " ".join(text.split())))
    except ValueError:
        return None


def find_as_at(text: str) -> AsAt | None:
    """The one as-at day of a question (``None`` when it names none, or two different ones).

    >>> find_as_at("open invoices as at 15.05.2026").day
    datetime.date(2026, 5, 15)
    """
    found = [(day, m) for m in _AS_AT.finditer(text) if (day := _day(m.group("day"))) is not None]
    if len({day for day, _ in found}) != 1:
        return None
    day, match = found[0]
    return AsAt(day, " ".join(match.group(0).strip("()").split()), match.span())


def status_snapshot(text: str) -> bool:
    """Whether the question asks about an invoice status (open, unpaid, overdue, paid) at its as-at day."""
    return _STATUS_WORDS.search(text) is not None


def _up_to_date(day: dt.date, words: str, *, snapshot: bool = False) -> TimeRange:
    # a status at a past day is the status recorded now: the files carry no payment dates, and the label says so
    note = " (statuses as recorded now; no payment dates are on file)" if snapshot else ""
    return TimeRange(start=HISTORY_START, end=day + dt.timedelta(days=1), label=f"all dates up to {day}{note}",
                     source_text=words)


def snapshot_period(text: str, period: PeriodResolution, as_of: dt.date) -> PeriodResolution:
    """The period of a question read with its as-at day as the snapshot date (module doc); ``period`` (the plain
    reading of ``text``) when the question names no as-at day or the rules above do not apply.

    >>> p = snapshot_period("spend year to date as at 31 December 2025", resolve_period(
    ...     "spend year to date as at 31 December 2025", dt.date(2026, 5, 15)), dt.date(2026, 5, 15))
    >>> (p.time_range.start.isoformat(), p.time_range.end.isoformat(), p.point_in_time)
    ('2025-01-01', '2026-01-01', None)
    """
    at = find_as_at(text)
    if at is None:
        return _listed_up_to(text, period)
    rest = resolve_period(mask(text, (at.span,)), at.day)
    if rest.ambiguous:
        return period
    if rest.time_range is None:
        if not status_snapshot(mask(text, (at.span,))):
            return period
        return PeriodResolution(_up_to_date(at.day, at.words, snapshot=True), False, None, (at.words,), (at.span,))
    bounded = rest.time_range
    cut = at.day + dt.timedelta(days=1)
    if bounded.start >= cut:
        return period  # a period after the snapshot day: nothing of it is known as at that day (asked)
    if bounded.end > cut:
        bounded = TimeRange(start=bounded.start, end=cut, label=f"[{bounded.start}, {cut})",
                            source_text=bounded.source_text)
    return replace(rest, time_range=bounded, mentions=(*rest.mentions, at.words),
                   spans=tuple(sorted({*rest.spans, at.span})), point_in_time=None)


def _listed_up_to(text: str, period: PeriodResolution) -> PeriodResolution:
    """"Which invoices were duplicated up to 15 May 2026": an end day with no start, on a listing (or a status
    snapshot), is every document dated up to it; any other question keeps the plain reading (asked about)."""
    open_end = period.ambiguous and bool(period.reason) and str(period.reason).endswith(
        "says where the period ends, not where it starts")
    if not open_end and (period.ambiguous or period.time_range is not None):
        return period  # (no period read at all: "up to 15/05/2026", a slashed day the period reader leaves)
    ends = [(day, m) for m in _UP_TO.finditer(text) if (day := _day(m.group("day"))) is not None]
    if len(ends) != 1 or not (_LISTING.search(text) or status_snapshot(text)):
        return period
    day, match = ends[0]
    words = " ".join(match.group(0).split())
    return PeriodResolution(_up_to_date(day, words), False, None, (words,), (match.span(),))


_OVERDUE = re.compile(r"overdue|past[- ]due", re.I)


def overdue_as_at(text: str, unread: Sequence[Unread]) -> tuple[Unread, ...]:
    """The "overdue" status spans of a question that asks about invoices at an as-at day ("which invoices are
    overdue as at 15 May 2026, given its payment terms"), else ``()``: such a question asks for invoices, so the
    status no figure records is asked about rather than answered with payment-term passages."""
    if find_as_at(text) is None:
        return ()
    return tuple(u for u in unread if u.kind == "status" and _OVERDUE.fullmatch(u.text))
