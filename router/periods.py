"""Relative and absolute periods in a question, resolved to half-open date ranges against an as-of date.

Supported forms (case-insensitive): ``last/previous/this/current quarter|month|year``, ``year to date``,
``Q1 2026``, ``2026-Q1``, ``first quarter of 2026``, ``Q1`` (the most recent Q1 that has started),
``March 2026``, ``in March`` (the most recent March that has started), ``2026-03``, ``2026`` (a bare year after
"in"/"during"/"for", or alone when nothing else names a period and it is no amount), open ends
(``until/through/up to the end of/before <period>``, closing a ``since`` start or the one period that contains
them; alone they are asked about), month ranges (``from January to March 2026``, ``Jan-Mar 2026``, ``March
through May``), ``the first/last N quarters|months of 2026``, and explicit dates
``between 2026-01-01 and 2026-04-01`` / ``from 2026-01-01 to (before) 2026-04-01`` / ``1 Jan - 31 Mar 2026``,
whose second date is the exclusive end (the corpus's convention) unless it follows "through" or is a month's last
day (then it is included); a first date without a year takes the second's.

Rolling windows end at the as-of date (included): ``last/past/previous/trailing/rolling N days|weeks``,
``trailing/rolling N months|quarters|years`` (N in digits or words), ``trailing twelve months`` / ``TTM`` /
``LTM`` / ``L12M`` (12 months). N days (weeks) are the N (7N) days up to and including the as-of date; N months
are from the day after the same day N months earlier (clamped to the month's end), so "trailing 3 months" as of
2026-05-15 is [2026-02-16, 2026-05-16). "last/past/previous N months|quarters|years" are the whole calendar units
before the one holding the as-of date, as "last quarter" is (the evaluation sets' policy: "last 2 quarters" as of
2026-05-20 is 2025-Q4 and 2026-Q1). Clerks' notations ("since 01-Oct-25", "Mar-2026", "so far in FY2026", "YTD
spend (FY2026)") are read through :mod:`router.clerk_dates`.
``last/previous week`` is the previous ISO calendar week (Monday to Sunday), as ``last month`` is the
previous calendar month; ``this week`` the current one. Period lists ``Q1 and Q2 2026``, ``Jan and Feb``, ``H1 and
H2 2025`` are their union when the parts are adjacent (earlier bare parts take the year of the last one); parts
with a gap, or a list in a comparison ("Q1 and Q2 compared"), are left to the comparison reader or asked about.
Quarters and halves also read as ``1Q26``, ``Q1'26``, ``Q1/26``, ``Q1-26``, ``2026Q1``, ``1H26``, ``H1'26``.
Days of one month ("between 1 and 13 March 2026", "1-13 Mar 2026", "March 1-13, 2026") include both days;
"between Jul and Dec 2025", "between Q1 and Q3 2025" and "between 2024 and 2025" run from the first period's start
to the second's end. "the last full quarter" is the previous one; "the month before last" and "two quarters ago"
count units back from the one holding the as-of date; "FY-to-date 2026" runs from the fiscal year's start to the
as-of date, as does a period followed by "to date" or "so far" ("Q3 2025 to date"); an end day without its year
("from the start of 2026 through 12 Feb") takes the one year the question writes; "dec 25" with no day suffix,
year or "on" before it is December 2025.
A quarter or half with its fiscal or calendar year is one period ("Q1 FY26", "H2 FY2025", "Q3 of calendar 2025",
"FY26 Q1": a fiscal part counted from the fiscal year's first month); a window may be written with its end ("the
30 days up to and including today", "the 8 weeks ending today", "trailing 60-day"); "the quarter (month, half-year,
year) ending 31 Dec 2025" is that whole unit (a day that ends no month is asked about); "for the year, as of today"
and "for the year so far" are the year to date.
Two-digit years after a quarter, half or month with a space ("Q3 25", "H2 25", "jul 25") are written out before
the patterns read them, so ranges ("jul 25 - dec 25", "Q3 25 - Q1 26"), starts ("since jul 25") and comparisons
("q3 25 vs q4 25") keep the year written; one far from the as-of date ("Q3 40", "mar 17": March 2017 or the 17th?)
is asked about. "last yr" is last year; "since 1 Jan" the latest such day; "2026 ytd" one period; "2025+2026 so far"
one span to the as-of date; "ever", "all time", "any period", "all periods", "the whole period on file" every date
on file up to the as-of date (beside another period, "ever" only stresses it). A parenthesis that restates the
period ("last 12 months (May-Apr)", "from July 2026 on (H2)") is the period; a period in a clause that only states
context ("Epsilon was phased out end of 2025. Did we spend with it in 2026?") is not the one asked.
A period after "as of"/"as at" is a point in time (:attr:`PeriodResolution.point_in_time`): for a figure the
router asks whether the year to date up to that point or the period alone is meant.

Vague words ("recently", "lately", "a while ago") and two different periods make the period *ambiguous*:
the router then asks instead of guessing.
"""

from __future__ import annotations

import datetime as dt
import os
import re
from dataclasses import dataclass, replace
from itertools import pairwise

from router.clerk_dates import clerk_dates, so_far_before, year_to_date_of
from router.contract import TimeRange
from router.fiscal_periods import FISCAL_PERIOD, read_fiscal_period
from router.period_leftovers import unconsumed_date_token, unread_duration, unread_unit_phrase
from router.period_words import CHANGE_VERBS, unread_month_word, unread_part_word

_MONTHS = {
    name: number
    for number, names in enumerate(
        (
            ("january", "jan"),
            ("february", "feb"),
            ("march", "mar"),
            ("april", "apr"),
            ("may",),
            ("june", "jun"),
            ("july", "jul"),
            ("august", "aug"),
            ("september", "sep", "sept"),
            ("october", "oct"),
            ("november", "nov"),
            ("december", "dec"),
        ),
        start=1,
    )
    for name in names
}
_MONTH_NAMES = "|".join(sorted(_MONTHS, key=len, reverse=True))
#: The English month names and abbreviations as one regex alternation, for readers of dates outside this module.
MONTH_NAMES = _MONTH_NAMES
#: Each of those words and its month's number (1-12).
MONTH_NUMBERS: dict[str, int] = _MONTHS
_COUNTS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
           "eleven": 11, "twelve": 12}
_ORDINALS = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4}

#: A calendar day: ISO ("2026-03-01"), day-month-year in words ("1 March 2026", "1st of Mar 2026", "3. March 2026"),
#: month-day-year ("March 1, 2026") or day.month.year ("01.03.2026"). Slashed forms are not read: 03/01/2026 is
#: March 1st to some readers and January 3rd to others.
_DAY_SUFFIX = r"(?:st|nd|rd|th)?"


def _date_pattern(year: str) -> str:
    """:data:`_DATE`'s alternatives, with ``year`` after the day and month in words."""
    return (rf"(\d{{4}}-\d{{2}}-\d{{2}}|\d{{1,2}}(?:{_DAY_SUFFIX}\s+(?:of\s+)?|\.\s*)(?:{_MONTH_NAMES})\.?{year}"
            rf"|(?:{_MONTH_NAMES})\.?\s+\d{{1,2}}{_DAY_SUFFIX}{year}|\d{{1,2}}\.\d{{1,2}}\.\d{{4}})")


_DATE = _date_pattern(r",?\s+\d{4}")
#: The first day of a range may leave its year to the second ("between Jan 1 and Mar 31 2026", "from 1 July to
#: 31 December 2025"): any :data:`_DATE`, or a day and month in words without a year.
_START_DATE = _date_pattern(r"(?:,?\s+\d{4})?")
#: Words that make the period after them the *end* of an open range ("until March 2026", "by the end of Q1").
#: "before"/"prior to" end where that period starts; the others end where it ends (it is included).
_UNTIL = (r"(?:until|till|through|thru|up\s+(?:to|until|till)(?:\s+and\s+including)?|(?:up\s+)?to\s+(?:the\s+)?end"
          r"\s+of|(?:by|until|till|through)\s+(?:the\s+)?end(?:\s+of)?|before|prior\s+to|no\s+later\s+than)")
_UNTIL_BEFORE = re.compile(rf"\b{_UNTIL}\s+(?:the\s+)?$", re.I)
#: A comparison word after or before a period that names no year (lookbehinds: each of a fixed width).
_BESIDE_AFTER = r"(?:vs\.?|versus|against|compared?\s+(?:with|to))\s"
_BESIDE_BEFORE = (r"(?:(?<=\bvs\s)|(?<=\bvs\.\s)|(?<=\bversus\s)|(?<=\bagainst\s)|(?<=\bcompared\swith\s)|"
                  r"(?<=\bcompared\sto\s)|(?<=\bcompare\swith\s)|(?<=\bcompare\sto\s))")
#: A year after a month: four digits, or two after an apostrophe ("Feb '26"); each form its own group.
_YEAR_OR_YY = r"(?:\s+(\d{4})|\s*['’]\s?(\d{2}))?"
#: What names a year as fiscal or calendar: "FY", "fiscal (year)", "financial year", "calendar (year)", "CY".
_YEAR_QUALIFIER = r"(fy|fiscal(?:\s+year)?|financial\s+year|calendar(?:\s+year)?|cy)"
_COUNT_WORDS = "two|three|four|five|six|seven|eight|nine|ten|eleven|twelve"
_LIST_GLUE = r"\s*(?:,\s*(?:and\s+)?|&|\+|\band\b|\bund\b)\s*"
_CURRENCY_AFTER = r"\s*(?:€|\$|£|eur\b|euros?\b|usd\b|chf\b|gbp\b|dollars?\b|k\b|tsd\b|mio\b|thousand\b)"
#: After a year: no currency, and not the first bound of a range whose second bound is money.
_NOT_MONEY_AFTER = rf"(?!{_CURRENCY_AFTER})(?!\s*(?:to|and|-|–)\s*\d[\d.,]*{_CURRENCY_AFTER})"
#: "(the) end of" before the last month of a range: that month is included as it is without the words.
_END_OF = r"(?:(?:the\s+)?end\s+of\s+)?"
_MONTH_BEFORE = re.compile(rf"\b(?:{_MONTH_NAMES})\.?\s*$", re.I)
_SPAN_GLUE = r"\s*(and|to|until|till|through|thru|-|–)\s*"
#: A day written without its year ("12 Feb", "Feb 12th"), never followed by one.
_DAY_NO_YEAR = (rf"(\d{{1,2}}{_DAY_SUFFIX}\s+(?:of\s+)?(?:{_MONTH_NAMES})\.?|(?:{_MONTH_NAMES})\.?\s+\d{{1,2}}"
                rf"{_DAY_SUFFIX})(?![\w.'’/-]|,?\s+\d{{4}}|\s*['’]\s?\d)")
_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    # "week 12 of 2025", "calendar week 7, 2026", "KW 12 2025", "2025-W12", "W12 2025": one ISO calendar week
    # (Monday to Sunday); read as words it would leave the year around it (a silent whole-year figure). A week a
    # year does not have ("week 53 of 2025") is no valid range (asked about).
    ("iso_week", re.compile(r"\b(?:(?:calendar|iso)\s+)?(?:week|wk|kw|cw)\s?(?:no\.?\s?|number\s|#\s?)?"
                            r"(\d{1,2})(?:\s*(?:of|,|in)?\s*((?:19|20)\d{2}))?\b(?![-/.]\d)(?!\s*(?:%|€|eur\b))"
                            r"|\b((?:19|20)\d{2})-?w(\d{2})\b|\bw(\d{1,2})[\s/-]+((?:19|20)\d{2})\b", re.I)),
    # "P04 FY26", "FY25 M8", "P10-P12 FY25", "P12 2025": fiscal period numbers with their year, one month or a run
    # of months of the fiscal year (router/fiscal_periods.py); read as words, the year alone would be a silent
    # whole-year figure.
    ("fiscal_period", FISCAL_PERIOD),
    # Days of one month: "between 1 and 13 March 2026", "1-13 March 2026", "from the 1st to the 13th of March
    # 2026", "March 1-13, 2026": both days in that month, the second included (nobody writes an exclusive end as
    # a bare day number).
    ("day_span", re.compile(rf"(?:\b(?:between|from)\s+(?:the\s+)?|(?<![\w.:/-]))(\d{{1,2}}){_DAY_SUFFIX}{_SPAN_GLUE}"
                            rf"(?:the\s+)?(\d{{1,2}}){_DAY_SUFFIX}\s+(?:of\s+)?({_MONTH_NAMES})\.?,?\s+(\d{{4}})\b"
                            rf"|\b(?:(?:between|from)\s+)?({_MONTH_NAMES})\.?\s+(\d{{1,2}}){_DAY_SUFFIX}{_SPAN_GLUE}"
                            rf"(\d{{1,2}}){_DAY_SUFFIX},?\s+(\d{{4}})\b", re.I)),
    # A range whose second day leaves its year to the first ("from 1 Jan 2026 through 12 Feb").
    ("from_to_open_year", re.compile(rf"(?<!since )\b(?:from\s+|between\s+)?{_DATE}{_SPAN_GLUE}(?:before\s+)?"
                                     rf"{_DAY_NO_YEAR}", re.I)),
    # Ranges between two written days, before the lists: "between 1 January and January 31" is no month list.
    ("between", re.compile(rf"\bbetween\s+{_START_DATE}\s+and\s+()(?:before\s+)?{_DATE}\b", re.I)),
    # "between 2025-07-01 and (the) end of April 2026": from the day to the last day of the month, included
    ("between_day_month_end", re.compile(rf"\bbetween\s+{_DATE}\s+and\s+(?:the\s+)?end\s+of\s+({_MONTH_NAMES})\.?"
                                         r"\s+(\d{4})\b", re.I)),
    ("from_to", re.compile(rf"(?<!since )\b(?:from\s+)?{_START_DATE}\s*(to|until|till|through|thru|-|–)\s*"
                           rf"(?:before\s+)?{_DATE}\b", re.I)),
    # "between Jul and Dec 2025", "between Q1 and Q3 2025", "between 2024 and 2025": from the start of the first
    # to the end of the second (in a comparison, "the difference between Q1 and Q3", two periods instead)
    # ("... and (the) end of April 2026": the month is included either way)
    ("between_month_range", re.compile(rf"\bbetween\s+({_MONTH_NAMES})\.?{_YEAR_OR_YY}\s+and\s+{_END_OF}"
                                       rf"({_MONTH_NAMES})\.?{_YEAR_OR_YY}\b", re.I)),
    ("between_quarter_range", re.compile(r"\bbetween\s+q([1-4])(?:[\s,/-]+(?:of\s+)?(\d{4}))?\s+and\s+q([1-4])"
                                         r"(?:[\s,/-]+(?:of\s+)?(\d{4}))?\b", re.I)),
    # "Q3 2025 - Q1 2026", "Q3 25 to Q1 26", "H2 2025 - H1 2026": a range of quarters (halves) written with a dash
    # or "to" and no "between" (in a comparison two periods instead: "Q3 2025 to Q1 2026 growth" is read there)
    ("quarter_span_range", re.compile(r"\bq([1-4])(?:[\s,/]+(?:of\s+)?(\d{4}))?\s*(?:-|–|\s(?:to|through|thru|until|"
                                      r"till)\s)\s*q([1-4])(?:[\s,/]+(?:of\s+)?(\d{4}))?\b(?![-/]\d)", re.I)),
    ("half_span_range", re.compile(r"\bh([12])(?:[\s,/]+(?:of\s+)?(\d{4}))?\s*(?:-|–|\s(?:to|through|thru|until|"
                                   r"till)\s)\s*h([12])(?:[\s,/]+(?:of\s+)?(\d{4}))?\b(?![-/]\d)", re.I)),
    ("between_year_range", re.compile(r"\bbetween\s+(?:the\s+years?\s+)?((?:19|20)\d{2})\s+and\s+((?:19|20)\d{2})"
                                      r"\b(?![-/.]\d)" + _NOT_MONEY_AFTER, re.I)),
    # "2025-2026", "2025-26", "2025 to 2026", "from 2024 through 2026": whole calendar years from the first to the
    # second (read in :func:`_read`; with a fiscal year other than the calendar's, "2025-26" may name one fiscal
    # year and is asked about). Not "FY2025-26" (a fiscal year), an ISO month ("2025-12") or day, or an amount.
    ("year_span_range", re.compile(r"(?<![\w.,'’/-])(?<!\bfy\s)(?<!\bfiscal\s)(?<!\bfiscal\syear\s)"
                                   r"(?<!\bfinancial\syear\s)(?:from\s+)?((?:19|20)\d{2})(?:\s*(-|–)\s*((?:19|20)\d{2}|"
                                   r"\d{2})|(\s(?:to|through|thru|until|till)\s)\s*((?:19|20)\d{2}))(?![\w'’/-]|[.,]\d)"
                                   # "2025 - 30 days", "2025-40 invoices": a count after the year, no range
                                   r"(?!\s*(?:%|days?|weeks?|months?|years?|units?|pcs|pieces?|invoices?|lines?|"
                                   r"items?|documents?)\b)" + _NOT_MONEY_AFTER, re.I)),
    # Lists of adjacent periods, read as one range ("Q1 and Q2 2026", "Jan and Feb", "H1 and H2 2025").
    ("quarter_list", re.compile(rf"\bq[1-4](?:{_LIST_GLUE}q[1-4])+(?:[\s,/-]+(?:of\s+)?(\d{{4}}))?\b", re.I)),
    ("half_list", re.compile(rf"\bh[12](?:{_LIST_GLUE}h[12])+(?:[\s,/-]+(?:of\s+)?(\d{{4}}))?\b", re.I)),
    ("month_list", re.compile(rf"\b(?:{_MONTH_NAMES})\.?(?:{_LIST_GLUE}(?:{_MONTH_NAMES})\.?)+{_YEAR_OR_YY}\b",
                              re.I)),
    # "the quarter ending 31 Dec 2025", "the month ended 28 Feb 2026": the whole unit whose last day that is (read
    # alone, the day would be a one-day period).
    ("unit_ending", re.compile(rf"\b(?:the\s+)?(quarter|qtr|month|half[- ]year|half|year|twelve\s+months|12\s+months)"
                               rf"\s+(?:ending|ended|that\s+end(?:s|ed)|to)\s+(?:on\s+)?{_DATE}(?![\w.-])", re.I)),
    # "for the year, as of today", "spend for the year so far": the year to date.
    ("year_to_now", re.compile(r"\b(?:for|in|over|during)\s+the\s+(?:current\s+)?year\b(?=[^?.;]{0,40}?\b(?:as\s+"
                               r"(?:of|at)\s+(?:today|now)|so\s+far|to\s+date|until\s+(?:today|now))\b)", re.I)),
    # "Q1 FY26", "H2 FY2025", "Q3 of calendar 2025", "FY26 Q1", "the second half of fiscal 2025": a quarter or half
    # of the year its qualifier names, one period (not the part and the year side by side).
    ("qualified_part", re.compile(
        rf"\b(?:q([1-4])|h([12])|(first|second|third|fourth|1st|2nd|3rd|4th)\s+(quarter|qtr|half))\s*[-/,]?\s*"
        rf"(?:of\s+)?(?:the\s+)?{_YEAR_QUALIFIER}\s?['-]?(\d{{4}}|\d{{2}})\b"
        rf"|\b{_YEAR_QUALIFIER}\s?['-]?(\d{{4}}|\d{{2}})\s*[-/,]?\s*(?:q([1-4])|h([12]))\b", re.I)),
    # "the last full quarter", "the most recent complete month": the last whole unit, the previous one
    ("full_unit", re.compile(r"\b(?:the\s+)?(?:last|latest|most\s+recent|previous|prior|past|preceding)\s+"
                             r"(?:full|complete|completed|whole|entire|closed)\s+(quarter|qtr|month|year|week|half)\b"
                             # "the quarter just closed", "the just-ended month", "the month that has just closed"
                             r"|\b(?:the\s+)?(?:just|recently)[- ](?:closed|ended|completed|finished)\s+"
                             r"(quarter|qtr|month|year|week|half)\b"
                             r"|\b(?:the\s+)?(quarter|qtr|month|year|week|half)\s+(?:that\s+|which\s+)?(?:has\s+|was\s+)?"
                             r"(?:just|recently)\s+(?:closed|ended|completed|finished)\b",
                             re.I)),
    # "the month before last", "the quarter before the last one", "two quarters ago": units counted back from the
    # one holding the as-of date
    ("before_last", re.compile(r"\b(?:the\s+)?(quarter|qtr|month|year|week|half)\s+before\s+(?:the\s+)?last"
                               r"(?:\s+(?:one|quarter|qtr|month|year|week|half))?\b", re.I)),
    ("units_ago", re.compile(rf"\b(?:(?:in|during|for)\s+)?(?:the\s+)?(?:(?:quarter|qtr|month|year|week)\s+)?"
                             rf"(a|one|\d{{1,2}}|{_COUNT_WORDS})\s+(quarters?|qtrs?|months?|years?|weeks?)\s+ago\b",
                             re.I)),
    # "FY-to-date 2026", "fiscal year to date", "FYTD": the fiscal year up to the as-of date
    ("fytd", re.compile(r"\b(?:(?:fy|fiscal[- ]year|financial[- ]year)[- ]?to[- ]date|fytd)(?:\s+(?:fy\s?)?"
                        r"((?:19|20)\d{2}))?\b|"
                        # "FY2026 YTD", "FY26 TD", "fiscal 2026 year-to-date", "FY 2026 so far": the fiscal year
                        # named, to the as-of date
                        r"\b(?:fy\s?['-]?|fiscal\s+(?:year\s+)?)((?:19|20)?\d{2})\s*[- ]?\s*(?:(?:fy|y)?tds?|"
                        r"(?:year[- ])?to[- ]date|so\s+far)\b", re.I)),
    # "the past two full months", "last 3 complete quarters": whole units before the one holding the as-of date
    # ("trailing three full months": whole units too; "trailing 3 months" without "full" stays a rolling window)
    ("full_units", re.compile(rf"\b(?:(?:in|over|during|for)\s+)?(?:the\s+)?(?:last|past|previous|prior|preceding|"
                              rf"trailing|rolling|most\s+recent|latest)"
                              rf"\s+(\d{{1,2}}|{_COUNT_WORDS})\s+(?:full|complete|whole|entire|closed)\s+"
                              r"(months|quarters|weeks|years)\b", re.I)),
    # Rolling windows ending at the as-of date ("last 3 months", "past 90 days", "trailing 12 months", "TTM").
    ("rolling", re.compile(rf"\b(?:(?:in|over|during|for)\s+)?(?:the\s+)?(?:last|past|previous|prior|preceding|"
                           rf"trailing|rolling)\s+(\d{{1,3}}|{_COUNT_WORDS})(?:\s+|-)(days?|weeks?|months?|quarters?|"
                           rf"years?)\b(?!\s+of\s+(?:the\s+year\s+)?\d{{4}})", re.I)),
    # "the 30 days up to and including today", "the 8 weeks ending today": the same window, its end written out.
    ("window_to_now", re.compile(rf"\b(?:(?:in|over|during|for)\s+)?(?:the\s+)?(\d{{1,3}}|{_COUNT_WORDS})(?:\s+|-)"
                                 r"(days?|weeks?|months?)\s+(?:(?:up\s+)?(?:to|until|till|through)(?:\s+and\s+"
                                 r"including)?|ending(?:\s+on)?|that\s+end\s+on)\s+(?:today|now|(?:the\s+)?as[- ]of\s+"
                                 r"date)\b", re.I)),
    # "the 6 months before": in a comparison, the window just before the one named first.
    ("window_before", re.compile(rf"\b(?:the\s+)?(\d{{1,3}}|{_COUNT_WORDS})\s+(days|weeks|months|quarters|years)\s+"
                                 rf"(?:before(?:\s+(?:that|it|them))?|prior|earlier)\b", re.I)),
    ("ttm", re.compile(r"\b(?:(?:the\s+)?(?:trailing|rolling|last|past)\s+(?:twelve|12)[- ]months?(?!\s+of\b)|ttm|"
                       r"ltm|l12m|r12m)\b"
                       # "T6M", "L3M", "R12M": the analysts' trailing N months
                       r"|(?<![\w-])[tlr](\d{1,2})m(?![\w-])", re.I)),
    # Compact quarters and halves: "1Q26", "Q1'26", "Q1/26", "Q1-26", "1H26", "H1'26".
    ("compact_quarter", re.compile(r"(?<![\w-])(?:([1-4])q\s?((?:20)?\d{2})|q([1-4])\s?['’/-]\s?(\d{2}))(?![\w/-])",
                                   re.I)),
    ("compact_half", re.compile(r"(?<![\w-])(?:([12])h\s?((?:20)?\d{2})|h([12])\s?['’/-]\s?(\d{2}))(?![\w/-])",
                                re.I)),
    ("since_date", re.compile(rf"\bsince\s+{_DATE}\b"
                              # "between 1 April 2026 and today", "from 1 April 2026 until now": the day opens a
                              # range to the as-of date, as "since 1 April 2026" does (never the day alone)
                              rf"|\b(?:between|from)\s+{_DATE}\s*,?\s+(?:and|to|until|till|through|thru)\s+"
                              r"(?:(?:up\s+to\s+)?(?:today|now|the\s+present(?:\s+day)?|the\s+as[- ]of\s+date))\b",
                              re.I)),
    # "ever", "all time", "any period", "all periods", "the whole period on file": every date on file up to the
    # as-of date (as a listing of documents with no period is read), a period of its own, never a missing one
    ("all_history", re.compile(r"\b(?:(?:of\s+)?all[- ]time|ever|at\s+any\s+time|(?:in\s+|for\s+|over\s+)?"
                               r"(?:any|all)\s+periods?|(?:(?:over|for|in)\s+)?(?:the\s+)?(?:whole|entire|full)\s+(?:period|history|"
                               r"time)(?:\s+on\s+(?:file|record))?|(?:everything|all)\s+on\s+(?:file|record)|"
                               r"since\s+(?:records\s+began|inception))\b", re.I)),
    # "since 1 Jan", "since March 3rd": a day without its year, the latest such day up to the as-of date (the one
    # year the question writes, if any)
    ("since_day", re.compile(rf"\bsince\s+(?:the\s+)?{_DAY_NO_YEAR}", re.I)),
    # "2026 ytd", "YTD 2026": the year to date of the year named, one period (not the year and the YTD side by
    # side); a past year's "to date" has no as-of day in it and is asked about
    ("year_ytd", re.compile(r"(?<![\w.-])((?:19|20)\d{2})\s*(?:ytd|year[- ]to[- ]date)\b"
                            r"|\b(?:ytd|year[- ]to[- ]date)\s+(?:(?:of|for|in)\s+)?((?:19|20)\d{2})\b(?![-/.]\d)",
                            re.I)),
    # "since the start of 2026", "since the beginning of the year", "since 2025": from its first day to as-of
    # ("since begin of 2026", "since begin 2025": the same start, as written by non-native speakers)
    ("since_start", re.compile(r"\b(?:since|from)\s+(?:the\s+)?(?:start|beginning|begin)\s+(?:of\s+)?"
                               r"(?:(?:the\s+)?(?:year\s+)?"
                               r"((?:19|20)\d{2})|(?:the|this)\s+(year|quarter|month))\b|\bsince\s+((?:19|20)\d{2})\b"
                               r"(?![-/.]\d)" + _NOT_MONEY_AFTER, re.I)),
    ("from_month_to", re.compile(rf"\bfrom\s+({_MONTH_NAMES})\.?{_YEAR_OR_YY}\s+(?:to|until|till|through|thru|-)"
                                 rf"\s+({_MONTH_NAMES})\.?{_YEAR_OR_YY}\b", re.I)),
    # "Jan-Mar 2026", "March through May", "September to November 2025": a month range without "from" ("to"
    # after a comparison verb is no range: "compare March to April" compares them).
    ("month_range", re.compile(rf"(?<!compare\s)(?<!compared\s)(?<!comparing\s)\b({_MONTH_NAMES})\.?{_YEAR_OR_YY}"
                               rf"\s*(?:-|–|\s(?:through|thru|until|till|to)\s)\s*({_MONTH_NAMES})\.?{_YEAR_OR_YY}\b",
                               re.I)),
    ("until_date", re.compile(rf"\b{_UNTIL}\s+{_DATE}\b", re.I)),
    ("until_day", re.compile(rf"\b{_UNTIL}\s+(?:the\s+)?{_DAY_NO_YEAR}", re.I)),
    ("until_year", re.compile(rf"\b{_UNTIL}\s+((?:19|20)\d{{2}})\b(?![-/]\d)", re.I)),
    ("until_month", re.compile(rf"\b{_UNTIL}\s+({_MONTH_NAMES})\.?\b(?!\s+\d{{4}})", re.I)),
    # "up to new year", "until year end", "till the end of the year": the end of the year of the range's start
    # (router/periods.py _open_range places it after the start; alone it names no start and is asked about)
    ("until_year_end", re.compile(rf"\b{_UNTIL}\s+(?:the\s+)?(?:(?:new|next)\s+year(?:['’]s(?:\s+day)?)?|"
                                  r"year[- ]?end|(?:turn\s+of\s+the\s+)?year)\b(?![\s'’-]*\d)", re.I)),
    ("on_date", re.compile(rf"\b(?:on|as of|as at|at)\s+{_DATE}(?![\w-]|\.[\w-])", re.I)),
    # a day standing alone ("spend 1 March 2026"), read before its month ("March 2026") could be
    # (a full stop after the day ends the sentence, "... valid on 2026-09-15."; one before a digit continues a code)
    ("day", re.compile(rf"(?<![\w.-]){_DATE}(?![\w-]|\.[\w-])", re.I)),
    # "the second half of last year", "Q3 of this year", "the last quarter of the previous year": a part of the
    # year a relative word names, one period (not the half and the year side by side).
    ("part_of_relative_year", re.compile(r"\b(?:the\s+)?(?:(first|second|third|fourth|1st|2nd|3rd|4th|last|final)\s+"
                                         r"(half|quarter|qtr)|([hq])([1-4]))\s+of\s+(?:the\s+)?(last|previous|prior|"
                                         r"this|current)\s+(?:calendar\s+)?year\b", re.I)),
    # "calendar year 2025", "calendar 2025", "CY2025", "the last calendar year": January to December whatever
    # the fiscal year start.
    ("calendar_year", re.compile(r"\b(?:(?:in|for|during|over)\s+)?(?:the\s+)?(?:calendar(?:\s+year)?|cy)\s?['-]?"
                                 r"(\d{4})\b", re.I)),
    ("relative_calendar_year", re.compile(r"\b(?:the\s+)?(last|previous|prior|this|current)\s+calendar\s+year\b",
                                          re.I)),
    ("last_of_year", re.compile(r"\b(?:the\s+)?(last|final|first)\s+(quarter|qtr|month|half)\s+of\s+(\d{4})\b", re.I)),
    ("first_n", re.compile(r"\b(?:the\s+)?(first|last|final)\s+(two|three|four|five|six|seven|eight|nine|ten|eleven|"
                           r"twelve|[1-9]|1[0-2])\s+(quarters|months)\s+of\s+(\d{4})\b", re.I)),
    # "this quarter so far", "so far this month": the unit holding the as-of date, up to it
    ("relative_to_date", re.compile(r"\b(?:this|current)\s+(quarter|qtr|month|year|week)\s+(?:so\s+far|to\s+date|"
                                    r"until\s+(?:now|today))\b|\bso\s+far\s+this\s+(quarter|qtr|month|year|week)\b",
                                    re.I)),
    # ("the last calendar month", "this calendar quarter": the calendar unit, as the unit alone is)
    ("relative", re.compile(r"\b(last|previous|prior|past|this|current)\s+(?:calendar\s+)?"
                            r"(quarter|qtr|month|year|yr|half|week)\b", re.I)),
    # ("calendar YTD", "ytd (calendar)": the year to date is the calendar year's whatever the fiscal year; "MTD (May
    # so far)": the month the unit to date is, restated, checked against the as-of date in :func:`_read`)
    ("ytd", re.compile(r"\b(?:calendar(?:[- ]year)?[- ]|cy[- ]?)?(year[- ]to[- ]date|ytd)\b"
                       r"(?:\s*\(\s*(?:calendar(?:\s+year)?|so\s+far|to\s+date)\s*\))?", re.I)),
    ("qtd", re.compile(r"\b(quarter[- ]to[- ]date|qtd)\b", re.I)),
    ("mtd", re.compile(rf"\b(month[- ]to[- ]date|mtd)\b(?:\s*\(\s*(?:(?P<mtd_month>{_MONTH_NAMES})\.?\s*)?"
                       r"(?:so\s+far|to\s+date)?\s*\))?", re.I)),
    # "FY2025-26", "FY 2025/26", "FY25/26": one fiscal year named by both calendar years it touches (read in
    # :func:`_fiscal_year_span`), before "FY2025" alone would read it and leave the "-26" unread
    ("fiscal_year_span", re.compile(r"\b(?:fy|fiscal\s+year|financial\s+year)\s?['-]?((?:19|20)\d{2}|\d{2})"
                                    r"\s?[-/–]\s?((?:19|20)\d{2}|\d{2})\b(?![-/.]\d)", re.I)),
    ("fiscal_year", re.compile(r"\b(?:fy|fiscal\s+year|financial\s+year)\s?['-]?(\d{4}|\d{2})\b", re.I)),
    ("iso_half", re.compile(r"(?<!-)\b(\d{4})[- ]?h([12])\b", re.I)),
    # ("the second half-year of 2025": the half, not the half and the year side by side)
    ("half", re.compile(r"\b(?:h([12])|(first|second|1st|2nd)\s+half(?:[\s-]?year)?)(?:[\s,/-]+(?:of\s+)?(\d{4}))?\b",
                        re.I)),
    ("since_month", re.compile(rf"\bsince\s+({_MONTH_NAMES})\.?(?:\s+(\d{{4}}))?\b", re.I)),
    ("iso_quarter", re.compile(r"(?<!-)\b(\d{4})[- ]?q([1-4])\b", re.I)),
    ("quarter_year", re.compile(r"\bq([1-4])[\s,/-]+(?:of\s+)?(\d{4})\b", re.I)),
    (
        "ordinal_quarter",
        re.compile(r"\b(first|second|third|fourth|1st|2nd|3rd|4th)\s+quarter(?:\s+(?:of\s+)?(\d{4}))?\b", re.I),
    ),
    # the same for a quarter alone ("Q1 vs Q3 2025"): the year of the other side, not the latest Q1 that started
    ("compared_quarter", re.compile(
        rf"\bq([1-4])\b(?![\s,/-]+(?:of\s+)?\d{{4}})(?=\s*{_BESIDE_AFTER})|{_BESIDE_BEFORE}q([1-4])\b"
        r"(?![\s,/-]+(?:of\s+)?\d{4})"
        # "grow from Q1 to Q4 2025": the start of a change, in the year of its end
        r"|(?<=\bfrom\s)q([1-4])\b(?=\s+(?:to|through|until|till)\s+q[1-4][\s,/-]+(?:of\s+)?\d{4}\b)", re.I)),
    # "compare Q1 and Q3 2025": two periods joined by "and" in a comparison (read only when the question compares;
    # otherwise "Q1 and Q3 2025" is a list, read above)
    ("quarter_paired", re.compile(r"\bq([1-4])\b(?![\s,/-]+(?:of\s+)?\d{4})(?=\s*(?:and|&)\s+q[1-4]\b)|"
                                  r"(?:(?<=\band\s)|(?<=&\s))q([1-4])\b(?![\s,/-]+(?:of\s+)?\d{4})", re.I)),
    ("bare_quarter", re.compile(r"\bq([1-4])\b", re.I)),
    # ("Aug-2025", "Sep-2025": the ticket spelling of a month and its year)
    ("month_year", re.compile(rf"\b({_MONTH_NAMES})\.?(?:\s+|-)(\d{{4}})\b(?!-\d)", re.I)),
    # "February '26", "Apr '26", "Feb-26": a month and a two-digit year
    ("month_yy", re.compile(rf"\b({_MONTH_NAMES})\.?(?:\s*['’]\s?|-)(\d{{2}})(?![\w/.-]|[.,]\d)", re.I)),
    # "dec 25 vs nov 25", "spend in mar 26": a month and a two-digit year written with a space; a day would be
    # read above ("Dec 25, 2025", "on Dec 25") or carry a suffix ("Dec 25th")
    ("month_space_yy", re.compile(rf"(?<!\bon\s)(?<!\bof\s)(?<!\bat\s)\b({_MONTH_NAMES})\.?\s(\d{{2}})"
                                  rf"(?![\w/.:-]|[.,]\d|,?\s+\d{{4}}|\s*(?:st|nd|rd|th)\b)", re.I)),
    # "02/2026", "08/25": a month and its year (two parts; a slashed day "03/01/2026" stays unread)
    ("slash_month", re.compile(r"(?<![\w/.-])(0?[1-9]|1[0-2])/((?:19|20)\d{2}|\d{2})(?![\w/.-]|[.,]\d)")),
    ("iso_month", re.compile(r"(?<!-)\b(\d{4})-(0[1-9]|1[0-2])\b(?!-\d)", re.I)),
    # "202603", "period=202510": the ISO basic month (year and month without a separator, a ledger's and an export's
    # spelling); never an amount ("202512 EUR", "over 202512": see _read) or part of a code or number
    ("basic_month", re.compile(r"(?<![\w.,'’/-])((?:19|20)\d{2})(0[1-9]|1[0-2])(?![\w'’/-]|[.,]\d)"
                               + _NOT_MONEY_AFTER)),
    ("in_month", re.compile(rf"\b(?:in|during|for|of|dated)\s+({_MONTH_NAMES})\b(?!\s+\d{{4}})", re.I)),
    # A month alone on one side of a comparison ("March vs February 2026", "Q1: Jan compared with Feb"): a month,
    # in the year written on the other side (read as a plain word it would leave the comparison one period short).
    ("compared_month", re.compile(
        rf"\b({_MONTH_NAMES})\.?(?!\.?\s+\d{{4}})(?=\s*{_BESIDE_AFTER})"
        rf"|{_BESIDE_BEFORE}({_MONTH_NAMES})\b(?!\.?\s+\d{{4}})", re.I)),
    ("month_paired", re.compile(
        rf"\b({_MONTH_NAMES})\.?(?!\.?\s+\d{{4}})(?=\s*(?:and|&)\s+(?:{_MONTH_NAMES})\b)"
        rf"|(?:(?<=\band\s)|(?<=&\s))({_MONTH_NAMES})\b(?!\.?\s+\d{{4}})", re.I)),
    # A month named as the adjective of what is counted or summed ("which march invoices", "company a's march
    # spend", "the jan credit notes"): the month, as "in march" is (left unread it was silently dropped).
    ("attr_month", re.compile(
        rf"\b({_MONTH_NAMES})\b(?!\s+\d)(?=\s+(?:invoices?|bills?|credit\s+notes?|spend|spending|purchases|"
        rf"expenses|costs?|totals?|figures?|numbers|postings?|orders?|payments?|receipts?)\b)", re.I)),
    # "in 2025", and a year used as an adjective of the figure ("Company A's 2025 spend").
    # A year on either side of a comparison word is a period too ("Q1 2026 vs 2025", "2025 versus Q1 2026",
    # "from 2025 to Q1 2026"): read, it is split into the period and its base instead of silently dropped.
    # A number with a currency after it, or the first bound of an amount range, is money ("less than 2000 EUR",
    # "from 2000 to 5000 EUR"), never a year; "than" compares amounts, not periods.
    ("bare_year", re.compile(r"(?:\b(?:in|during|for|of|vs\.?|versus|against|compared\s+(?:with|to)|from|"
                             r"between|(?<=from\s\d{4}\s)to|(?<=between\s\d{4}\s)and)\s+"
                             r"(?:the\s+year\s+)?|(?<![\w./-])(?=(?:19|20)\d{2}\s+(?:spend|spending|purchases|"
                             r"invoices|totals?|expenditure|costs?|vs\.?|versus|compared|against)\b))"
                             r"((?:19|20)\d{2})\b(?![-/]\d)" + _NOT_MONEY_AFTER,
                             re.I)),
    # Terse questions name a year alone ("Xenon: spend with Helix 2025"); read only when nothing else names a
    # period and the number is no amount ("over 2025", "2025 EUR") and no part of a date or code.
    # ("Company B, 2025, after credits": a comma or full stop after it ends the clause, no decimal part)
    ("lone_year", re.compile(r"(?<![\w.,'’/-])(20\d{2})(?![\w'’/-]|[.,]\d|\s*(?:%|€|\$|£|eur\b|euros?\b|usd\b|chf\b|"
                             r"gbp\b|k\b|m\b|mio\b|tsd\b|teur\b|units?\b|pieces?\b|pcs\b))", re.I)),
)
#: A number after these words is an amount or a count, not a year ...
_NOT_A_YEAR_BEFORE = re.compile(r"(?:over|above|under|below|than|least|most|exceeding|exceeds?|top|bottom|first|"
                                r"no\.?|number|#|[<>=€$£]|eur|usd|chf|gbp)\s*$", re.I)
#: ... unless that currency word closes an amount of its own ("over 20.000 EUR 2025": the year follows it).
_AMOUNT_ENDS_BEFORE = re.compile(r"\d[\d.,']*\s*(?:k|m|mio\.?)?\s*(?:eur|usd|chf|gbp|€|\$|£)\s*$"
                                 # "invoiced in USD 2025": the invoices' currency, then the year
                                 r"|\b(?:invoiced\s+|billed\s+|spend\s+|spent\s+)?in\s+(?:eur|usd|chf|gbp)\s*$", re.I)
_VAGUE = re.compile(
    r"\b(recently|lately|a while ago|some time ago|in the past|these days|soon|last few|past few|"
    r"the other (?:day|week|month))\b",
    re.I,
)


@dataclass(frozen=True)
class PeriodResolution:
    """The outcome of reading periods from a question."""

    time_range: TimeRange | None
    ambiguous: bool = False
    reason: str | None = None
    mentions: tuple[str, ...] = ()
    #: Where each mention stands in the question (the reader's span accounting).
    spans: tuple[tuple[int, int], ...] = ()
    #: "as of March 2026": the period was named as a point in time (for a figure: year to date up to it, or the
    #: period alone?), with the words that named it.
    point_in_time: str | None = None
    #: The parts of a list that is no single range ("Q3 2025 and Q1 2026"), in order: a figure may be given for
    #: each part.
    parts: tuple[TimeRange, ...] = ()


def quarter_start(year: int, quarter: int) -> dt.date:
    """First day of a quarter."""
    return dt.date(year, 3 * (quarter - 1) + 1, 1)


def add_months(day: dt.date, months: int) -> dt.date:
    """The first of the month ``months`` after ``day``'s month (day must be a first of month)."""
    index = day.year * 12 + (day.month - 1) + months
    return dt.date(index // 12, index % 12 + 1, 1)


def _quarter(year: int, quarter: int, text: str) -> TimeRange:
    start = quarter_start(year, quarter)
    return TimeRange(start=start, end=add_months(start, 3), label=f"{year}-Q{quarter}", source_text=text)


def _month(year: int, month: int, text: str) -> TimeRange:
    start = dt.date(year, month, 1)
    return TimeRange(start=start, end=add_months(start, 1), label=f"{year}-{month:02d}", source_text=text)


def _year(year: int, text: str) -> TimeRange:
    return TimeRange(start=dt.date(year, 1, 1), end=dt.date(year + 1, 1, 1), label=str(year), source_text=text)


def _latest_started_quarter(quarter: int, as_of: dt.date) -> int:
    year = as_of.year
    return year if quarter_start(year, quarter) <= as_of else year - 1


def _latest_started_month(month: int, as_of: dt.date) -> int:
    return as_of.year if dt.date(as_of.year, month, 1) <= as_of else as_of.year - 1


def _half(year: int, half: int, text: str) -> TimeRange:
    start = dt.date(year, 1 if half == 1 else 7, 1)
    return TimeRange(start=start, end=add_months(start, 6), label=f"{year}-H{half}", source_text=text)


def _to_date(start: dt.date, as_of: dt.date, label: str, text: str) -> TimeRange:
    """From ``start`` through the as-of day (inclusive, so the half-open end is the day after)."""
    return TimeRange(start=start, end=as_of + dt.timedelta(days=1), label=label, source_text=text)


def fiscal_year_start_month() -> int:
    """The first month of the fiscal year (``PROCURA_FISCAL_YEAR_START_MONTH``, 1-12; default 1, the calendar
    year). A fiscal year is named by the calendar year it ends in (FY2026 with an April start is
    2025-04-01 to 2026-04-01)."""
    raw = os.environ.get("PROCURA_FISCAL_YEAR_START_MONTH", "1").strip() or "1"
    month = int(raw) if raw.isdigit() else 0
    if not 1 <= month <= 12:
        raise ValueError(f"PROCURA_FISCAL_YEAR_START_MONTH: {raw!r} is not a month number 1-12")
    return month


def _fiscal_year(year: int, start_month: int, text: str) -> TimeRange:
    if start_month == 1:
        return TimeRange(start=dt.date(year, 1, 1), end=dt.date(year + 1, 1, 1), label=f"FY{year}",
                         source_text=text)
    start = dt.date(year - 1, start_month, 1)
    return TimeRange(start=start, end=add_months(start, 12), label=f"FY{year}", source_text=text)


def _relative(which: str, unit: str, as_of: dt.date, text: str) -> TimeRange:
    previous = which.lower() in ("last", "previous", "prior", "past")
    if unit == "qtr":
        unit = "quarter"
    if unit == "half":
        half = 1 if as_of.month <= 6 else 2
        year = as_of.year
        if previous:
            half, year = (2, year - 1) if half == 1 else (1, year)
        return _half(year, half, text)
    if unit == "quarter":
        quarter = (as_of.month - 1) // 3 + 1
        year = as_of.year
        if previous:
            quarter, year = (quarter - 1, year) if quarter > 1 else (4, year - 1)
        return _quarter(year, quarter, text)
    if unit == "week":
        monday = as_of - dt.timedelta(days=as_of.weekday())
        return _week(monday - dt.timedelta(days=7) if previous else monday, text)
    if unit == "month":
        start = dt.date(as_of.year, as_of.month, 1)
        if previous:
            start = add_months(start, -1)
        return _month(start.year, start.month, text)
    return _year(as_of.year - 1 if previous else as_of.year, text)


_ISO_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")


def _explicit(start_text: str, end_text: str, text: str, *, through: bool = False,
              before: bool = False) -> TimeRange:
    """The range between two written days.

    The second day is the exclusive end (the convention of "between 2026-01-01 and 2026-04-01"), except after
    "through", and when it is the last day of a month: nobody writes an exclusive end on the 31st, so "from
    2025-07-01 to 2025-12-31" includes December 31st. "to before" keeps it exclusive. A first day written
    without a year takes the second's (the year before when it would come after the second).
    """
    end = parse_day(end_text)
    if re.search(r"\d{4}", start_text):
        start = parse_day(start_text)
    else:
        start = parse_day(f"{start_text} {end.year}")
        if start > end:
            start = start.replace(year=end.year - 1)
    if not before and (through or (end + dt.timedelta(days=1)).day == 1):
        end += dt.timedelta(days=1)
    return _range(start, end, text)


def parse_day(text: str) -> dt.date:
    """A day written in one of the :data:`_DATE` forms.

    >>> [parse_day(t).isoformat() for t in ("2026-03-01", "1st of March 2026", "March 1, 2026", "01.03.2026")]
    ['2026-03-01', '2026-03-01', '2026-03-01', '2026-03-01']

    Raises:
        ValueError: no such day ("31 February 2026").
    """
    text = text.strip()
    if re.fullmatch(r"\d{4}-\d{2}-\d{2}", text):
        return dt.date.fromisoformat(text)
    if numeric := re.fullmatch(r"(\d{1,2})\.(\d{1,2})\.(\d{4})", text):
        return dt.date(int(numeric[3]), int(numeric[2]), int(numeric[1]))
    month = re.search(rf"(?i)\b({_MONTH_NAMES})\b", text)
    numbers = re.findall(r"\d+", text)
    if month is None or len(numbers) != 2:
        raise ValueError(text)
    return dt.date(int(numbers[1]), _MONTHS[month[1].lower()], int(numbers[0]))


def add_months_to_day(day: dt.date, months: int) -> dt.date:
    """The same day ``months`` later (earlier when negative), clamped to the last day of a shorter month."""
    first = add_months(day.replace(day=1), months)
    last = (add_months(first, 1) - dt.timedelta(days=1)).day
    return first.replace(day=min(day.day, last))


_UNIT_MONTHS = {"month": 1, "quarter": 3, "year": 12}


def rolling_window(count: int, unit: str, as_of: dt.date, text: str = "") -> TimeRange:
    """The ``count`` days/weeks/months/quarters/years ending at the as-of date (included).

    >>> w = rolling_window(3, "months", dt.date(2026, 5, 15)); (w.start, w.end)
    (datetime.date(2026, 2, 16), datetime.date(2026, 5, 16))
    """
    unit = unit.lower().rstrip("s")
    end = as_of + dt.timedelta(days=1)
    if unit in ("day", "week"):
        start = end - dt.timedelta(days=count * (7 if unit == "week" else 1))
    else:
        start = add_months_to_day(end, -count * _UNIT_MONTHS[unit])
    plural = unit if count == 1 else f"{unit}s"
    return TimeRange(start=start, end=end, label=f"the {count} {plural} to {as_of}", source_text=text)


def _week(monday: dt.date, text: str) -> TimeRange:
    year, week, _ = monday.isocalendar()
    return TimeRange(start=monday, end=monday + dt.timedelta(days=7), label=f"{year}-W{week:02d}", source_text=text)


class _Gap(ValueError):
    """A period list whose parts are not adjacent ("Q1 and Q3"): no single range, asked about (or answered per
    part by a figure that can be computed for each)."""

    def __init__(self, message: str, parts: tuple[TimeRange, ...] = ()) -> None:
        super().__init__(message)
        self.parts = parts


class ListedPeriods(TimeRange):
    """Adjacent periods named as a list ("H2 2025 and Q1 2026"): their union, with the parts kept. A list asks
    either for the total over the parts or for each part's figure, so a spend answer gives both; the parts do not
    serialize (the field is not :class:`TimeRange`'s), so the contract's JSON is the union's."""

    parts: tuple[TimeRange, ...] = ()


def _union(parts: list[TimeRange], text: str) -> TimeRange:
    """Adjacent periods of a list as one range; parts with a gap between them are no range."""
    ordered = sorted({(p.start, p.end): p for p in parts}.values(), key=lambda p: p.start)
    for before, after in pairwise(ordered):
        if before.end > after.start:
            # Overlapping parts ("Q1 and March"): neither their union nor one figure each is clearly meant.
            raise _Gap(f"the periods {', '.join(p.label for p in ordered)} of {text!r} overlap: which one do you "
                       "mean?")
        if before.end != after.start:
            raise _Gap(f"the periods {', '.join(p.label for p in ordered)} of {text!r} are not adjacent: one "
                       "figure for each, or their total?", tuple(ordered))
    start, end = ordered[0].start, ordered[-1].end
    return ListedPeriods(start=start, end=end, label=" + ".join(p.label for p in ordered), source_text=text,
                         parts=tuple(ordered))


def _plain(period: TimeRange) -> TimeRange:
    """``period`` without the parts of a list (the question asked for their union only)."""
    return TimeRange(start=period.start, end=period.end, label=period.label, source_text=period.source_text)


def _two_digit_year(text: str) -> int:
    return int(text) if len(text) == 4 else 2000 + int(text)


#: A comparison between the parts of a list ("Q1 and Q2 compared"): the parts stay separate periods.
_FOUR_DIGITS = re.compile(r"(?<![\w.,-])((?:19|20)\d{2})(?![\w-]|[.,]\d)")
_COMPARING = re.compile(r"\b(?:compar\w*|vs\.?|versus|against|difference|relative to|growth|trend)\b|"
                        + CHANGE_VERBS.pattern, re.I)
_POINT_IN_TIME = re.compile(r"\bas\s+(?:(?:of|at|per)\s+(?:the\s+)?(?:end(?:\s+of)?\s+)?)?$", re.I)


#: Periods that do not exist ("Q5 2025", "2025-Q0", "H3", "the 13th month of 2025", "month 14", "2025-13"): read,
#: they would fall back to the year around them (a silent wrong figure); they are asked about, named.
_INVALID_ORDINAL = r"(?:(?:1[3-9]|[2-9]\d)(?:st|nd|rd|th)|thirteenth|fourteenth|fifteenth|twentieth)"
#: "5th quarter", "the third half-year", "0th quarter": ordinals past the parts a year has.
_INVALID_QUARTER = (r"(?:(?:0|[5-9]|[1-9]\d+)(?:st|nd|rd|th)|zeroth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|"
                    r"twelfth)")
_INVALID_HALF = r"(?:(?:0|[3-9]|[1-9]\d+)(?:st|nd|rd|th)|zeroth|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth)"
_INVALID_WEEK = r"(?:0?0|5[4-9]|[6-9]\d|\d{3,})"
_INVALID = re.compile(
    r"(?<![\w-])(?:q(?:0|[5-9]|\d{2})|(?:0|[5-9])q|h(?:0|[3-9])|(?:0|[3-9])h)(?:[\s,/'’-]*(?:of\s+)?(?:20)?\d{2}\b)?"
    r"(?![\w-])|"
    r"\b\d{4}[- ]?(?:q(?:0|[5-9])|h(?:0|[3-9]))\b|"
    rf"\b(?:the\s+)?(?:{_INVALID_QUARTER}\s+quarter|{_INVALID_HALF}\s+half(?:[\s-]?year)?)\b"
    r"(?:\s+(?:of\s+|in\s+)?\d{4})?|"
    # German ordinals ("5. Halbjahr", "13. Monat", "6. Quartal"): "1. Halbjahr" is read in router/german.py
    r"(?<![\w.])(?:(?:0|[5-9]|[1-9]\d+)\.\s*(?:quartal|vierteljahr)\w*|(?:0|[3-9]|[1-9]\d+)\.\s*halbjahr\w*|"
    r"(?:0|1[3-9]|[2-9]\d|\d{3,})\.\s*monat\w*)(?:\s+(?:in\s+|des\s+jahres\s+)?\d{4})?|"
    rf"\b(?:the\s+)?{_INVALID_ORDINAL}\s+month\b(?:\s+(?:of\s+)?\d{{4}})?|"
    r"\bmonth\s+(?:1[3-9]|[2-9]\d|0)\b(?:\s+(?:of\s+)?\d{4})?|"
    r"(?<![\w-])\d{4}-(?:1[3-9]|00)(?![\w-])|"
    # "week 54 of 2025", "calendar week 0", "KW 60", "2025-W54": no ISO year has more than 53 weeks
    rf"\b(?:(?:calendar|iso|fiscal)\s+)?(?:week|wk|kw|cw)\s?(?:no\.?\s?|number\s|#\s?)?{_INVALID_WEEK}\b"
    r"(?:\s*(?:of|,|in)?\s*(?:19|20)\d{2}\b)?|"
    rf"\b\d{{4}}-?w{_INVALID_WEEK}\b",
    re.I,
)


def invalid_period(question: str) -> tuple[str, tuple[int, int]] | None:
    """The words of a period that does not exist, and where they stand, or ``None``."""
    found = _INVALID.search(question)
    if found is None:
        return None
    return " ".join(found.group(0).split()), found.span()


_ORDINAL_PART = r"(?:first|1st|second|2nd|third|3rd|fourth|4th|fifth|5th|last|final|opening|closing)"
#: "the 12th month of 2025", "the ninth month of 2025", "12. Monat 2025": a month counted within a year whose
#: months are the calendar's or the fiscal year's; asked about like the other parts (past twelve: _INVALID).
_MONTH_ORDINAL = (r"(?:(?:0?[1-9]|1[0-2])(?:st|nd|rd|th)|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth)")
_MONTH_NAME = (r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|"
               r"oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\b")
#: A part of a named period ("the first week of March 2026", "the last month of Q1", "the second half of March"):
#: no pattern reads it, so the named period around it would be read whole (a silent figure for the whole month or
#: quarter); which days such a part is (a calendar week from Monday or days 1 to 7) is asked about, named.
_PART_OF = re.compile(
    rf"\b(?:the\s+)?{_ORDINAL_PART}\s+(?:full\s+|calendar\s+|whole\s+)?(?:weeks?|fortnight|ten\s+days|\d+\s+days)\s+"
    r"(?:of|in)\s+(?:(?:the|this|last|next|that)\s+)?[\w'’-]+(?:\s+\d{4})?"
    rf"|\b(?:the\s+)?{_ORDINAL_PART}\s+(?:full\s+|calendar\s+)?months?\s+(?:of|in)\s+(?:the\s+)?"
    r"(?:q[1-4]|h[12]|quarter|half|year|fy|\d{4})\b(?:\s+\d{4})?"
    rf"|\b(?:the\s+)?{_ORDINAL_PART}\s+half\s+(?:of|in)\s+{_MONTH_NAME}(?:\s+\d{{4}})?"
    rf"|\b(?:the\s+)?{_MONTH_ORDINAL}\s+month\s+(?:of|in)\s+(?:the\s+)?(?:year|fy|\d{{4}})\b(?:\s+\d{{4}})?"
    r"|(?<![\w.])(?:0?[1-9]|1[0-2])\.\s*monat\w*(?:\s+(?:in\s+|des\s+jahres\s+)?\d{4})?", re.I)


def part_of_period(question: str) -> tuple[str, tuple[int, int]] | None:
    """The words of a part of a named period (a week of a month, a month of a quarter), or ``None``."""
    found = _PART_OF.search(question)
    if found is None:
        return None
    return " ".join(found.group(0).split()), found.span()


def _range(start: dt.date, end: dt.date, text: str) -> TimeRange:
    """A range named by its bounds, labelled as the half-open range itself."""
    return TimeRange(start=start, end=end, label=f"[{start}, {end})", source_text=text)


#: Where "ever" and "all periods" start: before any document on file (the listings' history start).
HISTORY_START = dt.date(1990, 1, 1)


class _Unclear(ValueError):
    """Words that name a period in two ways ("mar 17": March 2017 or the 17th of March): asked about, named."""

    def __init__(self, message: str, span: tuple[int, int]) -> None:
        super().__init__(message)
        self.span = span


#: A quarter, half or month with a two-digit year after a space ("Q3 25", "H2 25", "jul 25"): written out as
#: "Q3 2025" before the period patterns read it (each pattern then reads the short year as it reads a long one:
#: "Q3 25 - Q1 26" is a range, "since jul 25" starts in July 2025, "q3 25 vs q4 25" compares two quarters).
#: Not a day ("on Dec 25", "Dec 25th", "Dec 25, 2025"), an amount ("Q3 25k", "Q3 25.000 EUR", "Q3 25%") or a
#: count ("Q1 10 largest invoices").
_SHORT_YEAR = re.compile(
    # (a month after another and a dash, "Jul-Dec 25", takes the year too: the range's year)
    rf"(?:(?<![\w'’/.-])|(?<=[a-z]-))(?:(?P<part>[qh][1-4])|(?<!\bon\s)(?<!\bof\s)(?<!\bat\s)(?<!\bthe\s)"
    rf"(?P<month>{_MONTH_NAMES})\.?)"
    r"\s+(?P<yy>\d{2})(?![\w/.:'’]|-\d|[.,]\d|,?\s+\d{4}|\s*(?:st|nd|rd|th)\b|%|\s*(?:€|\$|£|eur\b|euros?\b|usd\b|"
    r"chf\b|gbp\b|k\b|tsd\b|mio\b|%\s*of\b))"
    r"(?!\s+(?:largest|biggest|highest|lowest|smallest|top|most|least|suppliers?|vendors?|invoices?|products?|items?|"
    r"units?|pieces?|pcs|lines?|days?|weeks?|months?|years?|documents?|orders?)\b)",
    re.I,
)
#: Explicit days are read first: "Jan 25 - Feb 3 2026", "between Jan 25 and Feb 3, 2026" keep their day.
_DAY_FORMS = tuple(p for k, p in _PATTERNS if k in ("day_span", "from_to_open_year", "between", "between_day_month_end",
                                                    "from_to", "until_day",
                                                    "until_date", "on_date", "day", "since_date"))


_SINCE_UNTIL_DAY = re.compile(rf"\b(?:since|{_UNTIL})\s+(?:the\s+)?{_DAY_NO_YEAR}", re.I)


def _expand_short_years(question: str, as_of: dt.date) -> tuple[str, tuple[int, ...]]:
    """``question`` with each two-digit year after a quarter, half or month written with four digits, and for each
    character of the new text (and its end) the position it comes from in ``question``.

    The year is 20YY when that is close to the as-of date (within ten years before it or one after it for a
    quarter or half; three before or one after for a month, whose number may as well be a day): "mar 17" as of
    2026 may be March 2017 or the 17th of March, "Q1 40" no quarter anyone asks about. Those are asked about
    (:class:`_Unclear`), never read as a year nobody meant.
    """
    taken = [m.span() for p in _DAY_FORMS for m in p.finditer(question)]
    #: "since January 16", "until March 18": a day when the number is no year near the as-of date
    days = [m.span() for m in _SINCE_UNTIL_DAY.finditer(question)]
    pieces: list[str] = []
    origin: list[int] = []
    at = 0
    for match in _SHORT_YEAR.finditer(question):
        if any(match.start() < end and start < match.end() for start, end in taken):
            continue
        if match.group("part") and match.group("part").lower().startswith("h") and match.group("part")[1] not in "12":
            continue  # "H3 25" is no half (read as an invalid period)
        year = 2000 + int(match.group("yy"))
        before = 3 if match.group("month") else 10
        if not as_of.year - before <= year <= as_of.year + 1:
            if match.group("month") and any(s <= match.start() and match.end() <= e for s, e in days):
                continue
            words = " ".join(match.group(0).split())
            if match.group("month") and int(match.group("yy")) <= 31:
                raise _Unclear(f"{words!r} may be {match.group('month').title()} {year} or day "
                               f"{int(match.group('yy'))} of {match.group('month').title()}: which one do you mean?",
                               match.span())
            raise _Unclear(f"{words!r} names the year {year}, far from the as-of date {as_of}: which year do you "
                           "mean?", match.span())
        cut = match.start("yy")
        pieces.append(question[at:cut])
        origin.extend(range(at, cut))
        pieces.append("20")
        origin.extend((cut, cut))
        at = cut
    pieces.append(question[at:])
    origin.extend(range(at, len(question) + 1))
    return "".join(pieces), tuple(origin)


#: A slashed calendar day, "01/07/2025", "7/1/2025": day/month or month/day, as the question's other days show.
#: A dashed day ("15-9-2025", "03-04-2026") is the same notation with another separator, read the same way.
_SLASHED_DAY = re.compile(r"(?<![\w/.-])(\d{1,2})[/-](\d{1,2})[/-]((?:19|20)\d{2})(?![\w/-]|[.,]\d)")


_DOTTED_DAY = re.compile(r"(?<![\w/.-])\d{1,2}\.\d{1,2}\.(?:19|20)\d{2}(?![\w/-])")


def unsettled_slashed_day(question: str) -> str | None:
    """The two readings of a slashed day :func:`slashed_days` left unread ("03/02/2026": 3 February or March 2),
    as a question back naming both, or ``None`` when there is none. Never guessed: a wrong order is a wrong
    period with a confident figure."""
    for m in _SLASHED_DAY.finditer(question):
        first, second, year = int(m.group(1)), int(m.group(2)), int(m.group(3))
        if first != second and 1 <= first <= 12 and 1 <= second <= 12:
            day_first = dt.date(year, second, first).strftime("%-d %B %Y")
            month_first = dt.date(year, first, second).strftime("%-d %B %Y")
            return (f"{m.group(0)!r} may be {day_first} (day first) or {month_first} (month first): which one do "
                    "you mean?")
    return None


def _one_order_on_file(found: list[re.Match[str]], as_of: dt.date | None) -> str | None:
    """"day_first" or "month_first" when exactly one order makes every slashed day a calendar day on or before
    ``as_of`` with the days in the order written, the other a range reaching past ``as_of`` ("7/11/2025 -
    9/1/2026" as of 2026-03-30: 7 November to 9 January; read month first its end, 1 September 2026, is a day no
    invoice can carry yet), else ``None``."""
    if as_of is None or len(found) < 2:
        return None
    fits: list[str] = []
    future = False  # the other order fails only by naming a day after the as-of date
    for order in ("day_first", "month_first"):
        days: list[dt.date] = []
        for m in found:
            day, month = (int(m.group(1)), int(m.group(2)))
            if order == "month_first":
                day, month = month, day
            try:
                days.append(dt.date(int(m.group(3)), month, day))
            except ValueError:
                break
        if len(days) < len(found) or days != sorted(days):
            continue
        if all(d <= as_of for d in days):
            fits.append(order)
        else:
            future = True
    return fits[0] if len(fits) == 1 and future else None


def slashed_days(question: str, as_of: dt.date | None = None) -> str:
    """``question`` with its slashed days written day.month.year (the form :data:`_DATE` reads), when the question
    itself settles their order: a first part above 12 ("31/12/2025") makes every slashed day of the question
    day/month ("for the period 01/07/2025 to 31/12/2025"), a second part above 12 month/day ("07/01/2025 to
    12/31/2025"), or every slashed day reading the same both ways ("since 01/01/2025"). When nothing settles it
    (or both orders are written) the days stay unread and the period is asked about, never guessed. Each rewrite
    keeps the text's length, so every span stays where it was."""
    found = list(_SLASHED_DAY.finditer(question))
    # a dotted day beside it ("from 01.02.2026 to 03/04/2026") is written day first, so the slashed one is too
    day_first = any(int(m.group(1)) > 12 for m in found) or bool(found and _DOTTED_DAY.search(question))
    month_first = any(int(m.group(2)) > 12 for m in found)
    if not day_first and not month_first and found and all(int(m.group(1)) == int(m.group(2)) for m in found):
        # "since 01/01/2025": day and month are the same number, so both orders name the same day
        day_first = True
    if not day_first and not month_first and found:
        # nothing in the question settles it: the deployment's order if it sets one (PROCURA_SLASH_DATE_ORDER,
        # procura/settings.py), else left unread and asked back with both readings (unsettled_slashed_day)
        order = os.environ.get("PROCURA_SLASH_DATE_ORDER", "ask")
        # a range of slashed days that only one order keeps on file and in its written order is that order
        order = _one_order_on_file(found, as_of) or order
        day_first, month_first = order == "day_first", order == "month_first"
    if day_first == month_first:
        return question

    def dotted(m: re.Match[str]) -> str:
        day, month = (m.group(1), m.group(2)) if day_first else (m.group(2), m.group(1))
        if not (1 <= int(month) <= 12 and 1 <= int(day) <= 31):
            return m.group(0)  # no day of any calendar: left unread, so asked about
        return f"{day}.{month}.{m.group(3)}"

    return _SLASHED_DAY.sub(dotted, question)


def resolve_period(question: str, as_of: dt.date, fiscal_start_month: int | None = None) -> PeriodResolution:
    """Find the period a question names and resolve it against ``as_of`` (two-digit years written out first, the
    spans given back in the question's own positions).

    >>> resolve_period("spend in Q3 25", dt.date(2026, 9, 15)).time_range.label
    '2025-Q3'
    """
    unread = unread_month_word(question)
    if unread is not None:
        # "22 settembte 2025": a month word no table knows, in a month's place; read without it, the year alone
        # would be a confident whole-year figure for a one-day or one-month question (router/period_words.py)
        return PeriodResolution(None, True, f"the month in {unread[0]!r} is not one I know: which month do you "
                                "mean?", (unread[0],), (unread[1],))
    unread = unread_part_word(question)
    if unread is not None:
        # "3. kvartil 2025": a part of a year whose unit word no table knows; the year alone would be a silent
        # whole-year figure (router/period_words.py)
        return PeriodResolution(None, True, f"the part of the year in {unread[0]!r} is not one I know: which "
                                "quarter, half or month do you mean?", (unread[0],), (unread[1],))
    question = slashed_days(question, as_of)
    # "since 01-Oct-25", "Mar-2026": written out first, each position mapped back to the question's
    clerk, written = clerk_dates(question, as_of)
    try:
        text, expanded = _expand_short_years(clerk, as_of)
    except _Unclear as unclear:
        span = (written[unclear.span[0]], written[unclear.span[1]])
        return PeriodResolution(None, True, str(unclear), (question[slice(*span)],), (span,))
    origin = tuple(written[i] for i in expanded)
    resolved = _resolve(text, as_of, fiscal_start_month)
    # "helix ypsilon jan?", "kestrel may 20-27": a month or days left unread for want of a year, written out with
    # the latest such year not after the as-of date (router/month_years.py)
    from router.month_years import with_years  # (it reads this module's month table)

    # one owner per span: a year is added only to a month standing alone as the period; a month beside a period
    # read is the leftover/gloss rule's (router/period_leftovers.py), never a second period
    # (an end read without its start, "from september up to new year": the month left unread is that start)
    # (and a month in a bracket that moves the start of the period read, "H2 2025 (from sept.)": its year makes
    # it the bracket's start, read by _gloss; left unread it was silently dropped)
    dated = (with_years(text, as_of, resolved.spans)
             if (resolved.reason and resolved.reason.endswith(_NO_START))
             or (not resolved.ambiguous and _MOVED_BRACKET.search(text))
             else None if resolved.ambiguous or resolved.spans else with_years(text, as_of, resolved.spans))
    if dated is not None:
        text, origin = dated[0], tuple(origin[i] for i in dated[1])
        resolved = _resolve(text, as_of, fiscal_start_month)
    # a slashed day left unread beside a period read ("01/09/2025 - 10 December 2025") is a range read in part:
    # asked about, never the other end alone
    unsettled = unsettled_slashed_day(question)
    if unsettled is not None:
        found = _SLASHED_DAY.search(question)
        assert found is not None  # unsettled_slashed_day found one
        return PeriodResolution(None, True, unsettled, (found.group(0),), (found.span(),))
    if text != question:
        resolved = replace(resolved, spans=tuple((origin[s], origin[e]) for s, e in resolved.spans))
    if resolved.time_range is not None and not resolved.ambiguous:
        # every date-like token must be consumed: one left beside the period read ("3. Qu. 2025" read as 2025,
        # "H2 2025 (Oct)") is a period read in part, named back, never answered with the part
        # (router/period_leftovers.py)
        left = unconsumed_date_token(question, resolved.spans,
                                     (resolved.time_range.start, resolved.time_range.end))
        if left is not None:
            return PeriodResolution(None, True, f"I read {resolved.time_range.label} but not {left[0]!r} beside it: "
                                    "which period do you mean?", (*resolved.mentions, left[0]),
                                    (*resolved.spans, left[1]))
        # "the 2 weeks from <day>" read as the day alone: the duration is named back, never one day's figure
        duration = unread_duration(question, resolved.spans, (resolved.time_range.start, resolved.time_range.end))
        if duration is not None:
            return PeriodResolution(None, True, f"I read {resolved.time_range.label} but not {duration[0]!r} before "
                                    "it: which period do you mean?", (*resolved.mentions, duration[0]),
                                    (*resolved.spans, duration[1]))
    elif resolved.time_range is None and not resolved.ambiguous:
        # "the quarter gone by", "that fortnight": a unit named as the period, unread; left so, a listing ran over
        # every date on file and a figure asked without naming what was not understood
        phrase = unread_unit_phrase(question)
        if phrase is not None:
            return PeriodResolution(None, True, f"I did not read {phrase[0]!r} as a period: which period do you "
                                    "mean?", (phrase[0],), (phrase[1],))
    return resolved


def _resolve(question: str, as_of: dt.date, fiscal_start_month: int | None = None) -> PeriodResolution:
    """Find the period a question names and resolve it against ``as_of``.

    >>> resolve_period("spend during the last quarter", dt.date(2026, 5, 15)).time_range.label
    '2026-Q1'
    >>> resolve_period("what did we spend in March?", dt.date(2026, 5, 15)).time_range.start
    datetime.date(2026, 3, 1)
    >>> resolve_period("what did we spend recently?", dt.date(2026, 5, 15)).ambiguous
    True
    """
    invalid = invalid_period(question)
    if invalid is not None:
        words, where = invalid
        return PeriodResolution(None, True, f"the period {words!r} does not exist (a year has quarters Q1 to Q4, "
                                "halves H1 and H2, twelve months and calendar weeks 1 to 52 or 53)", (words,),
                                (where,))
    part = part_of_period(question)
    if part is not None:
        words, where = part
        return PeriodResolution(None, True, f"the period {words!r} is a part of a period whose days are not "
                                "certain (a week: a calendar week from Monday, or days 1 to 7?); give the dates",
                                (words,), (where,))
    found: list[TimeRange] = []
    consumed: list[tuple[int, int]] = []
    mentions: list[str] = []
    #: Open ranges: where a period starts ("since March") and where one ends ("until March", "before Q2").
    starts: list[TimeRange] = []
    ends: list[tuple[dt.date, str]] = []
    end_spans: list[tuple[int, int]] = []
    lone_years = 0
    point_in_time: str | None = None
    found_spans: list[tuple[int, int]] = []
    start_spans: list[tuple[int, int]] = []
    lone_listed = False  # a year standing alone is no list part ("2024 and 2025" is asked about)
    comparing = _COMPARING.search(question) is not None
    for kind, pattern in _PATTERNS:
        if (kind.endswith(("_list", "_span_range")) or kind.startswith("between_")) and comparing and not (
                kind == "year_span_range" and _only_period(question, pattern)):
            continue  # "Q1 and Q2 compared": two periods, split by the comparison reader
        if kind.endswith("_paired") and not comparing:
            continue
        for match in pattern.finditer(question):
            span = match.span()
            if any(span[0] < end and start < span[1] for start, end in consumed):
                continue  # part of a longer form already read (e.g. "Q1" inside "Q1 2026")
            text = match.group(0)
            try:
                period = _read(kind, match, as_of, text, fiscal_start_month)
            except _Gap as gap:
                return PeriodResolution(None, True, str(gap), (text,), (span,), parts=gap.parts)
            except ValueError:
                return PeriodResolution(None, True, f"the period {text!r} is not a valid date range", (text,),
                                        (span,))
            if period is None:
                continue
            if kind in ("compared_month", "compared_quarter", "month_paired", "quarter_paired"):
                text = f"{text} {period.start.year}"  # its year, read from the other side, goes with it
            listed_after = kind == "lone_year" and any(
                _GLUE_ONLY.fullmatch(question[end:span[0]]) or _GLUE_EACH.fullmatch(question[end:span[0]])
                for _, end in found_spans)
            if kind == "lone_year" and not listed_after:
                # (an open end in another clause is context: "Xenon 2025 — not approved until Oct 2026")
                if (len(found) > lone_years or starts
                        or any(_same_clause(question, span, other) for other in end_spans)
                        or (_NOT_A_YEAR_BEFORE.search(question, 0, span[0])
                            and not _AMOUNT_ENDS_BEFORE.search(question, 0, span[0]))):
                    continue
                lone_years += 1
            cue = _UNTIL_BEFORE.search(question, 0, span[0]) if not kind.startswith("until_") else None
            if cue is not None and not any(cue.start() < end and start < span[0] for start, end in consumed):
                span, text = (cue.start(), span[1]), question[cue.start():span[1]]
            point = _POINT_IN_TIME.search(question, 0, span[0])
            if kind == "on_date" and re.match(r"as\s+(?:of|at)\b", text, re.I):
                point_in_time = text
            elif point is not None and cue is None and not kind.startswith("until_"):
                span, text = (point.start(), span[1]), question[point.start():span[1]]
                point_in_time = text
            opened = _opened(question, span, kind, comparing or cue is not None or point is not None)
            if (opened is None and cue is None and point is None
                    and (so_far := so_far_before(question, span[0], period, as_of)) is not None):
                opened = (so_far, span[1]), question[so_far:span[1]]  # "so far in FY2026": to the as-of date
            if opened is not None:
                span, text = opened
                period = _to_date(period.start, as_of, f"since {period.start.isoformat()}", text)
            elif (not comparing and cue is None and _GRAIN.search(question)
                  and (to := _GRAIN_TO.search(question, 0, span[0])) is not None):
                cue = to  # "quarterly from Q3 2025 to Q1 2026": with a grain, the later period ends the range
            consumed.append(span)
            mentions.append(text)
            if kind.startswith("until_") or cue is not None:
                before = re.match(r"\s*(?:before|prior)\b", text, re.I) is not None
                ends.append((period.start if before else period.end, text))
                end_spans.append(span)
            elif opened is not None or kind in ("since_date", "since_month", "since_start", "since_day"):
                starts.append(period)
                start_spans.append(span)
            else:
                found.append(period)
                found_spans.append(span)
                lone_listed = lone_listed or kind == "lone_year"
    asked = _asked_clause(question, [*found_spans, *start_spans, *end_spans])
    if asked is not None:
        # "Epsilon was phased out end of 2025. Did Company A still spend anything with it in 2026?": a period in a
        # clause that states context, not the figure asked, stays read (consumed) but is not the period
        def keep(span: tuple[int, int]) -> bool:
            return asked[0] <= span[0] and span[1] <= asked[1]
        found, found_spans = ([p for p, sp in zip(found, found_spans, strict=True) if keep(sp)],
                              [sp for sp in found_spans if keep(sp)])
        starts, start_spans = ([p for p, sp in zip(starts, start_spans, strict=True) if keep(sp)],
                               [sp for sp in start_spans if keep(sp)])
        ends = [e for e, sp in zip(ends, end_spans, strict=True) if keep(sp)]
    everything = [i for i, p in enumerate(found) if p.start == HISTORY_START and p.label.startswith("all dates")]
    if everything and ends and not starts and len(everything) == len(found):
        # "all periods thru 2026-04-30", "all time up to the end of Q1": everything on file up to that end
        starts, found, found_spans = [found[everything[0]]], [], []
    elif everything and len(everything) < len(found) + len(starts) + len(ends):
        # "did we ever buy from Beta in 2025": "ever" stresses the question; the other period is the one asked
        found_spans = [s for i, s in enumerate(found_spans) if i not in everything]
        found = [p for i, p in enumerate(found) if i not in everything]
    if ends:
        # (a period written before its end bound opens the range the bound closes: "Q3 2025 up to Q1 2026")
        before_end = bool(found_spans) and max(e for _, e in found_spans) <= min(s for s, _ in end_spans)
        return _open_range(found, starts, ends, tuple(mentions), tuple(consumed), before_end)
    if comparing:
        _previous_window(question, found, found_spans, mentions)
    elif found and len(starts) == 1:
        # "2025+2026 so far", "H2 2025 and 2026 to date": periods listed before one opened to the as-of date are
        # one span from the first one's start (when they follow each other with only list glue between them)
        order = sorted(range(len(found)), key=lambda i: found_spans[i][0])
        chain = [found_spans[i] for i in order] + start_spans
        ranges = [found[i] for i in order] + starts
        if (all(_GLUE_ONLY.fullmatch(question[a[1]:b[0]]) for a, b in pairwise(chain))
                and all(a.end == b.start for a, b in pairwise(ranges))):
            found, starts = [], [_to_date(ranges[0].start, as_of, f"since {ranges[0].start.isoformat()}",
                                          " + ".join(r.source_text for r in ranges))]
    elif (len({(p.start, p.end) for p in found}) > 1 and not starts and not lone_listed
          and year_to_date_of(found) is None):
        try:
            joined = _joined_list(question, found, found_spans)
        except _Gap as gap:
            return PeriodResolution(None, True, str(gap), tuple(mentions), tuple(consumed), parts=gap.parts)
        if joined is not None:
            found = [joined]
            # "Q4 2025 and Q1 2026 together": the word that asks for the union is part of the period.
            together = _TOGETHER.match(question, max(end for _, end in found_spans))
            if together is not None:
                consumed.append(together.span())
                found = [_plain(joined)]  # the union was asked for: no figure per part
    gloss = (_gloss(question, [*zip(found, found_spans, strict=True), *zip(starts, start_spans, strict=True)])
             if len(found) == len(found_spans) and len(starts) == len(start_spans) else None)
    if gloss is not None:
        found, starts = [gloss], []
    if point_in_time is not None:
        resolved = _resolve_found(question, found, starts, mentions, consumed)
        return PeriodResolution(resolved.time_range, resolved.ambiguous, resolved.reason, resolved.mentions,
                                resolved.spans, point_in_time)
    return _resolve_found(question, found, starts, mentions, consumed)


#: A period that opens a range running to the as-of date: "since Q3 2025", "from H2 2025 up to today", "starting
#: in Q4 2025 onwards", or "from Q3 2025 through Q1 2026" (the later period closes it).
_OPENS = re.compile(r"\b(?:(?P<since>since|starting(?:\s+(?:in|with|from))?|beginning\s+(?:in|with))|from)"
                    r"\s+(?:the\s+)?$", re.I)
_TO_NOW = re.compile(r"\s*,?\s*(?:(?:up\s+)?(?:to|until|till|through|thru)\s+(?:today|now|date|the\s+present"
                     r"(?:\s+day)?|the\s+as[- ]of\s+date)|onwards?|to\s+date|so\s+far)\b", re.I)
#: What opens a period to the as-of date with no lead word before it ("Q3 2025 to date").
_TO_DATE_ONLY = re.compile(r"\s*,?\s*(?:to\s+date|so\s+far|(?:up\s+)?(?:to|until|till)\s+(?:today|now)|onwards?)\b",
                           re.I)
#: One measure word between a period and its "to date" ("2026 spend to date").
#: ("2026 by spend till today": a ranking's measure between the period and its end word, in a ranking question)
_MEASURE_GAP = re.compile(r"\s+(?:by\s+)?(?:spend|spending|spent|purchases|purchasing|costs?|ausgaben)"
                          r"(?=\s*,?\s*(?:to\s+date|so\s+far|(?:up\s+)?(?:to|until|till)\s+(?:today|now))\b)", re.I)
#: "from Q3 2025 through Q1 2026": the later period closes the range ("from X to Y" may be a change: asked).
_THEN_TO = re.compile(r"\s*(?:until|till|through|thru)\s+(?:the\s+)?(?=\S)", re.I)
#: A grain ("quarterly", "per month") asks for buckets of one range: "from X to Y" is then that range, never a
#: change between X and Y.
_GRAIN = re.compile(r"\b(?:(?:per|by|each)\s+(?:calendar\s+)?(?:month|quarter|week)|monthly|quarterly|weekly|"
                    r"month[- ]by[- ]month|quarter[- ]by[- ]quarter|month[- ]on[- ]month)\b", re.I)
_GRAIN_THEN = re.compile(r"\s*(?:to|-|\u2013)\s*(?=\S)", re.I)
_GRAIN_TO = re.compile(r"\bfrom\s+\S[^,;?!]{1,30}?\s*(?:to|-|\u2013)\s*$", re.I)


def _opened(question: str, span: tuple[int, int], kind: str, skip: bool) -> tuple[tuple[int, int], str] | None:
    """The span and words of a period read as the start of a range to the as-of date (a grain over it then has a
    bucket for every period of the range, not only the first), or ``None``."""
    if skip or kind.startswith(("until_", "since_")) or kind.endswith(("_list", "_range", "_to")) or kind in (
            "between", "between_day_month_end",
            "rolling", "window_to_now", "window_before", "ttm", "ytd", "qtd", "mtd", "on_date", "day",
            "first_n", "day_span", "from_to_open_year", "fytd", "year_ytd",
            "all_history"):
        return None
    # "from 2025" is read with its preposition ("from" is one of the year's leads)
    lead = _OPENS.search(question, 0, span[0]) or re.compile(r"(?P<since>)from\s+", re.I).match(question, span[0])
    to_now = _TO_NOW.match(question, span[1])
    if lead is None:
        # "Q3 2025 to date", "2026 so far": the period opens a range to the as-of date without a lead word; so
        # does "2026 spend to date" (one measure word between: left unread, "date" was taken for a name, "Data
        # Loggers"); the measure word stays outside the period's span
        gap = _MEASURE_GAP.match(question, span[1]) if to_now is None else None
        at = gap.end() if gap is not None else span[1]
        to_now = _TO_NOW.match(question, at)
        if to_now is None or not _TO_DATE_ONLY.match(question, at):
            return None
        if gap is not None:
            return (span[0], to_now.end()), question[span[0]:span[1]] + question[at:to_now.end()]
        return (span[0], to_now.end()), question[span[0]:to_now.end()]
    then_to = _THEN_TO.match(question, span[1]) or (_GRAIN.search(question) and _GRAIN_THEN.match(question, span[1]))
    if not (lead.group("since") or to_now or then_to):
        return None  # "from Q3 2025" alone: a period (as "in Q3 2025")
    end = to_now.end() if to_now else span[1]
    return (lead.start(), end), question[lead.start():end]


_TOGETHER = re.compile(r"\s*,?\s*(?:taken\s+)?(?:together|combined|jointly|in\s+total|summed|added\s+up)\b", re.I)
_GLUE_ONLY = re.compile(r"\s*(?:,\s*(?:and\s+)?|&|\+|and|und)\s*", re.I)
#: "in January and in March": each period with its own preposition, two periods rather than one list.
_GLUE_EACH = re.compile(r"\s*(?:,\s*(?:and\s+)?|&|\+|and|und)\s*(?:in|for|during|im)\s+", re.I)
_PREVIOUS_WINDOW = re.compile(r"\b(?:previous|prior|preceding)\s|\s(?:before|prior|earlier)\b", re.I)


#: Where a clause ends: a sentence's end before a capital ("end of 2025. Did ..."; not "Instr. in"), a semicolon
#: or a spaced dash ("2025 — they weren't approved until Oct 2026").
_CLAUSE_END = re.compile(r"[.!?;](?=\s+[A-Z])|;|\s[—–]\s|\s-\s(?=[^\d\s])")
#: Words of the figure asked (a clause without any states context: "they weren't approved until Oct 2026").
_FIGURE_WORDS = re.compile(r"\b(?:spen[dt]|spending|how\s+much|how\s+many|totals?|invoices?|invoiced|paid|pay|bought|"
                           r"buy|purchased?|purchases|costs?|value|amount|figure|list|show|which|what|rank|top|count|"
                           r"ausgaben|rechnungen|wie\s+viel)\b|\?", re.I)


def _same_clause(question: str, a: tuple[int, int], b: tuple[int, int]) -> bool:
    """Whether no clause ends between two spans of the question."""
    first, second = sorted((a, b))
    return _CLAUSE_END.search(question, first[1], second[0]) is None


#: A clause that states context has a verb of state or change ("was phased out", "weren't approved until").
_CONTEXT_VERB = re.compile(r"\b(?:was|were|wasn['’]t|weren['’]t|is|are|isn['’]t|aren['’]t|been|became|phased|approved|"
                           r"expired|ended|started|began|signed|terminated|replaced|onboarded|delisted|introduced|"
                           r"launched|closed|moved|switched|renewed|valid|effective)\b", re.I)


def _asked_clause(question: str, spans: list[tuple[int, int]]) -> tuple[int, int] | None:
    """The one clause that asks the figure when the question's periods stand in more than one clause and the
    others only state context (no figure word, no question mark), or ``None``."""
    if len(spans) < 2:
        return None
    cuts = [0, *(m.end() for m in _CLAUSE_END.finditer(question)), len(question)]
    clauses = [(a, b) for a, b in pairwise(cuts) if any(a <= s < b for s, _ in spans)]
    if len(clauses) < 2:
        return None
    asking = [c for c in clauses if _FIGURE_WORDS.search(question, c[0], c[1])]
    if len(asking) != 1 or not all(_CONTEXT_VERB.search(question, c[0], c[1]) for c in clauses if c != asking[0]):
        return None
    return asking[0]


#: What stands between a period and a parenthesis that restates it ("last 12 months (May-Apr)", "from July 2026
#: on (H2)"): only the opening bracket, maybe after "on"/"onwards" or a comma.
#: ("H2 2025 (from Sept.)": a start word in the bracket moves the period's start.)
_GLOSS_BEFORE = re.compile(r"\s*(?:on(?:wards?)?\s*)?,?\s*\(\s*(?P<moved>(?:from|since|starting(?:\s+(?:in|with|"
                           r"from))?|beginning(?:\s+(?:in|with))?)\s+(?:the\s+)?)?", re.I)
#: The same restatement written with a word that says so instead of a bracket ("in December, so 1-24 Dec 2025",
#: "H2 2025 i.e. Jul-Dec"), maybe after a few words that describe the period ("December before the holidays,
#: so ..."): the words after the marker are the period meant.
_GLOSS_SAID = re.compile(r"(?:\s+[^\W\d_][\w'’-]*){0,3}\s*,?\s*(?:so|i\.\s?e\.?|ie|that\s+is|namely)\s*[,:]?\s*"
                         r"(?:\(\s*)?", re.I)
#: (a note after a comma may close the bracket: "(Jul-Dec, 6 months)")
_GLOSS_AFTER = re.compile(r"\s*(?:[,;]\s*[^()\d]{0,12}\d{0,2}[^()\d]{0,12})?\)")
#: How far the bounds of a period and its restatement may differ (a rolling window glossed by its calendar
#: months: "last 12 months (May-Apr)" as of 15 May).
_GLOSS_SLACK = dt.timedelta(days=31)
#: A parenthesis spelling out both bounds of its window ("(Jul-Dec)", "(Jul to Dec)"), not a lone part code.
_SPELLED_BOUNDS = re.compile(r"\w\s*(?:[-–—→]|->|\bto\b|\bthrough\b)\s*\w", re.I)


def _gloss(question: str, read: list[tuple[TimeRange, tuple[int, int]]]) -> TimeRange | None:
    """The period a parenthesis restates right after another ("last 12 months (May-Apr)", "from July 2026 on
    (H2)"): the parenthesis names the calendar units the writer meant, so it is the period, in the year of the
    period it glosses when it names none ("(H2)" after July 2026 is 2026-H2). ``None`` when there is no such pair
    or the two do not agree (two periods: asked about)."""
    if len(read) != 2:
        return None
    (outer, outer_span), (inner, inner_span) = sorted(read, key=lambda r: r[1][0])
    bracket = _GLOSS_BEFORE.fullmatch(question, outer_span[1], inner_span[0])
    said = None if bracket else _GLOSS_SAID.fullmatch(question, outer_span[1], inner_span[0])
    if not (bracket or said) or (("(" in (bracket or said).group(0)) and not _GLOSS_AFTER.match(question,
                                                                                                   inner_span[1])):
        return None
    year_written = bool(_FOUR_DIGITS.search(question, inner_span[0], inner_span[1]))
    if bracket and bracket.group("moved"):
        # "H2 2025 (from Sept.)": the bracket moves the period's start, in the period's year when it writes none
        try:
            start = inner.start if year_written else _first_after(inner.start.replace(year=outer.start.year - 1),
                                                                  outer.start - dt.timedelta(days=1))
        except ValueError:
            return None
        if outer.start <= start < outer.end:
            return _range(start, outer.end, question[outer_span[0]:inner_span[1] + 1])
        return None
    shifts = (0,) if year_written else (0, -1, 1)
    spelled_out = bool(_SPELLED_BOUNDS.search(question, inner_span[0], inner_span[1]))
    agreeing = []
    for years in shifts:
        try:
            start = inner.start.replace(year=inner.start.year + years)
            end = inner.end.replace(year=inner.end.year + years)
        except ValueError:
            continue
        if not years and start <= outer.start and outer.end <= end and (start, end) != (outer.start, outer.end):
            # a parenthesis around the period only places it: "Q1/2025 (last year)" is Q1 2025
            agreeing.append(TimeRange(start=outer.start, end=outer.end, label=outer.label,
                                      source_text=question[outer_span[0]:inner_span[1] + 1]))
        elif (start == outer.start or end == outer.end
                or (abs(start - outer.start) <= _GLOSS_SLACK and abs(end - outer.end) <= _GLOSS_SLACK)
                or (outer.start <= start and end <= outer.end)):
            # (a parenthesis inside the period narrows it when it writes its own year or spells out its bounds:
            # "FY2025 (Jul-Dec 25)", "calendar 2025 (Jul-Dec)" are July to December; a lone part code without
            # a year, "in 2025 (Q3)", "in 2024 (Q4)", may be the year or its part: asked about)
            if (not year_written and not spelled_out and outer.start <= start and end <= outer.end
                    and end - start < outer.end - outer.start - _GLOSS_SLACK):
                continue
            agreeing.append(TimeRange(start=start, end=end, label=inner.label if not years else f"[{start}, {end})",
                                      source_text=question[outer_span[0]:inner_span[1] + 1]))
    return agreeing[0] if len(agreeing) == 1 else None


def _joined_list(question: str, found: list[TimeRange], spans: list[tuple[int, int]]) -> TimeRange | None:
    """Periods named one after the other with only list glue between them ("Q4 2025 and Q1 2026") as their
    union, or ``None`` when other words stand between them (two periods of another kind: asked about)."""
    order = sorted(range(len(found)), key=lambda i: spans[i][0])
    glue = [question[spans[before][1]:spans[after][0]] for before, after in pairwise(order)]
    text = " and ".join(question[slice(*spans[i])] for i in order)
    if all(_GLUE_ONLY.fullmatch(g) for g in glue):
        return _union([found[i] for i in order], text)
    if all(_GLUE_ONLY.fullmatch(g) or _GLUE_EACH.fullmatch(g) for g in glue):
        # "in January 2026 and in March 2026": with a gap between them, one figure for each part can be given;
        # adjacent or overlapping ones stay two periods to ask about.
        ordered = sorted({(p.start, p.end): p for p in found}.values(), key=lambda p: p.start)
        if all(before.end < after.start for before, after in pairwise(ordered)):
            raise _Gap(f"the periods {', '.join(p.label for p in ordered)} of {text!r} are not adjacent: one "
                       "figure for each, or their total?", tuple(ordered))
    return None


def _previous_window(question: str, found: list[TimeRange], spans: list[tuple[int, int]],
                     mentions: list[str]) -> None:
    """In a comparison, "the previous 3 months" after "the last 3 months" is the window before it (a custom base
    in calendar units, which the metric's day-counted previous period is not). Named by its dates, so that the
    comparison reader resolves each of the two periods from its mention alone."""
    for i, (period, span) in enumerate(zip(found, spans, strict=True)):
        text = question[span[0]:span[1]]
        if not _PREVIOUS_WINDOW.search(text) or not period.label.startswith("the "):
            continue
        count, unit = period.label.replace(" full ", " ").split()[1:3]
        # (the current window may be whole units, "last 3 months", and "the 3 months before" a day-counted one)
        current = next((p for j, p in enumerate(found) if j != i and spans[j][0] < span[0] and (
            (p.start, p.end) == (period.start, period.end)
            or (p.label.startswith("the ") and p.label.replace(" full ", " ").split()[1:3] == [count, unit]))), None)
        if current is None:
            continue
        unit = unit.rstrip("s")
        end = current.start
        start = (end - dt.timedelta(days=int(count) * (7 if unit == "week" else 1)) if unit in ("day", "week")
                 else add_months_to_day(end, -int(count) * _UNIT_MONTHS[unit]))
        found[i] = _range(start, end, text)
        if text in mentions:
            mentions[mentions.index(text)] = f"between {start} and {end}"


def _resolve_found(question: str, found: list[TimeRange], starts: list[TimeRange], mentions: list[str],
                   consumed: list[tuple[int, int]]) -> PeriodResolution:
    found.extend(starts)
    if (to_date := year_to_date_of(found)) is not None:
        found = [to_date]  # "YTD spend (FY2026)": one period, the year to the as-of date
    distinct = {(p.start, p.end) for p in found}
    if len(distinct) > 1:
        labels = ", ".join(sorted({p.label for p in found}))
        return PeriodResolution(None, True, f"the question names more than one period ({labels})", tuple(mentions),
                                tuple(consumed))
    vague = _VAGUE.search(question)
    if vague and not found:
        return PeriodResolution(None, True, f"{vague.group(0)!r} does not name a period", (vague.group(0),),
                                (vague.span(),))
    period = found[0] if found else None
    if isinstance(period, ListedPeriods):
        together = next((m for m in (_TOGETHER.match(question, end) for _, end in consumed) if m), None)
        if together is not None:
            # "Q1 and Q2 2026 combined": the union was asked for, not a figure per part
            period = _plain(period)
            consumed = [*consumed, together.span()]
    return PeriodResolution(period, False, None, tuple(mentions), tuple(consumed))


def _open_range(
    found: list[TimeRange], starts: list[TimeRange], ends: list[tuple[dt.date, str]],
    mentions: tuple[str, ...], spans: tuple[tuple[int, int], ...], before_end: bool = False,
) -> PeriodResolution:
    """The range an end bound closes: from a "since" start, from the start of the one period that contains
    the bound ("in 2026 up to the end of March"), or from the start of the one period written before the bound
    ("from 1 Sep 2025 till end of Dec", "Q3 2025 up to Q1 2026": two periods joined by a range word are one range,
    from the first's start to the second's end). An end without a year is the first such end after the start
    ("till end of Dec", "up to new year": in the start's year). An end without a start is asked about, never
    guessed (the month alone, or everything before it, would both be silent guesses)."""
    if len({end for end, _ in ends}) > 1:
        return PeriodResolution(None, True, f"the question names more than one end ({', '.join(t for _, t in ends)})",
                                mentions, spans)
    end, end_text = ends[0]
    enclosing = {(p.start, p.end) for p in (*starts, *found)}
    if len(enclosing) == 1:
        ((start, outer),) = enclosing
        if not _YEAR_WRITTEN.search(end_text):
            end = _first_after(end, start)
        if start < end and (starts or end <= outer or before_end):
            return PeriodResolution(_range(start, end, " ".join(mentions)), False, None, mentions, spans)
        return PeriodResolution(None, True, f"{end_text!r} does not fall inside the period the question names",
                                mentions, spans)
    if len(enclosing) > 1:
        return PeriodResolution(None, True, "the question names more than one start", mentions, spans)
    return PeriodResolution(None, True, f"{end_text.strip()!r} {_NO_START}",
                            mentions, spans)


_NO_START = "says where the period ends, not where it starts"
_MOVED_BRACKET = re.compile(r"\(\s*(?:from|since|starting|beginning)\s+[^()\d]{3,20}\)", re.I)
#: A year written in an end bound ("end of Dec 2025", "Mar '26", "2026-03-31").
_YEAR_WRITTEN = re.compile(r"\d{4}|['’]\s?\d{2}\b|\b\d{2}\s*$|\bfy\s?\d{2}\b", re.I)


def _first_after(end: dt.date, start: dt.date) -> dt.date:
    """An end read without its year, moved to the first year in which it falls after ``start``."""
    for years in range(start.year - end.year - 1, start.year - end.year + 3):
        try:
            moved = end.replace(year=end.year + years)
        except ValueError:
            continue
        if moved > start:
            return moved
    return end


def _read(
    kind: str, match: re.Match[str], as_of: dt.date, text: str, fiscal_start_month: int | None = None
) -> TimeRange | None:
    g = match.groups()
    if kind == "fiscal_period":
        return read_fiscal_period(match, fiscal_start_month or fiscal_year_start_month())
    if kind in ("between", "from_to"):
        # "between 1 Oct and 15 Nov 2025", "between 15.01.2026 and 15.03.2026": days written as a writer writes them
        # name the days of the range, both ends in; an end on the first of a month keeps the half-open convention,
        # and an ISO end keeps the exclusive one of "between 2026-01-01 and 2026-04-01" (the notation the readers
        # themselves write a half-open period in)
        return _explicit(g[0], g[2], text, through=g[1].lower() in ("through", "thru") or (
            kind == "between" and not _ISO_DAY.fullmatch(g[2].strip()) and parse_day(g[2]).day != 1),
                         before="before" in match.group(0).lower())
    if kind == "between_day_month_end":
        last = dt.date(int(g[2]), _MONTHS[g[1].lower().rstrip(".")], 1)
        return _explicit(parse_day(g[0]).isoformat(), (add_months(last, 1) - dt.timedelta(days=1)).isoformat(), text,
                         through=True, before=False)
    if kind == "day_span":
        if g[0] and _MONTH_BEFORE.search(match.string, 0, match.start(1)):
            return None  # "between January 1 and 29 February 2024": the first day is a date of its own
        first, last, month, year = (g[0], g[2], g[3], g[4]) if g[0] else (g[6], g[8], g[5], g[9])
        month_number = _MONTHS[month.lower().rstrip(".")]
        start, end = dt.date(int(year), month_number, int(first)), dt.date(int(year), month_number, int(last))
        if start > end:
            raise ValueError(text)
        return _range(start, end + dt.timedelta(days=1), text)
    if kind == "from_to_open_year":
        start = parse_day(g[0])
        end_day = _day_in_year(g[2], start.year)
        if end_day < start:
            end_day = _day_in_year(g[2], start.year + 1)
        return _explicit(start.isoformat(), end_day.isoformat(), text, through=g[1].lower() in ("through", "thru"),
                         before="before" in match.group(0).lower())
    if kind == "all_history":
        return _to_date(HISTORY_START, as_of, "all dates on file up to the as-of date", text)
    if kind == "year_ytd":
        year = int(g[0] or g[1])
        if year != as_of.year:
            raise ValueError(text)
        return _read("ytd", match, as_of, text)
    if kind in ("until_day", "since_day"):
        written = set(_FOUR_DIGITS.findall(match.string))
        day = (_day_in_year(g[0], int(written.pop())) if len(written) == 1
               else _day_in_year(g[0], as_of.year))
        if not written and day > as_of:
            day = _day_in_year(g[0], as_of.year - 1)
        if kind == "since_day":
            return _to_date(day, as_of, f"since {day.isoformat()}", text)
        return TimeRange(start=day, end=day + dt.timedelta(days=1), label=str(day), source_text=text)
    if kind == "unit_ending":
        return _unit_ending(g[0], parse_day(g[1]), text)
    if kind == "year_to_now":
        return _read("ytd", match, as_of, text)
    if kind == "qualified_part":
        return _qualified_part(g, text, fiscal_start_month)
    if kind == "full_unit":
        return _relative("last", next(u for u in g if u).lower(), as_of, text)
    if kind == "before_last":
        return _units_back(g[0].lower(), 2, as_of, text)
    if kind == "units_ago":
        word = g[0].lower()
        count = 1 if word in ("a", "one") else _COUNTS.get(word) or int(word)
        if not 1 <= count <= 120:
            raise ValueError(text)
        return _units_back(g[1].lower().rstrip("s"), count, as_of, text)
    if kind == "iso_week":
        number = int(g[0] or g[3] or g[4])
        year_text = g[1] or g[2] or g[5]
        if year_text is None:  # the latest week of that number that has started by the as-of date
            year = as_of.isocalendar()[0]
            try:
                if dt.date.fromisocalendar(year, number, 1) > as_of:
                    year -= 1
            except ValueError:
                year -= 1
        else:
            year = int(year_text)
        return _week(dt.date.fromisocalendar(year, number, 1), text)  # ValueError: no such week (asked about)
    if kind == "fytd":
        start_month = fiscal_start_month or fiscal_year_start_month()
        named = g[0] or g[1]
        if named:
            # "FY26 YTD": a two-digit fiscal year is this century's, as "FY26" alone is read
            year = _fiscal_year(int(named) + (2000 if len(named) == 2 else 0), start_month, text)
        else:
            ends_in = as_of.year + (1 if start_month > 1 and as_of.month >= start_month else 0)
            year = _fiscal_year(ends_in, start_month, text)
        if not year.start <= as_of:
            raise ValueError(text)
        end = min(year.end, as_of + dt.timedelta(days=1))
        return TimeRange(start=year.start, end=end, label=f"{year.label} to {end - dt.timedelta(days=1)}",
                         source_text=text)
    if kind == "window_before":
        if not _COMPARING.search(match.string):
            raise ValueError(text)
        return rolling_window(_COUNTS.get(g[0].lower()) or int(g[0]), g[1], as_of, text)
    if kind in ("rolling", "window_to_now"):
        count = _COUNTS.get(g[0].lower()) or int(g[0])
        if not 1 <= count <= 3660:
            raise ValueError(text)
        if (kind == "rolling" and g[1].lower().startswith(("month", "quarter", "year"))
                and not re.match(r"(?:(?:in|over|during|for)\s+)?(?:the\s+)?rolling\b", text, re.I)):
            # "last 2 quarters", "past 6 months", "trailing 6 months": whole calendar units before the one holding
            # the as-of date, as "last quarter" is (every evaluation set's accounting policy for month windows:
            # "trailing N months", "TTM", "LTM", "L12M" are the N complete months before the as-of month); a
            # "rolling" window and day and week windows end at the as-of date ("rolling 3 months (complete months)"
            # is written "last 3 full months" by router/period_phrases.py)
            unit = g[1].lower() if g[1].lower().endswith("s") else f"{g[1].lower()}s"
            return _whole_units(count, unit, as_of, text)
        return rolling_window(count, g[1], as_of, text)
    if kind == "ttm":
        # TTM, LTM, L12M, T6M: the complete calendar months before the as-of month (the running month excluded)
        count = int(g[0]) if g[0] else 12
        if not 1 <= count <= 36:
            raise ValueError(text)
        if re.match(r"(?:the\s+)?rolling\b", text, re.I):
            return rolling_window(count, "months", as_of, text)  # "rolling 12 months": a window, as above
        return _whole_units(count, "months", as_of, text)
    if kind in ("compact_quarter", "compact_half"):
        part, year = (g[0], g[1]) if g[0] else (g[2], g[3])
        if kind == "compact_half":
            return _half(_two_digit_year(year), int(part), text)
        return _quarter(_two_digit_year(year), int(part), text)
    if kind in ("quarter_list", "half_list", "month_list"):
        year = _year_of(*g[:2]) if kind == "month_list" else None
        return _list(kind, text, str(year) if year else g[0] if kind != "month_list" else None, as_of)
    if kind == "since_start":
        if g[0] or g[2]:
            year = int(g[0] or g[2])
            return _to_date(dt.date(year, 1, 1), as_of, f"since {year}-01-01", text)
        unit = g[1].lower()
        first = (dt.date(as_of.year, 1, 1) if unit == "year" else dt.date(as_of.year, as_of.month, 1)
                 if unit == "month" else quarter_start(as_of.year, (as_of.month - 1) // 3 + 1))
        return _to_date(first, as_of, f"since {first.isoformat()}", text)
    if kind == "since_date":
        since = parse_day(g[0] or g[1])
        return _to_date(since, as_of, f"since {since.isoformat()}", text)
    if kind == "first_n":
        count = _COUNTS.get(g[1].lower()) or int(g[1])
        months, year = count * (3 if g[2].lower() == "quarters" else 1), int(g[3])
        if months > 12:
            raise ValueError(text)
        first = g[0].lower() == "first"
        start = dt.date(year, 1, 1) if first else add_months(dt.date(year + 1, 1, 1), -months)
        return _range(start, add_months(start, months), text)
    if kind == "half_span_range":
        first, last = int(g[0]), int(g[2])
        last_year = int(g[3]) if g[3] else (int(g[1]) + (last < first) if g[1] else
                                             as_of.year if dt.date(as_of.year, 6 * last - 5, 1) <= as_of
                                             else as_of.year - 1)
        first_year = int(g[1]) if g[1] else last_year - (first > last)
        start, end = _half(first_year, first, text).start, _half(last_year, last, text).end
        if start >= end:
            raise ValueError(text)
        return _range(start, end, text)
    if kind in ("between_quarter_range", "quarter_span_range"):
        first, last = int(g[0]), int(g[2])
        last_year = int(g[3]) if g[3] else (int(g[1]) + (last < first) if g[1] else
                                             _latest_started_quarter(last, as_of))
        first_year = int(g[1]) if g[1] else last_year - (first > last)
        start, end = quarter_start(first_year, first), add_months(quarter_start(last_year, last), 3)
        if start >= end:
            raise ValueError(text)
        return _range(start, end, text)
    if kind == "year_span_range":
        return _year_span(g, text, fiscal_start_month)
    if kind == "between_year_range":
        first_year, last_year = int(g[0]), int(g[1])
        if first_year >= last_year:
            raise ValueError(text)
        return _range(dt.date(first_year, 1, 1), dt.date(last_year + 1, 1, 1), text)
    if kind in ("from_month_to", "month_range", "between_month_range"):
        first, last = _MONTHS[g[0].lower().rstrip(".")], _MONTHS[g[3].lower().rstrip(".")]
        first_written, last_written = _year_of(g[1], g[2]), _year_of(g[4], g[5])
        last_year = last_written if last_written else (first_written + (last < first) if first_written else
                                                       _latest_started_month(last, as_of))
        first_year = first_written if first_written else last_year - (first > last)
        start, end = dt.date(first_year, first, 1), add_months(dt.date(last_year, last, 1), 1)
        if start >= end:
            raise ValueError(text)
        return _range(start, end, text)
    if kind == "until_year_end":
        return _year(as_of.year, text)
    if kind == "until_month":
        month = _MONTHS[g[0].lower().rstrip(".")]
        return _month(_latest_started_month(month, as_of), month, text)
    if kind in ("on_date", "until_date", "day"):
        day = parse_day(g[0])
        return TimeRange(start=day, end=day + dt.timedelta(days=1), label=str(day), source_text=text)
    if kind == "part_of_relative_year":
        previous = (g[4] or "").lower() in ("last", "previous", "prior")
        year = as_of.year - 1 if previous else as_of.year
        if g[2]:
            unit, number = ("half" if g[2].lower() == "h" else "quarter"), int(g[3])
        else:
            unit = "quarter" if g[1].lower() in ("quarter", "qtr") else "half"
            word = g[0].lower()
            number = (2 if unit == "half" else 4) if word in ("last", "final") else _ORDINALS[word]
        if unit == "half":
            if number > 2:
                raise ValueError(text)
            return _half(year, number, text)
        return _quarter(year, number, text)
    if kind == "calendar_year":
        return _year(int(g[0]), text)
    if kind == "relative_calendar_year":
        return _year(as_of.year - 1 if g[0].lower() in ("last", "previous", "prior") else as_of.year, text)
    if kind == "last_of_year":
        which, unit, year = g[0].lower(), g[1].lower(), int(g[2])
        first = which == "first"
        if unit in ("quarter", "qtr"):
            return _quarter(year, 1 if first else 4, text)
        if unit == "half":
            return _half(year, 1 if first else 2, text)
        return _month(year, 1 if first else 12, text)
    if kind == "qtd":
        start = quarter_start(as_of.year, (as_of.month - 1) // 3 + 1)
        return _to_date(start, as_of, f"{as_of.year}-Q{(as_of.month - 1) // 3 + 1}-QTD", text)
    if kind == "mtd":
        said = match.groupdict().get("mtd_month")
        if said and _MONTHS[said.lower().rstrip(".")] != as_of.month:
            return None  # "MTD (March)" asked in May: which month is meant is not one reading
        return _to_date(dt.date(as_of.year, as_of.month, 1), as_of, f"{as_of:%Y-%m}-MTD", text)
    if kind == "fiscal_year_span":
        return _fiscal_year_span(g, text, fiscal_start_month or fiscal_year_start_month())
    if kind == "fiscal_year":
        year = int(g[0]) if len(g[0]) == 4 else 2000 + int(g[0])
        return _fiscal_year(year, fiscal_start_month or fiscal_year_start_month(), text)
    if kind == "iso_half":
        return _half(int(g[0]), int(g[1]), text)
    if kind == "half":
        half = int(g[0]) if g[0] else (1 if g[1].lower() in ("first", "1st") else 2)
        if g[2]:
            year = int(g[2])
        else:
            year = as_of.year if dt.date(as_of.year, 1 if half == 1 else 7, 1) <= as_of else as_of.year - 1
        return _half(year, half, text)
    if kind == "since_month":
        month = _MONTHS[g[0].lower().rstrip(".")]
        year = int(g[1]) if g[1] else _latest_started_month(month, as_of)
        return _to_date(dt.date(year, month, 1), as_of, f"since {year}-{month:02d}", text)
    if kind == "relative_to_date":
        unit = _relative("this", (g[0] or g[1]).lower(), as_of, text)
        return TimeRange(start=unit.start, end=as_of + dt.timedelta(days=1), label=f"{unit.label} to {as_of}",
                         source_text=text)
    if kind == "full_units":
        return _whole_units(_COUNTS.get(g[0].lower()) or int(g[0]), g[1].lower(), as_of, text)
    if kind == "relative":
        return _relative(g[0], g[1].lower(), as_of, text)
    if kind == "ytd":
        return TimeRange(
            start=dt.date(as_of.year, 1, 1), end=as_of + dt.timedelta(days=1), label=f"{as_of.year}-YTD",
            source_text=text,
        )
    if kind == "iso_quarter":
        return _quarter(int(g[0]), int(g[1]), text)
    if kind == "quarter_year":
        return _quarter(int(g[1]), int(g[0]), text)
    if kind == "ordinal_quarter":
        quarter = _ORDINALS[g[0].lower()]
        year = int(g[1]) if g[1] else _latest_started_quarter(quarter, as_of)
        return _quarter(year, quarter, text)
    if kind == "bare_quarter":
        quarter = int(g[0])
        return _quarter(_latest_started_quarter(quarter, as_of), quarter, text)
    if kind == "month_year":
        return _month(int(g[1]), _MONTHS[g[0].lower().rstrip(".")], text)
    if kind == "month_space_yy":
        if g[0].lower() == "may" and not re.match(r"(?i)may\s\d{2}\s*(?:$|[?,;:)]|vs|versus|against|and|to|-)",
                                                   text + match.string[match.end():match.end() + 8]):
            return None  # "may" as a verb
        return _month(2000 + int(g[1]), _MONTHS[g[0].lower().rstrip(".")], text)
    if kind == "month_yy":
        return _month(2000 + int(g[1]), _MONTHS[g[0].lower().rstrip(".")], text)
    if kind == "slash_month":
        year = int(g[1]) if len(g[1]) == 4 else 2000 + int(g[1])
        return _month(year, int(g[0]), text)
    if kind == "iso_month":
        return _month(int(g[0]), int(g[1]), text)
    if kind == "basic_month":
        before = match.string[:match.start()]
        if _NOT_A_YEAR_BEFORE.search(before) and not _AMOUNT_ENDS_BEFORE.search(before) and not re.search(
                r"\b(?:period|month|yyyymm|\w*_period|\w*_month)\s*[=:]\s*['\"]?$", before, re.I):
            return None  # "invoices over 202512": an amount
        return _month(int(g[0]), int(g[1]), text)
    if kind == "attr_month" and g[0].lower() == "may" and not re.search(
            r"(?:\b(?:the|our|their|its|last|this)|['’]s)\s+may\s*$", match.string[:match.end()], re.I):
        return None  # "we may spend": a verb, unless a determiner makes it the month ("the may invoices")
    if kind in ("in_month", "attr_month"):
        word = g[0].lower()
        if kind == "in_month" and word == "may" and not re.search(r"\b(?:in|during|dated)\s+may\b", text, re.I):
            return None  # "may" as a verb
        month = _MONTHS[word]
        return _month(_latest_started_month(month, as_of), month, text)
    if kind in ("compared_month", "month_paired"):
        if text == "may":
            return None  # "may" as a verb
        month = _MONTHS[(g[0] or g[1]).lower().rstrip(".")]
        year = _year_beside(match.string, dt.date(as_of.year, month, 1), as_of)
        return _month(year if year is not None else _latest_started_month(month, as_of), month, text)
    if kind in ("compared_quarter", "quarter_paired"):
        quarter = int(next(x for x in g if x))
        year = _year_beside(match.string, quarter_start(as_of.year, quarter), as_of)
        return _quarter(year if year is not None else _latest_started_quarter(quarter, as_of), quarter, text)
    if kind in ("bare_year", "lone_year", "until_year"):
        return _year(int(g[0]), text)
    return None  # pragma: no cover - every kind is handled above


def _whole_units(count: int, unit: str, as_of: dt.date, text: str) -> TimeRange:
    """The ``count`` whole weeks (months, quarters, years) before the one holding the as-of date."""
    if unit == "weeks":
        end = as_of - dt.timedelta(days=as_of.weekday())
        start = end - dt.timedelta(days=7 * count)
    else:
        current = _relative("this", unit.rstrip("s"), as_of, text)
        end, start = current.start, add_months(current.start, -count * _UNIT_MONTHS[unit.rstrip("s")])
    if not 1 <= count <= 120:
        raise ValueError(text)
    return TimeRange(start=start, end=end, label=f"the {count} full {unit} before {end}", source_text=text)


_ENDING_MONTHS = {"quarter": 3, "qtr": 3, "month": 1, "half": 6, "half-year": 6, "half year": 6, "year": 12}


def _unit_ending(unit: str, last_day: dt.date, text: str) -> TimeRange:
    """The quarter (month, half, year) whose last day is ``last_day``; a day that ends no month ends no such unit
    (asked about, not guessed)."""
    end = last_day + dt.timedelta(days=1)
    if end.day != 1:
        raise ValueError(text)
    months = _ENDING_MONTHS.get(" ".join(unit.lower().split()), 12)
    start = add_months(end, -months)
    if months == 3 and start.month in (1, 4, 7, 10):
        return _quarter(start.year, (start.month - 1) // 3 + 1, text)
    if months == 6 and start.month in (1, 7):
        return _half(start.year, 1 if start.month == 1 else 2, text)
    if months == 1:
        return _month(start.year, start.month, text)
    if months == 12 and start.month == 1:
        return _year(start.year, text)
    return _range(start, end, text)


#: Words of another period beside a range of years ("2024-25 vs 2023", "2025-26 vs last year").
_OTHER_PERIOD = re.compile(rf"\b(?:19|20)\d{{2}}\b|\b[qh][1-4]\b|\b(?:{_MONTH_NAMES})\b|\b(?:last|previous|prior|"
                           r"this|next|same)\s+(?:year|quarter|month|period|half)\b|\bytd\b|\b(?:yoy|qoq|mom)\b",
                           re.I)


def _only_period(question: str, pattern: re.Pattern[str]) -> bool:
    """Whether the one range of years ``pattern`` finds is the question's only period: then a comparison word
    compares something else ("Beta vs Zeta, which is cheaper per unit in 2024-25?"), and the range is the period."""
    found = list(pattern.finditer(question))
    if len(found) != 1:
        return False
    rest = question[:found[0].start()] + " " + question[found[0].end():]
    return _OTHER_PERIOD.search(rest) is None


def _year_span(g: tuple[str | None, ...], text: str, fiscal_start_month: int | None) -> TimeRange | None:
    """"2025-2026", "2025-26", "2024 to 2026": the calendar years from the first through the second. ``None`` when
    the second number is no later year ("2025-12" is a month, "2025-06" too); a span of more than ten years is no
    period anyone asks about (invalid). With a fiscal year that is not the calendar's, "2025-26" may as well name
    the fiscal year 2025/26: asked about, never guessed."""
    # (a two-digit second year only after a dash: "2026 until 27 January" is no range of years)
    first = int(str(g[0]))
    separator, written = (str(g[1]), str(g[2])) if g[1] else (str(g[3]), str(g[4]))
    if len(written) == 2:
        if int(written) <= 12:
            return None  # "2025-12": an ISO month, not a range of years
        last = first - first % 100 + int(written)
    else:
        last = int(written)
    if last <= first:
        return None
    if last - first > 10:
        raise ValueError(text)
    start_month = fiscal_start_month or fiscal_year_start_month()
    if start_month != 1 and last == first + 1 and separator.strip() in ("-", "–"):
        raise _Gap(f"{text.strip()!r} may be the fiscal year {first}/{str(last)[2:]} (starting in month "
                   f"{start_month}) or the calendar years {first} and {last}: which one do you mean?")
    return _range(dt.date(first, 1, 1), dt.date(last + 1, 1, 1), text)


def _fiscal_year_span(g: tuple[str | None, ...], text: str, start_month: int) -> TimeRange:
    """"FY2025-26", "FY 2025/26": the fiscal year from 2025 into 2026. A fiscal year is named by the calendar year
    it ends in, so with a fiscal year starting after January it is FY2026. With the calendar year as the fiscal
    year no single fiscal year touches two calendar years: asked about (2025, 2026 or both?), never guessed."""
    first = int(str(g[0])) + (2000 if len(str(g[0])) == 2 else 0)
    written = str(g[1])
    last = (first - first % 100 + int(written)) if len(written) == 2 else int(written)
    if last != first + 1:
        raise ValueError(text)
    if start_month == 1:
        raise _Gap(f"{text.strip()!r} names two years, but the fiscal year here is the calendar year: do you mean "
                   f"FY{first}, FY{last} or both ({first}-01-01 to {last + 1}-01-01)?")
    return _fiscal_year(last, start_month, text)


def _qualified_part(g: tuple[str | None, ...], text: str, fiscal_start_month: int | None) -> TimeRange:
    """A quarter or half of a fiscal or calendar year ("Q1 FY26", "Q3 of calendar 2025"): a fiscal part is counted
    from the fiscal year's first month, a calendar part from January."""
    quarter, half, ordinal, unit, qualifier, year_text = g[0], g[1], g[2], g[3], g[4], g[5]
    if qualifier is None:  # the year written first ("FY26 Q1")
        qualifier, year_text, quarter, half, ordinal, unit = g[6], g[7], g[8], g[9], None, None
    if ordinal is not None and unit is not None:
        number = _ORDINALS[ordinal.lower()]
        is_half = unit.lower() == "half"
        if is_half and number > 2:
            raise ValueError(text)
    else:
        is_half, number = half is not None, int(half or quarter or 0)
    year = _two_digit_year(str(year_text))
    calendar = str(qualifier).lower().startswith(("calendar", "cy"))
    start_month = 1 if calendar else (fiscal_start_month or fiscal_year_start_month())
    if start_month == 1:
        return _half(year, number, text) if is_half else _quarter(year, number, text)
    first = _fiscal_year(year, start_month, text).start
    months = 6 if is_half else 3
    start = add_months(first, months * (number - 1))
    return TimeRange(start=start, end=add_months(start, months), label=f"FY{year}-{'H' if is_half else 'Q'}{number}",
                     source_text=text)


def _day_in_year(text: str, year: int) -> dt.date:
    """A day written without its year ("12 Feb", "Feb 12th"), in ``year``."""
    plain = _DAY_WORDS.sub(" ", text)
    return parse_day(f"{plain} {year}")


_DAY_WORDS = re.compile(r"(?<=\d)(?:st|nd|rd|th)|\bof\b", re.I)


def _units_back(unit: str, count: int, as_of: dt.date, text: str) -> TimeRange:
    """The calendar unit ``count`` units before the one holding the as-of date ("the month before last": 2)."""
    unit = "quarter" if unit == "qtr" else unit
    current = _relative("this", unit, as_of, text)
    if unit == "week":
        return _week(current.start - dt.timedelta(days=7 * count), text)
    if unit == "half":
        start = add_months(current.start, -6 * count)
        return _half(start.year, 1 if start.month == 1 else 2, text)
    start = add_months(current.start, -count * _UNIT_MONTHS[unit])
    if unit == "quarter":
        return _quarter(start.year, (start.month - 1) // 3 + 1, text)
    if unit == "month":
        return _month(start.year, start.month, text)
    return _year(start.year, text)


def _year_of(four: str | None, two: str | None) -> int | None:
    """The year of a month written with four digits or an apostrophe and two ("Feb '26")."""
    return int(four) if four else 2000 + int(two) if two else None


def _year_beside(question: str, start: dt.date, as_of: dt.date) -> int | None:
    """The one year the question writes, for a period named without one beside a comparison word, or ``None``
    (no year, several, or the period would start after the as-of date in it)."""
    written = set(_FOUR_DIGITS.findall(question))
    if len(written) != 1:
        return None
    year = int(written.pop())
    return year if start.replace(year=year) <= as_of else None


def _list(kind: str, text: str, year_text: str | None, as_of: dt.date) -> TimeRange:
    """A list of quarters, halves or months: the parts' union, the earlier parts in the year of the last one (or
    of the last part that has started, when no year is named)."""
    if kind == "month_list":
        numbers = [_MONTHS[m.lower()] for m in re.findall(rf"\b({_MONTH_NAMES})\b", text, re.I)]
        last_year = int(year_text) if year_text else _latest_started_month(numbers[-1], as_of)
        years = _list_years(numbers, last_year)
        return _union([_month(y, n, text) for n, y in zip(numbers, years, strict=True)], text)
    numbers = [int(n) for n in re.findall(r"(?i)\b[qh]([1-4])\b", text)]
    if kind == "half_list":
        last_year = int(year_text) if year_text else (
            as_of.year if dt.date(as_of.year, 1 if numbers[-1] == 1 else 7, 1) <= as_of else as_of.year - 1)
        years = _list_years(numbers, last_year)
        return _union([_half(y, n, text) for n, y in zip(numbers, years, strict=True)], text)
    last_year = int(year_text) if year_text else _latest_started_quarter(numbers[-1], as_of)
    years = _list_years(numbers, last_year)
    return _union([_quarter(y, n, text) for n, y in zip(numbers, years, strict=True)], text)


def _list_years(numbers: list[int], last_year: int) -> list[int]:
    """Years of a list's parts, counted back from the last: a part after a later one is in the next year
    ("Nov, Dec and Jan 2026" is 2025-11 to 2026-01)."""
    years = [last_year]
    for before, after in zip(reversed(numbers[:-1]), reversed(numbers[1:]), strict=True):
        years.append(years[-1] - (before >= after))
    return list(reversed(years))
