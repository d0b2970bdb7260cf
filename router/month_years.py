"""Months and days written without their year: "helix ypsilon jan?", "xenon may so far", "kestrel spend may
20-27".

Short asks leave the year out when it is obvious to the writer: the month meant is the latest such month not after
the as-of date (in May 2026 "jan" is January 2026, "sept" September 2025), and a day or a range of days in that
month is read the same way (the latest such first day not after the as-of date). "So far", "to date" or "mtd"
after the as-of date's own month make it that month up to the as-of date. Ranges of numeric days ("1/11-15/12/25")
are router/period_grammar.py's, the one reader of day ranges.

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
#: After a month, words that make it a qualifier of something else, not the period ("at March prices", "May
#: rates", "June levels", "on April terms", "on a March basis").
_QUALIFIED_AFTER = re.compile(r"\s+(?:prices?|pricing|rates?|levels?|terms|basis|values?|costs?\s+basis)\b", re.I)
#: Before a month, the words that put it in a period slot ("in march", "for jan", "during oct", "since may").
_SLOT_BEFORE = re.compile(r"(?:^|\b(?:in|for|during|since|from|of|over|until|till|through|thru|by|before|after)\s+"
                          r"(?:the\s+(?:month\s+of\s+)?)?)$", re.I)
#: Month words with another reading besides the month ("may" the verb, "march" the verb): a bare number after
#: them is no day.
_OTHER_READING = {"may", "march"}

Edit = tuple[int, int, str]


def _in_period_slot(text: str, m: re.Match[str], word: str) -> bool:
    """Whether the month of ``m`` (a :data:`_MONTH_DAYS` match) stands where a period stands: after "in", "for",
    "during", "since" (or at the start of the ask), at the end of a fragment, or with a day beside it that is
    clearly a day (a day before it, a range of days, an ordinal day; a bare number after it only when it is at
    most 31, ends the fragment, and the month word has no other reading). Never before "price(s)", "rates",
    "level", "terms", "basis" ("at March prices")."""
    if _QUALIFIED_AFTER.match(text, m.end("month")):
        return False
    if m["d3"] and not m["d4"] and not re.search(r"[a-z]", m["d3"], re.I):
        # "dec 3", "may 2": a bare number after the month: a day only where nothing else can be meant
        return (word not in _OTHER_READING and int(re.match(r"\d+", m["d3"]).group(0)) <= 31  # type: ignore[union-attr]
                and bool(_MONTH_AFTER_MAY.match(text, m.end())))
    if m["d1"] or m["d3"]:
        return True  # "3-9 dec", "may 20-27", "oct 2nd-5th"
    return bool(_SLOT_BEFORE.search(text, 0, m.start()) or _MONTH_AFTER_MAY.match(text, m.end()))


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
        if not _in_period_slot(text, m, word):
            continue  # "spend at March prices", "spend may 2": the month is not the period asked about
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


def with_years(text: str, as_of: dt.date, read: Sequence[tuple[int, int]]) -> tuple[str, tuple[int, ...]] | None:
    """``text`` with a year written after each month the period reader left unread, and for each
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
    >>> with_years("how much may we spend", dt.date(2026, 3, 26), ()) is None
    True
    """
    unread = _unread(text, read)
    edits = sorted(_month_edits(text, as_of, unread))
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
