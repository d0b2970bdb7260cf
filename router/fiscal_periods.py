"""Fiscal period numbers: the controller's notation for a month of the fiscal year.

"P04 FY26", "FY25 P07", "FY25 M8", "P12 2025", "period 7 of FY25", "FY26 fiscal month 3" name one month of a
fiscal year; "P10-P12 FY25", "FY26 P01-P03", "M1-M3 FY26", "P02 to P04 FY26", "P10-12 FY25" a run of them. Period
n is the n-th month counted from the fiscal year's first month (``PROCURA_FISCAL_YEAR_START_MONTH``, the calendar
year by default: P07 FY25 is July 2025), the fiscal year named by the calendar year it ends in, as
:mod:`router.periods` reads "FY2026". A year without "FY" beside a period number ("P12 2025") is that fiscal year
too: a period number only exists within a fiscal year.

The number is read only with its year: "M3" alone is as often a screw size as a month, and "P7" alone names no
year (the period-coverage invariant, router/period_leftovers.py, names such a token instead of dropping it). A
number past the twelve months of a year ("P13 FY25": thirteen-period calendars exist) or a run that goes
backwards ("P12-P10") is no range this reader makes up: it is asked about, named.
"""

from __future__ import annotations

import datetime as dt
import re

from router.contract import TimeRange

#: The words that name a fiscal year, in the languages the readers know (a closed class): "FY", "fiscal (year)",
#: German "GJ"/"Geschäftsjahr"/"WJ", Dutch "boekjaar"/"BJ", French "exercice", Spanish "ejercicio", Italian
#: "esercizio", Portuguese "exercício", Nordic "räkenskapsår"/"regnskabsår"/"regnskapsår", Polish "rok obrotowy",
#: Finnish "tilikausi".
FISCAL_YEAR_WORDS = (r"fy|fiscal(?:\s+year)?|financial\s+year|gj|wj|gesch(?:ä|ae|a)ftsjahr(?:es|s)?|"
                     r"wirtschaftsjahr(?:es|s)?|boekjaar|bj|exercice(?:\s+fiscal)?|ejercicio(?:\s+fiscal)?|esercizio|exerc[íi]cio|"
                     r"r(?:ä|a)kenskaps(?:å|a)r(?:et)?|regnskabs(?:å|a)r(?:et)?|regnskaps(?:å|a)r(?:et)?|"
                     r"rok(?:u)?\s+obrotow(?:y|ego)|tilikau(?:si|den)")
#: A fiscal year written with its qualifier ("FY25", "FY 2025", "FY'25", "fiscal 2025", "GJ 2025").
_FY = rf"(?:{FISCAL_YEAR_WORDS})\s?['’-]?\s?(?:(?:19|20)\d{{2}}|\d{{2}})"
#: A calendar-looking year beside a period number: the fiscal year of that number ("P12 2025").
_YEAR = rf"(?:{_FY}|(?:19|20)\d{{2}})"
#: The period word or letter before the number: "P07", "M8", "period 7", "per. 7", "fiscal month 3", "month 3".
#: (the period word in the same languages: "Periode 7", "période 07", "periodo 7", "kausi 7", "okres 7")
#: ("M8" only beside a fiscal-year word, "FY25 M8", "M8 fiscal 2025": beside a plain year "M12 2025", "M10, 2025" it
#: is as often a size or a thread, "cable glands M12"; "P12 2025" is the controllers' notation only)
#: "M12 connector set": an M number that starts a noun phrase of two words is a size or thread of what follows (a
#: product), not a fiscal month, even beside a fiscal year ("FY2025 M12 connector set excluded"); read as a month it
#: would silently narrow the year. (Words that may follow a period keep it a month: "FY25 M8 spend for Xenon".)
M_SIZE = (r"\d{1,2}\s+(?!(?:spend|spent|spending|burn|actuals?|costs?|totals?|for|of|to|and|or|vs|versus|at|in|by|"
           r"per|from|with|only|incl|excl|gross|net|the|a|an|is|was|were|please|pls|invoices?|purchases?|approved|"
           r"suppliers?|vendors?|lists?)\b)"
           r"[a-z]{3,}\s+[a-z]{3,}")
_MARK = (rf"(?:p(?=\d)|m(?=\d)(?!{M_SIZE})|(?:fiscal\s+)?(?:period|month)\s?|per\.\s?|"
         r"(?:periode|p(?:é|e)riode|per(?:í|i)odo|kausi|okres)\s?)")
_MARK_PLAIN = (r"(?:p(?=\d)|(?:fiscal\s+)?(?:period|month)\s?|per\.\s?|"
               r"(?:periode|p(?:é|e)riode|per(?:í|i)odo|kausi|okres)\s?)")
_NUMBER = r"\d{1,2}(?!\d)"
#: "M11 2025", "M3/2026": a month number with a four-digit year right after it is the controllers' month notation
#: (the year settles it: a thread or size "M12" is never followed by a year); read without it, the year alone was a
#: silent whole-year figure or a needless question.
#: ("on cable glands M12 2025", "spend on M8 2026 hex bolts": after a noun or "on" it is a size of what is bought,
#: so it is a month only where a period stands: at the start, after a measure word, a preposition of time or a
#: separator)
_M_MONTH_PLACE = (r"(?:(?<=^)|(?<=[,:;(]\s)|(?<=[,:;(])|(?<=\bspend\s)|(?<=\bspent\s)|(?<=\btotal\s)|"
                  r"(?<=\binvoices\s)|(?<=\bcount\s)|(?<=\bin\s)|(?<=\bfor\s)|(?<=\bduring\s)|(?<=\bof\s))")
_MARK_PLAIN_AFTER = (rf"(?:{_MARK_PLAIN}|{_M_MONTH_PLACE}m(?=(?:0?[1-9]|1[0-2])\s*[-/]?\s*(?:19|20)\d{{2}}"
                     r"(?![\w/-]|[.,]\d)))")


#: What joins a period number to the year after it: "of (the)", "in", German "des/im", French "de (l')", Dutch
#: "van (het)", Spanish/Italian "del/dell'", Nordic "i", Polish "w".
_OF = r"(?:(?:of(?:\s+the)?|in|des|im|du|van(?:\s+het)?|del|de|i|w)\s+|dell['’]\s?)?(?:l['’]\s?)?"


def _parts(first: str, last: str, mark: str = _MARK) -> str:
    """One period number and, closing a run, a second ("P10-P12", "P10-12", "M1 to M3", "P01..P03")."""
    run = rf"\s*(?:-|–|—|\.\.|\s(?:to|through|thru|until|till)\s)\s*(?:{mark})?(?P<{last}>{_NUMBER})"
    return rf"{mark}(?P<{first}>{_NUMBER})(?:{run})?"


#: The whole notation, the year before ("FY25 P07", "FY25-P07-P09", "2025/P12") or after ("P07 FY25",
#: "P07 of FY25", "P10-P12/FY25", "P12 2025").
FISCAL_PERIOD = re.compile(
    rf"(?<![\w./-])(?:(?P<year_before>{_FY})\s*[-/,:]?\s*{_parts('first_b', 'last_b')}"
    rf"|(?P<plain_before>{_YEAR})\s*[-/,:]?\s*{_parts('first_pb', 'last_pb', _MARK_PLAIN)}"
    rf"|{_parts('first', 'last')}\s*[-/,]?\s*{_OF}(?P<year_after>{_FY})"
    rf"|{_parts('first_pa', 'last_pa', _MARK_PLAIN_AFTER)}\s*[-/,]?\s*{_OF}(?P<plain_after>{_YEAR}))(?![\w/-]|[.,]\d)",
    re.I,
)
_DIGITS = re.compile(r"\d+")


def _add_months(day: dt.date, months: int) -> dt.date:
    index = day.year * 12 + (day.month - 1) + months
    return dt.date(index // 12, index % 12 + 1, 1)


def fiscal_year_of(year_text: str) -> int:
    """The fiscal year a written year names ("FY25", "fiscal 2025", "2025": 2025)."""
    digits = _DIGITS.findall(year_text)[-1]
    return int(digits) + (2000 if len(digits) == 2 else 0)


def fiscal_period_range(year: int, first: int, last: int, start_month: int, text: str) -> TimeRange:
    """Periods ``first`` to ``last`` (1-12, included) of fiscal year ``year`` whose first month is
    ``start_month``.

    >>> r = fiscal_period_range(2025, 7, 7, 1, "P07 FY25"); (r.start, r.end, r.label)
    (datetime.date(2025, 7, 1), datetime.date(2025, 8, 1), '2025-07')
    >>> r = fiscal_period_range(2026, 1, 3, 4, "P01-P03 FY26"); (r.start, r.end)
    (datetime.date(2025, 4, 1), datetime.date(2025, 7, 1))

    Raises:
        ValueError: a number past the twelve months, or a run that goes backwards.
    """
    if not (1 <= first <= last <= 12):
        raise ValueError(text)
    year_start = dt.date(year, 1, 1) if start_month == 1 else dt.date(year - 1, start_month, 1)
    start = _add_months(year_start, first - 1)
    end = _add_months(year_start, last)
    if first == last:
        label = f"{start.year}-{start.month:02d}" if start_month == 1 else f"FY{year}-P{first:02d}"
    else:
        label = f"FY{year}-P{first:02d}..P{last:02d}"
    return TimeRange(start=start, end=end, label=label, source_text=text)


def read_fiscal_period(match: re.Match[str], start_month: int) -> TimeRange:
    """The range a :data:`FISCAL_PERIOD` match names, counted from the fiscal year's ``start_month``."""
    for year, first_name, last_name in (("year_before", "first_b", "last_b"), ("plain_before", "first_pb", "last_pb"),
                                        ("year_after", "first", "last"), ("plain_after", "first_pa", "last_pa")):
        if match.group(year) is not None:
            year_text, first, last = match.group(year), match.group(first_name), match.group(last_name)
            break
    else:  # pragma: no cover - every alternative of FISCAL_PERIOD names its year
        raise ValueError(match.group(0))
    return fiscal_period_range(fiscal_year_of(year_text), int(first), int(last or first), start_month,
                               match.group(0))
