"""Dates and periods as AP clerks and FP&A analysts write them, brought to the forms :mod:`router.periods` reads.

* Day-month-year with a dash, the month in letters and a two- or four-digit year ("since 01-Oct-25", "as at
  30-Apr-26", "1-Oct-2025"): written out as "1 Oct 2025" before the period patterns run. Left alone, the
  month pattern read "Oct-25" as the whole of October 2025 and dropped the day (a silent wrong figure).
* A month and its four-digit year joined by a dash ("Mar-2026"): written "Mar 2026" (no pattern read it).
* "so far in FY2026", "to date in 2026": the period named, up to the as-of date (:func:`so_far_before`).
* "YTD spend (FY2026)", "FY2026, YTD": the year to date and the year holding it are one period, the year's
  start to the as-of date, not two periods to ask about (:func:`year_to_date_of`).

The rewrites give back, for every character of the new text, where it came from in the question, so the period
reader's spans stay in the question's own positions.
"""

from __future__ import annotations

import datetime as dt
import re

from router.contract import TimeRange

_MONTH = (r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|"
          r"oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)")
#: "01-Oct-25", "30-Apr-2026", "1-oct.-25": day, month in letters, year, joined by dashes (a trailing digit, dash
#: or word would make it part of a code: "INV-01-Oct-25-7" is no date).
_DASHED_DAY = re.compile(rf"(?<![\w/.-])(?P<day>\d{{1,2}})-(?P<month>{_MONTH})\.?-(?P<year>\d{{4}}|\d{{2}})"
                         r"(?![\w/-]|[.,]\d)", re.I)
#: "Mar-2026": a month and its four-digit year joined by a dash.
_DASHED_MONTH = re.compile(rf"(?<![\w/.-])(?P<month>{_MONTH})\.?-(?P<year>(?:19|20)\d{{2}})(?![\w/-]|[.,]\d)", re.I)


def clerk_dates(question: str, as_of: dt.date) -> tuple[str, tuple[int, ...]]:
    """``question`` with its dashed days and months written the way the period patterns read them, and for each
    position of the new text (one past its end included) the position in ``question`` it comes from.

    A two-digit year far from the as-of date (more than ten years before it or after the next) is left as
    written: the period reader then reads what it can and asks about the rest, never a year nobody meant.

    >>> clerk_dates("spend since 01-Oct-25", dt.date(2026, 5, 15))[0]
    'spend since 1 Oct 2025'
    >>> clerk_dates("avg unit price PRD-482 Mar-2026", dt.date(2026, 5, 15))[0]
    'avg unit price PRD-482 Mar 2026'
    """
    edits: list[tuple[int, int, str]] = []
    for m in _DASHED_DAY.finditer(question):
        year = int(m["year"]) if len(m["year"]) == 4 else 2000 + int(m["year"])
        if not as_of.year - 10 <= year <= as_of.year + 1:
            continue
        edits.append((m.start(), m.end(), f"{int(m['day'])} {m['month'].rstrip('.')} {year}"))
    taken = [(s, e) for s, e, _ in edits]
    for m in _DASHED_MONTH.finditer(question):
        if not any(m.start() < e and s < m.end() for s, e in taken):
            edits.append((m.start(), m.end(), f"{m['month'].rstrip('.')} {m['year']}"))
    if not edits:
        return question, tuple(range(len(question) + 1))
    pieces: list[str] = []
    origin: list[int] = []
    at = 0
    for start, end, new in sorted(edits):
        pieces.append(question[at:start])
        origin.extend(range(at, start))
        pieces.append(new)
        # every new character stands for the written date; the position after it maps to the date's end
        origin.extend(min(start + i, end - 1) for i in range(len(new)))
        at = end
    pieces.append(question[at:])
    origin.extend(range(at, len(question) + 1))
    return "".join(pieces), tuple(origin)


#: "so far in", "to date for", "so far during the" ("in" may be the period's own: "so far in 2026" reads "in 2026"):
#: the period after these words runs to the as-of date.
_SO_FAR = re.compile(r"(?<!\byear\s)(?<!\bquarter\s)(?<!\bmonth\s)(?<![-\w])(?:so\s+far|to\s+date|thus\s+far)\s*,?"
                     r"(?:\s+(?:in|for|during|of|within))?\s+(?:the\s+)?$", re.I)


def so_far_before(question: str, start: int, period: TimeRange, as_of: dt.date) -> int | None:
    """Where "so far in" stands before the period at ``start`` ("spend so far in FY2026"), when that period holds
    the as-of date (a period already over has no "so far": it stays whole), or ``None``."""
    if not period.start <= as_of < period.end or period.end - period.start <= dt.timedelta(days=1):
        return None  # (a day is a point: "year to date as at 31 December 2025" is no "to date ... in" a period)
    found = _SO_FAR.search(question, 0, start)
    return found.start() if found is not None else None


_YEAR_LABEL = re.compile(r"(?:FY)?\d{4}")


def year_to_date_of(periods: list[TimeRange]) -> TimeRange | None:
    """One period for the year to date beside the (fiscal) year that holds it ("YTD spend (FY2026)", "FY2026 -
    YTD"): from the year's start to the as-of date, or ``None`` when the periods are anything else.

    The year to date ends the day after the as-of date, so the as-of date is read from it; a year that does not
    hold the as-of date ("YTD ... FY2025" as of 2026) is a clash the reader asks about."""
    distinct = list({(p.start, p.end): p for p in periods}.values())
    if len(distinct) != 2:
        return None
    to_date = next((p for p in distinct if p.label.endswith("-YTD")), None)
    year = next((p for p in distinct if p is not to_date and _YEAR_LABEL.fullmatch(p.label)), None)
    if to_date is None or year is None:
        return None
    as_of = to_date.end - dt.timedelta(days=1)
    if not year.start <= as_of < year.end:
        return None
    return TimeRange(start=year.start, end=to_date.end, label=f"{year.label} to {as_of}",
                     source_text=f"{to_date.source_text} {year.source_text}")


#: "month end", "end of", "quarter-end", "end-of-month": the words that make a period's last day the day meant
#: ("overdue at month end April 2026", "as at end of Q1 2026", "April 2026 month-end").
_END_WORDS = (r"(?:(?:month|quarter|qtr|year|period|half[- ]year)[- ]?end|end[- ]of(?:[- ]the)?"
              r"(?:[- ](?:month|quarter|year))?)")
_END_BEFORE = re.compile(rf"\b{_END_WORDS}\s*(?:of\s+)?,?\s*$", re.I)
_END_AFTER = re.compile(r"\s*,?\s*(?:month|quarter|qtr|year|period)[- ]?end\b", re.I)


def period_end_day(question: str, period: TimeRange, span: tuple[int, int] | None) -> dt.date | None:
    """The last day of ``period`` when the question names its end ("at month end April 2026"): a point in time
    for a reading judged as at one day (overdue), or ``None``."""
    if span is None:
        return None
    if _END_BEFORE.search(question, 0, span[0]) or _END_AFTER.match(question, span[1]):
        return period.end - dt.timedelta(days=1)
    return None


def described_day(question: str, as_of: dt.date) -> dt.date | None:
    """The one calendar day a question about named documents writes beside them ("INV-1 + INV-2 (both Gamma,
    02.02.2026)"): it describes the documents (their date), it is no period to filter by. ``None`` when no single
    day is written, or it is a point in time ("as at ...") or an open range ("since ...")."""
    from router.periods import resolve_period

    period = resolve_period(question, as_of)
    tr = period.time_range
    if tr is None or period.ambiguous or period.point_in_time or tr.end - tr.start != dt.timedelta(days=1):
        return None
    return tr.start


_MONTH_NUMBERS = {m: i for i, names in enumerate((("jan", "january"), ("feb", "february"), ("mar", "march"),
                                                  ("apr", "april"), ("may",), ("jun", "june"), ("jul", "july"),
                                                  ("aug", "august"), ("sep", "sept", "september"),
                                                  ("oct", "october"), ("nov", "november"), ("dec", "december")),
                                                 start=1) for m in names}
#: "as at 30 April", "as of Apr 30th", "at 31-Mar": a day without its year after an as-at word.
_AS_AT_NO_YEAR = re.compile(
    rf"\b(?:as\s+(?:at|of|per)|at|on)\s+(?:the\s+)?(?:(?P<d1>\d{{1,2}})(?:st|nd|rd|th)?[\s-]+(?:of\s+)?(?P<m1>{_MONTH})"
    rf"|(?P<m2>{_MONTH})\.?\s+(?P<d2>\d{{1,2}})(?:st|nd|rd|th)?)\b(?![.-]?\s*\d)(?!,?\s+\d{{4}})(?!\s*['’]\d)", re.I)


def as_at_day_without_year(question: str, as_of: dt.date) -> tuple[dt.date | None, str] | None:
    """The as-at day of "overdue as at 30 April" (no year written): the latest such day up to the as-of date, as
    "since 1 Jan" is read, with its words (the day ``None`` when no calendar has it: "as at 31 June", asked
    about); ``None`` when none or several are written. Left unread, the overdue listing was judged today instead
    (a silent different list)."""
    found = list(_AS_AT_NO_YEAR.finditer(question))
    if len(found) != 1:
        return None
    m = found[0]
    day, month = int(m["d1"] or m["d2"]), _MONTH_NUMBERS[(m["m1"] or m["m2"]).lower().rstrip(".")]
    try:
        written = dt.date(as_of.year, month, day)
        if written > as_of:
            written = dt.date(as_of.year - 1, month, day)
    except ValueError:
        return None, " ".join(m.group(0).split())
    return written, " ".join(m.group(0).split())
