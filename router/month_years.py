"""Months and days written without their year: "helix ypsilon jan?", "xenon may so far", "kestrel spend may
20-27", "co a spend 1/11-15/12/25".

Short asks leave the year out when it is obvious to the writer: the month meant is the latest such month not after
the as-of date (in May 2026 "jan" is January 2026, "sept" September 2025), and a day or a range of days in that
month is read the same way (the latest such first day not after the as-of date). "So far", "to date" or "mtd"
after the as-of date's own month make it that month up to the as-of date. A range of slashed days whose year is
written on the last day only ("1/11-15/12/25") takes that year (the first day the year before when it falls
later in the calendar), day first or month first as a part above 12 settles it (never guessed otherwise), the
last day included as in every day range.

Only what the period reader left unread is written out (:func:`with_years` gets the spans it read), so a month
read with a year written elsewhere ("jan-mar 2026", "March vs February 2026") keeps that reading. "may" is the month
only where the modal verb cannot stand: at the end of the ask, before punctuation, a day or a to-date word
("company a may?", "may so far"), never "we may spend".
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence

from router.periods import MONTH_NAMES, MONTH_NUMBERS

_DAY = r"\d{1,2}(?:st|nd|rd|th)?\.?"
_DAY_GLUE = r"\s*(?:-|–|to|till|until|through|thru|bis)\s*"
#: A month in words with its days before or after it ("20-27 may", "may 20-27", "the 3rd of jan") or alone, and no
#: year after it (a year written there is read by the period reader itself).
_MONTH_DAYS = re.compile(
    rf"(?<![\w/.'’-])(?:(?P<d1>{_DAY})(?:{_DAY_GLUE}(?P<d2>{_DAY}))?\s+(?:of\s+)?)?(?P<month>{MONTH_NAMES})\b\.?"
    rf"(?:\s+(?P<d3>{_DAY})(?:{_DAY_GLUE}(?P<d4>{_DAY}))?(?![\w.:/]))?"
    r"(?!\s*,?\s*(?:\d{4}|['’]\s?\d{2}|-\d)|['’]s\b)", re.I)
#: Where "may" cannot be the modal verb: the end of the ask, punctuation, or a to-date or courtesy word after it.
_MONTH_AFTER_MAY = re.compile(r"\s*(?:$|[?!.,;:)\]]|(?:so\s+far|to\s+date|mtd|pls|please|thx|thanks|ty)\b)", re.I)
#: After a number, what makes it a count of things rather than a day ("top 3 suppliers", "25 invoices").
_COUNTED_AFTER = re.compile(r"\s+(?:largest|biggest|highest|lowest|smallest|top|most|least|suppliers?|vendors?|"
                            r"invoices?|products?|items?|units?|pieces?|pcs|lines?|documents?|orders?|companies)\b",
                            re.I)
#: "may so far", "may mtd", "may to date": the month up to the as-of date (when it is the as-of date's month).
_TO_DATE_AFTER = re.compile(r"\s*,?\s*(?P<word>so\s+far|to\s+date|thus\s+far|mtd)\b", re.I)
#: "1/11-15/12/25", "1.11.-15.12.2025": two days, the year on the last one only.
_SLASHED_RANGE = re.compile(
    r"(?<![\w/.-])(?P<a1>\d{1,2})[/.](?P<a2>\d{1,2})\.?\s*(?:-|–|to|bis)\s*(?P<b1>\d{1,2})[/.](?P<b2>\d{1,2})[/.]"
    r"(?P<year>(?:19|20)\d{2}|\d{2})(?![\w/-]|[.,]\d)", re.I)

Edit = tuple[int, int, str]


def _number(day: str | None) -> int | None:
    return int(re.match(r"\d+", day).group(0)) if day else None  # type: ignore[union-attr]


def _latest_year(month: int, day: int, as_of: dt.date) -> int | None:
    """The latest year in which ``day``/``month`` is not after ``as_of`` (``None``: no calendar has the day)."""
    for year in (as_of.year, as_of.year - 1, as_of.year - 2, as_of.year - 3, as_of.year - 4):
        try:
            if dt.date(year, month, day) <= as_of:
                return year
        except ValueError:
            continue  # 29 February: an earlier leap year
    return None


def _month_edits(text: str, as_of: dt.date, unread: Sequence[tuple[int, int]]) -> list[Edit]:
    edits: list[Edit] = []
    for m in _MONTH_DAYS.finditer(text):
        if not any(s <= m.start("month") and m.end("month") <= e for s, e in unread):
            continue
        word = m["month"].lower()
        days = [_number(m[g]) for g in ("d1", "d2", "d3", "d4") if m[g]]
        if word == "may" and not _MONTH_AFTER_MAY.match(text, m.end()):
            continue  # "we may spend", "what may 25 suppliers cost": the verb
        if m["d3"] and _COUNTED_AFTER.match(text, m.end()):
            continue  # "dec 3 suppliers": a count, not a day
        month = MONTH_NUMBERS[word]
        year = _latest_year(month, days[0] if days else 1, as_of)
        if year is None or any(d is None or not 1 <= d <= 31 for d in days):
            continue
        to_date = _TO_DATE_AFTER.match(text, m.end())
        if to_date is not None and not days and (year, month) == (as_of.year, as_of.month):
            # "may so far", "may mtd" in May: the month up to the as-of date
            edits.append((m.start(), to_date.end(), f"{m.group(0).rstrip()} {year} to date"))
            continue
        edits.append((m.start(), m.end(), f"{m.group(0).rstrip()} {year}"))
    return edits


def _slashed_edits(text: str, as_of: dt.date, unread: Sequence[tuple[int, int]]) -> list[Edit]:
    edits: list[Edit] = []
    for m in _SLASHED_RANGE.finditer(text):
        if not any(s <= m.start() and m.end() <= e for s, e in unread):
            continue
        a1, a2, b1, b2 = (int(m[g]) for g in ("a1", "a2", "b1", "b2"))
        day_first, month_first = a1 > 12 or b1 > 12, a2 > 12 or b2 > 12
        if day_first == month_first:
            continue  # both orders possible (or none): the period is asked about, never guessed
        (d1, m1), (d2, m2) = ((a1, a2), (b1, b2)) if day_first else ((a2, a1), (b2, b1))
        year = int(m["year"]) if len(m["year"]) == 4 else 2000 + int(m["year"])
        if not as_of.year - 10 <= year <= as_of.year + 1:
            continue
        first_year = year if (m1, d1) <= (m2, d2) else year - 1
        try:
            first, last = dt.date(first_year, m1, d1), dt.date(year, m2, d2)
        except ValueError:
            continue
        edits.append((m.start(), m.end(), f"{first:%-d %b %Y} through {last:%-d %b %Y}"))
    return edits


def with_years(text: str, as_of: dt.date, read: Sequence[tuple[int, int]]) -> tuple[str, tuple[int, ...]] | None:
    """``text`` with a year written after each month (or day range) the period reader left unread, and for each
    position of the new text (one past its end included) the position in ``text`` it comes from; ``None`` when
    there is nothing to write out. ``read``: the spans the period reader read.

    >>> with_years("helix ypsilon jan?", dt.date(2026, 2, 10), ())[0]
    'helix ypsilon jan 2026?'
    >>> with_years("xenon may so far", dt.date(2026, 5, 15), ())[0]
    'xenon may 2026 to date'
    >>> with_years("orbis sept?", dt.date(2026, 2, 10), ())[0]
    'orbis sept 2025?'
    >>> with_years("kestrel spend may 20-27", dt.date(2026, 5, 28), ())[0]
    'kestrel spend may 20-27 2026'
    >>> with_years("co a spend 1/11-15/12/25 incl", dt.date(2026, 3, 26), ())[0]
    'co a spend 1 Nov 2025 through 15 Dec 2025 incl'
    >>> with_years("how much may we spend", dt.date(2026, 3, 26), ()) is None
    True
    """
    unread = _unread(text, read)
    edits = sorted(_slashed_edits(text, as_of, unread))
    taken = [(s, e) for s, e, _ in edits]
    edits = sorted([*edits, *(x for x in _month_edits(text, as_of, unread)
                              if not any(x[0] < e and s < x[1] for s, e in taken))])
    if not edits:
        return None
    pieces: list[str] = []
    origin: list[int] = []
    at = 0
    for start, end, new in edits:
        pieces.append(text[at:start])
        origin.extend(range(at, start))
        pieces.append(new)
        written = end - start
        # the words kept map to themselves, the year and words added to the last character written
        origin.extend(start + i if i < written and text[start + i] == new[i] else end - 1 for i in range(len(new)))
        at = end
    pieces.append(text[at:])
    origin.extend(range(at, len(text) + 1))
    return "".join(pieces), tuple(origin)


def _unread(text: str, read: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """The stretches of ``text`` outside every span the period reader read."""
    stretches: list[tuple[int, int]] = []
    at = 0
    for start, end in sorted(read):
        if start > at:
            stretches.append((at, start))
        at = max(at, end)
    stretches.append((at, len(text)))
    return stretches


__all__ = ["with_years"]
