"""Period phrases of everyday speech, written as the period reader reads them.

Site managers, controllers and analysts of every trade name periods in phrases, not codes: "the quarter just gone",
"Q3 just gone", "last financial year", "last fin year", "this FY so far", "from 01.01 to today", "since begin of
year till today", "the 2 weeks from 18/10/25", "the fortnight from 16/4/26", "3 months starting 1 Feb", "last 60
days rolling", "MTD (May so far)", "FY25/26 (Jul25-Apr26)", "Q3 25 / Q4 25 / Q1 26", "Q4 2025 over Q3 2025".
Left unread, each was either a needless "For which period?", or worse a silent wrong: a day read alone out of "the
2 weeks from 18/10/25" (one day's figure for a fortnight's question), or no period at all read as "all dates on
file up to the as-of date".

This module reads each FAMILY by its parts, from closed tables, and writes it in the notation router/periods.py
reads, so the reader's span accounting and labels apply:

* a unit "just gone" (:data:`JUST_GONE`: gone, passed, ended, finished, closed, completed) is the last complete
  unit ("the last full quarter"); a numbered quarter, half or month just gone ("Q3 just gone", "March just gone")
  is the latest one that has ended by the as-of date;
* a fiscal year named relatively (:data:`RELATIVE_WORDS` x :data:`FISCAL_WORDS`: "last financial year", "last fin
  year", "previous FY", "this fiscal year") is that fiscal year counted from the configured fiscal year start
  (``PROCURA_FISCAL_YEAR_START_MONTH``, :func:`router.periods.fiscal_year_start_month`), written "FY2025"; with a
  to-date word of :data:`router.period_family.TO_DATE_WORDS` after it, the fiscal year to date;
* a span of N units from a day (:data:`SPAN_UNITS` in several languages: days, weeks, fortnights, months; N in
  digits or words of :data:`COUNT_WORDS`; "from", "starting", "beginning", "commencing", "after" and their
  equivalents in :data:`FROM_WORDS`; the day in any notation the reader reads: ISO, d.m.y, slashed days whose
  order the question settles, a day and month in words with or without a year) is written "from <first day>
  through <last day>": never the day alone;
* a start of the year (quarter, month) or a day without its year up to today ("since begin of year till today",
  "from 01.01 to today") is the period since that day;
* a window with "rolling" after it ("last 60 days rolling") is that window; "full months only" after a trailing
  window is the convention the reader already applies (complete calendar months);
* a bracket that glosses the period before it ("MTD (May so far)", "FY25/26 (Jul25-Apr26)", "LTM (last twelve full
  months)") is one period: when both name the same range the bracket is dropped; when the period before it is
  not one the reader can settle (a gap) and the bracket is, the bracket is the period;
* a list of periods joined by "/" ("Q3 25 / Q4 25 / Q1 26") is a list, as with "and"; "Q4 2025 over Q3 2025" is a
  comparison, as with "vs".

A phrase whose parts are not all readable (an unknown unit, a day no calendar has) is left as typed, so the
unread-span invariant names it back rather than reading part of it.
"""

from __future__ import annotations

import calendar
import datetime as dt
import re

from router.period_family import COUNT_WORDS, JUST_GONE, SPAN_UNITS, TO_DATE_WORDS
from router.periods import (
    MONTH_NAMES,
    MONTH_NUMBERS,
    add_months_to_day,
    fiscal_year_start_month,
    resolve_period,
    slashed_days,
)

_I = re.I | re.UNICODE

# --- closed tables ---------------------------------------------------------------------------------------------

_JUST = (r"(?:(?:(?:that|which)\s+(?:has|have|had)?\s*|that['’]s\s+|thats\s+)?(?:just|recently)\s+(?:"
         + "|".join(JUST_GONE) + r")\b"
         # "the quarter gone", "the month gone by", "the week that was", "the quarter that's been": without "just"
         r"|gone(?:\s+by(?=\s*(?:$|[?.!,;:)-]|cheers|thanks|ta\b|pls|please|asap|mate)))?\b"
         r"|(?:that\s+was|that['’]s\s+been)(?=\s*(?:$|[?.!,;:)-]|cheers|thanks|ta\b|pls|please|asap|mate)))")
#: Words that count a unit back or name the current one.
RELATIVE_WORDS = {"last": -1, "previous": -1, "prior": -1, "past": -1, "preceding": -1, "this": 0, "current": 0,
                  "present": 0, "next": 1, "coming": 1}
#: Words that name the fiscal year ("financial year", "fin year", "fiscal year", "FY", "fiscal"), English; the other
#: languages' fiscal year words are read by router/period_family.py (:data:`YEAR_WORDS`).
FISCAL_WORDS = (r"(?:financial|fiscal|fin\.?|finance)\s+(?:year|yr)|fy")
#: Words that open a span at a day ("from", "starting", "beginning", "commencing", German "ab", French "à partir
#: du", Spanish/Portuguese "desde"/"a partir de", Italian "da"/"dal", Polish/Czech "od", Dutch "vanaf", Nordic
#: "från"/"fra"), and those that open it the day after ("after", "following").
FROM_WORDS = ("from", "since", "starting", "starting from", "starting on", "starting with", "beginning", "beginning on",
              "beginning with", "commencing", "commencing on", "as of", "as from", "with effect from", "ab", "ab dem",
              "vom", "à partir du", "à partir de", "a partir du", "a partir de", "desde", "desde el", "da", "dal",
              "dalla", "od", "vanaf", "från", "fra", "från och med", "fra og med", "de la")
AFTER_WORDS = ("after", "following", "nach", "après", "apres", "después de", "despues de", "depois de", "dopo",
               "po", "efter", "etter")

_COUNT_W = "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in sorted(COUNT_WORDS, key=len, reverse=True)
                    if w.strip() == w)
_UNIT_W = "|".join(re.escape(w) for w in sorted(SPAN_UNITS, key=len, reverse=True))
_FROM_W = "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in sorted((*FROM_WORDS, *AFTER_WORDS), key=len,
                                                                        reverse=True))
_TO_DATE_W = "|".join(re.escape(w).replace(r"\ ", r"\s+").replace("'", "['’]")
                      for w in sorted(TO_DATE_WORDS, key=len, reverse=True))
_REL_W = "|".join(RELATIVE_WORDS)
_Y = r"(?:19|20)\d{2}"

#: A day in the notations the reader reads, its year optional: ISO, d.m.y (dotted, or slashed once
#: :func:`router.periods.slashed_days` has settled the order), "8 sep", "8th of September 2025", "Sep 8, 2025".
_DAY = (rf"(?P<iso>{_Y}-\d{{2}}-\d{{2}})"
        rf"|(?P<dd>\d{{1,2}})\.(?P<mm>\d{{1,2}})(?:\.(?P<yy>{_Y}|\d{{2}})(?!\d)|\.(?!\d))?(?![\d.])"
        rf"|(?P<wd>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<wm>{MONTH_NAMES})\.?(?:,?\s+(?P<wy>{_Y})|\s*['’](?P<wyy>\d{{2}}))?"
        rf"|(?P<mw>{MONTH_NAMES})\.?\s+(?P<md>\d{{1,2}})(?:st|nd|rd|th)?(?:,?\s+(?P<my>{_Y}))?")


def _day(m: re.Match[str], as_of: dt.date | None) -> dt.date | None:
    """The day a :data:`_DAY` match names; a day without its year is the latest such day up to ``as_of``."""
    g = m.groupdict()
    try:
        if g["iso"]:
            return dt.date.fromisoformat(g["iso"])
        if g["dd"]:
            day, month, year = int(g["dd"]), int(g["mm"]), g["yy"]
        elif g["wd"]:
            day, month = int(g["wd"]), MONTH_NUMBERS[g["wm"].casefold()]
            year = g["wy"] or g["wyy"]
        else:
            day, month, year = int(g["md"]), MONTH_NUMBERS[g["mw"].casefold()], g["my"]
        if year is not None:
            return dt.date(int(year) + (2000 if len(year) == 2 else 0), month, day)
        if as_of is None:
            return None
        found = dt.date(as_of.year, month, day)
        return found if found <= as_of else dt.date(as_of.year - 1, month, day)
    except (ValueError, KeyError):
        return None


# --- "the quarter just gone", "Q3 just gone" -------------------------------------------------------------------

_UNIT_JUST_GONE = re.compile(rf"\b(?:the\s+)?(?:last\s+)?(quarter|qtr|month|year|week|half(?:[- ]year)?)\s+{_JUST}",
                             _I)
_FISCAL_JUST_GONE = re.compile(rf"\b(?:the\s+)?(?:{FISCAL_WORDS})\s+{_JUST}", _I)
_PART_JUST_GONE = re.compile(rf"\b(?:the\s+)?(?:(?P<q>q[1-4])|(?P<h>h[12])|(?P<m>{MONTH_NAMES}))\.?\s+{_JUST}", _I)


def _latest_ended(first_month: int, months: int, as_of: dt.date) -> int:
    """The year of the latest unit starting in ``first_month`` (``months`` long) that ended by ``as_of``."""
    year = as_of.year
    while add_months_to_day(dt.date(year, first_month, 1), months) > as_of + dt.timedelta(days=1):
        year -= 1
    return year


def _part_just_gone(m: re.Match[str], as_of: dt.date | None) -> str:
    if as_of is None:
        return m.group(0)
    if m.group("q"):
        number = int(m.group("q")[1])
        return f"Q{number} {_latest_ended(3 * number - 2, 3, as_of)}"
    if m.group("h"):
        number = int(m.group("h")[1])
        return f"H{number} {_latest_ended(6 * number - 5, 6, as_of)}"
    month = MONTH_NUMBERS[m.group("m").casefold()]
    return f"{calendar.month_name[month]} {_latest_ended(month, 1, as_of)}"


# --- "last financial year", "this FY so far" -------------------------------------------------------------------

_RELATIVE_FISCAL = re.compile(
    rf"\b(?:the\s+)?(?P<rel>{_REL_W})\s+(?:{FISCAL_WORDS})\b(?!\s*['’-]?\s*\d)"
    rf"(?:\s*,?\s*\(?\s*(?P<now>{_TO_DATE_W})\b(?:\s*\))?)?", _I)


def fiscal_year_ending(as_of: dt.date, start_month: int) -> int:
    """The calendar year the fiscal year holding ``as_of`` ends in (a fiscal year is named by it)."""
    return as_of.year + (1 if start_month > 1 and as_of.month >= start_month else 0)


def _relative_fiscal(m: re.Match[str], as_of: dt.date | None, fiscal_just_gone: bool = False) -> str:
    if as_of is None:
        return m.group(0)
    shift = -1 if fiscal_just_gone else RELATIVE_WORDS[m.group("rel").casefold()]
    if not fiscal_just_gone and m.group("now"):
        return "fiscal year to date" if shift == 0 else m.group(0)
    return f"FY{fiscal_year_ending(as_of, fiscal_year_start_month()) + shift}"


# --- "from 01.01 to today", "since begin of year till today" ---------------------------------------------------

_TODAY = r"(?:today|now|date|the\s+present|heute|hoy|hoje|oggi|dziś|dzis|dnes|bugün|azi|idag|i\s+dag)"
_TILL = r"(?:till|until|til|to|up\s+to|up\s+till|through|thru|bis|hasta|até|fino\s+a|do|până\s+la|a)"
_START_TO_TODAY = re.compile(
    rf"\b(?:since|from)\s+(?:the\s+)?(?:start|beginning|begin|begining|commencement)\s+(?:of\s+)?(?:the\s+|this\s+)?"
    rf"(?P<unit>year|quarter|month)(?:\s+{_TILL}\s+{_TODAY})?\b"
    rf"|\b(?:since|from)\s+(?:the\s+)?(?P<unit2>year|quarter|month)[- ](?:start|beginning)(?:\s+{_TILL}\s+{_TODAY})?\b",
    _I)
#: a currency or amount word right before "from 1.5": the pair is an amount, never a day
_AMOUNT_TOUCH = re.compile(r"(?:€|\$|£|\b(?:eur|usd|gbp|chf|pln|czk|amount|price|value|total|over|above|below|under|"
                           r"between|more\s+than|less\s+than)\b)\s*$", _I)
_DAY_TO_TODAY = re.compile(rf"\b(?:since|from)\s+(?:the\s+)?(?:{_DAY})\s+{_TILL}\s+{_TODAY}\b", _I)


def _day_to_today(m: re.Match[str], as_of: dt.date | None) -> str:
    if m.group("dd") and not m.group("yy") and _AMOUNT_TOUCH.search(m.string, 0, m.start()):
        return m.group(0)  # "prices above EUR from 1.5 to today": an amount cue beside a year-less d.m, no day
    day = _day(m, as_of)
    if day is None or (as_of is not None and day > as_of):
        return m.group(0)
    return f"from {day.isoformat()} to today"


# --- "the 2 weeks from 18/10/25", "the fortnight from 16/4/26" -------------------------------------------------

_SPAN_FROM_DAY = re.compile(
    rf"(?<![\w.-])(?P<article>the\s+|a\s+|an\s+)?(?:(?:(?P<n>\d{{1,3}})|(?P<nw>{_COUNT_W}))\s*[- ]?\s*)?"
    rf"(?P<unit>{_UNIT_W})\b\s+(?P<from>{_FROM_W})\s+(?:the\s+)?(?:{_DAY})(?![\w/]|[.,]\d)"
    # (a second day after it makes a range of its own: "per month from 1 Jan to 31 Mar")
    rf"(?!\s*(?:-|–|—|~|to|till|until|through|thru|and|bis|a|al|au)\s*\d)", _I)


def _span_from_day(m: re.Match[str], as_of: dt.date | None) -> str:
    unit = m.group("unit").casefold()
    count_word = m.group("nw")
    count = int(m.group("n")) if m.group("n") else COUNT_WORDS.get(" ".join(count_word.casefold().split()))\
        if count_word else 1
    if count is None or not 1 <= count <= 366:
        return m.group(0)
    if m.group("n") is None and count_word is None and (m.group("article") is None or unit in ("d", "mo", "mos")):
        return m.group(0)  # "spend per month from 1 Jan": a breakdown unit, no span; "the fortnight from" is one
    if m.group("dd") and not m.group("yy"):
        # "the 2 weeks from 1.5": a dotted pair without its year and no range word to a day after it may be an
        # amount (1.5); a year-less d.m is a day only in "from 1.5 to today" (:data:`_DAY_TO_TODAY`)
        return m.group(0)
    first = _day(m, as_of)
    if first is None:
        return m.group(0)
    if " ".join(m.group("from").casefold().split()) in AFTER_WORDS:
        first += dt.timedelta(days=1)
    kind, length = SPAN_UNITS[unit]
    end = (first + dt.timedelta(days=length * count) if kind == "days"
           else add_months_to_day(first, length * count))
    last = end - dt.timedelta(days=1)
    return f"from {first.isoformat()} through {last.isoformat()}"


# --- "the last fortnight", "past 2 fortnights" -----------------------------------------------------------------

_FORTNIGHT_W = "|".join(re.escape(w) for w, (_, days) in sorted(SPAN_UNITS.items(), key=lambda i: -len(i[0]))
                        if days == 14)
_LAST_FORTNIGHTS = re.compile(rf"\b(last|past|previous|trailing|rolling)\s+(?:(\d{{1,2}}|{_COUNT_W})\s+)?"
                              rf"(?:{_FORTNIGHT_W})\b", _I)


def _last_fortnights(m: re.Match[str]) -> str:
    count = int(m.group(2)) if m.group(2) and m.group(2).isdigit() else COUNT_WORDS.get(
        " ".join((m.group(2) or "one").casefold().split()), 0)
    return f"{m.group(1)} {14 * count} days" if count else m.group(0)


# --- windows glossed by "rolling", "full months only" ----------------------------------------------------------

_ROLLING_AFTER = re.compile(r"\b((?:last|past|trailing|previous)\s+(\d{1,3})\s+(days|weeks|months))\s+(rolling|"
                            r"running|trailing)\b(?!\s+(?:avg|average|mean|sum|total))", _I)


def _rolling_after(m: re.Match[str]) -> str:
    """"last 30 days rolling" is "last 30 days" (day and week windows end at the as-of date either way); "last 3
    months rolling" is "rolling 3 months", a window ending at the as-of date, not the whole months "last 3 months"
    would be read as."""
    if m.group(3).casefold() == "months" and m.group(4).casefold() in ("rolling", "running"):
        return f"rolling {m.group(2)} months"
    return m.group(1)
#: "trailing three months, full months only", "rolling 3 months (complete months)", "T6M (full months)": the
#: complete calendar months before the as-of month, which a trailing window already is and a rolling one is told to be.
_FULL_NOTE = re.compile(
    r"(?P<win>\b(?P<word>trailing|rolling|last|past)\s+(?P<n>\d{1,2}|[a-z]+)\s+months|\b[tlr]\d{1,2}m|\bttm|\bltm)"
    r"\s*,?\s*(?P<open>\()?\s*(?:full|complete|completed|whole|calendar)\s+months(?:\s+only)?(?(open)\s*\))", _I)


def _full_note(m: re.Match[str]) -> str:
    if (m.group("word") or "").casefold() == "rolling":
        return f"last {m.group('n')} full months"
    return m.group("win")


#: "ytd (calendar)", "YTD (calendar year)": the calendar year to date, which "ytd" already is.
_CALENDAR_NOTE = re.compile(r"(?:(?<=\bytd)|(?<=year to date)|(?<=year-to-date))\s*\(\s*calendar(?:\s+year)?\s*\)",
                            _I)

# --- "May so far" ----------------------------------------------------------------------------------------------

_MONTH_SO_FAR = re.compile(rf"(?<!since\s)(?<!from\s)(?<!\d\s)\b(?P<m>{MONTH_NAMES})\.?\s+(?:{_TO_DATE_W})\b", _I)


def _month_so_far(m: re.Match[str], as_of: dt.date | None) -> str:
    if as_of is None or MONTH_NUMBERS[m.group("m").casefold()] != as_of.month:
        return m.group(0)
    return "this month so far"


# --- lists with "/" and comparisons with "over" ----------------------------------------------------------------

_ATOM = rf"(?:[QH][1-4]\s*(?:[-'’]\s*)?(?:{_Y}|\d{{2}})|(?:{MONTH_NAMES})\.?\s*(?:{_Y}|['’-]\d{{2}}))"
_SLASH_LIST = re.compile(rf"(?<![\w/])({_ATOM})((?:\s+/\s+{_ATOM})+)(?![\w/])", _I)
_OVER = re.compile(rf"(?<![\w/])({_ATOM})\s+over\s+({_ATOM})(?![\w/])", _I)


#: "which was the strongest quarter, Q3-25, Q4-25 or Q1-26": periods offered to choose from are the span the
#: choice ranks, one list (as "Q3 25, Q4 25 and Q1 26" is read); without a choice "Q3 or Q4" stays two periods.
_CHOICE_LIST = re.compile(rf"(?<![\w/])({_ATOM})((?:\s*,\s*{_ATOM})*\s*(?:,\s*)?\bor\s+{_ATOM})(?![\w/])", _I)
_CHOOSING = re.compile(r"\b(?:which|what)\b[^?!.]*\b(?:highest|lowest|strongest|weakest|biggest|largest|smallest|"
                       r"busiest|quietest|best|worst|peak|most|least|top|max(?:imum)?|min(?:imum)?)\b", _I)


def _choice_list(m: re.Match[str]) -> str:
    parts = [m.group(1), *(p.strip() for p in re.split(r"\s*,\s*|\bor\b", m.group(2), flags=_I) if p.strip())]
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def _slash_list(m: re.Match[str]) -> str:
    parts = [m.group(1), *(p.strip() for p in m.group(2).split("/") if p.strip())]
    return ", ".join(parts[:-1]) + " and " + parts[-1]


# --- a bracket glossing the period before it -------------------------------------------------------------------

_BRACKET = re.compile(r"\s*\(([^()]{2,60})\)")
#: What may stand between a period and the bracket that glosses it: nothing, or a to-date word ("so far").
_GAP = re.compile(rf"\s*(?:(?:{_TO_DATE_W})\s*)?", _I)


def _gloss_brackets(text: str, as_of: dt.date | None) -> str:
    """``text`` with a bracket that restates the period before it dropped, or made the period when the one before
    it is no period the reader settles."""
    if as_of is None:
        return text
    for m in reversed(list(_BRACKET.finditer(text))):
        inner = resolve_period(m.group(1), as_of)
        if inner.time_range is None or inner.ambiguous:
            continue
        outer_text = text[:m.start()] + " " * (m.end() - m.start()) + text[m.end():]
        outer = resolve_period(outer_text, as_of)
        if outer.time_range is not None and not outer.ambiguous:
            if (outer.time_range.start, outer.time_range.end) == (inner.time_range.start, inner.time_range.end):
                text = text[:m.start()] + text[m.end():]  # the bracket restates the period: one period
            continue
        before = [s for s in outer.spans if s[1] <= m.start() and _GAP.fullmatch(text[s[1]:m.start()])]
        if before and len(outer.spans) == 1:
            # the period before the bracket is not one the reader settles (a gap: "FY25/26" where the fiscal year
            # is the calendar's): the bracket spells out what was meant
            text = f"{text[:before[-1][0]]}{m.group(1).strip()}{text[m.end():]}"
    return text


def read_period_phrases(text: str, as_of: dt.date | None = None) -> str:
    """``text`` with the period phrases of this module written in the notation router/periods.py reads.

    >>> read_period_phrases("spend the 2 weeks from 18.10.2025", dt.date(2026, 5, 10))
    'spend from 2025-10-18 through 2025-10-31'
    >>> read_period_phrases("invoice count the quarter just gone", dt.date(2026, 4, 10))
    'invoice count the last full quarter'
    """
    if as_of is not None:
        settled = slashed_days(text, as_of)
        if len(settled) == len(text):
            text = _apply_on(settled, text, _SPAN_FROM_DAY, lambda m: _span_from_day(m, as_of))
            settled = slashed_days(text, as_of)
            if len(settled) == len(text):
                text = _apply_on(settled, text, _DAY_TO_TODAY, lambda m: _day_to_today(m, as_of))
    text = _FISCAL_JUST_GONE.sub(lambda m: _relative_fiscal(m, as_of, fiscal_just_gone=True), text)
    text = _PART_JUST_GONE.sub(lambda m: _part_just_gone(m, as_of), text)
    text = _UNIT_JUST_GONE.sub(lambda m: f"the last full {m.group(1).casefold().split()[0].split('-')[0]}", text)
    text = _RELATIVE_FISCAL.sub(lambda m: _relative_fiscal(m, as_of), text)
    text = _START_TO_TODAY.sub(lambda m: f"since the start of the {(m.group('unit') or m.group('unit2')).lower()}",
                               text)
    text = _LAST_FORTNIGHTS.sub(_last_fortnights, text)
    text = _ROLLING_AFTER.sub(_rolling_after, text)
    text = _FULL_NOTE.sub(_full_note, text)
    text = _MONTH_SO_FAR.sub(lambda m: _month_so_far(m, as_of), text)
    text = _SLASH_LIST.sub(_slash_list, text)
    if _CHOOSING.search(text):
        text = _CHOICE_LIST.sub(_choice_list, text)
    text = _CALENDAR_NOTE.sub("", text)
    text = _OVER.sub(r"\1 vs \2", text)
    return _gloss_brackets(text, as_of)


def _apply_on(settled: str, text: str, pattern: re.Pattern[str], rewrite) -> str:  # type: ignore[no-untyped-def]
    """``text`` with each match of ``pattern`` in ``settled`` (the same text, its slashed days settled, of the same
    length) replaced by ``rewrite(match)``; a match left as it is keeps the text as typed."""
    out, last = [], 0
    for m in pattern.finditer(settled):
        new = rewrite(m)
        if new == m.group(0):
            continue
        out.append(text[last:m.start()])
        out.append(new)
        last = m.end()
    out.append(text[last:])
    return "".join(out)
