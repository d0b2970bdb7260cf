"""Ranges of periods as a grammar: a period atom, a range word of some language, a period atom.

Writers join two period *atoms* with the range words of their own language: "1.2.2026 bis 15.04.26", "zw.
15.09.25 und 15.12.2025", "von August 2025 bis einschl. Oktober 2025", "7/2025 bis 3/2026", "1/11-15/12/25 incl",
"du 01/09/2025 au 30/11/2025", "van 3. kwartaal 2025 tot en met Q1 2026", "Jul 2025 - today". Read one pattern at a
time, such a range lost an end: its first day alone, its last day alone, or two periods asked about. This module
reads the range as a whole: each atom (a day, a month, a quarter, a half, a year, or "today" in any language) is
parsed from one table of notations, the range word from one table of range words (with whether its end is
included as written), and the range is written back as ISO days ("from 2026-02-01 through 2026-04-15", "since
2025-07-01"), the notation router/periods.py reads with its span accounting.

A unit atom at the end (a month, a quarter, a half, a year) ends where the unit ends, whatever the range word
("von Januar bis März" includes March); a day at the end is included after an inclusive word ("bis", "au", "t/m",
"through", "einschl.", "incl") and after a dash or "to" between two days ("1/2-15/3/26", "from 1.2.2026 to
15.4.2026" include 15 March and 15 April, as "2 to 3 March 2026" includes 3 March), and is left out only after an
exclusive word ("bis ausschl.", "tot"). This module is the one reader of numeric day ranges
(router/month_years.py only adds years to months in words). An atom without its year takes the other end's
("1/11-15/12/25", "Q3 to Q1 2026": the first before the second). Ranges written in English words only ("Q3 2025
to Q1 2026", "Jan-Mar 2026") are the period reader's own forms and are left to it.

Single atoms in German or numeric notation the period reader does not know are written out too: "08.2025" (August
2025), "15.09.25" (15.09.2025), "3. Qu. 2025" (Q3 2025), "2. HJ 2025" (H2 2025), "lfd. Jahr" (this year), "full
year 25" (the year 2025). A slashed day ("01/03/2026") is read in the tenant's date order (router/date_order.py)
or, when the question settles it (a part above 12), in that order; otherwise it stays for the period reader to
ask about.
"""

from __future__ import annotations

import calendar
import datetime as dt
import re
from dataclasses import dataclass
from typing import Literal

from router.german import GERMAN_MONTHS as _GERMAN_MONTHS
from router.period_ranking import RANK_WORDS
from router.period_words import ALL_MONTHS as _ALL_MONTHS
from router.period_words import CHANGE_VERBS
from router.period_words import SHAPED_ONLY_MONTHS as _SHAPED_ONLY
from router.romance import AMBIGUOUS_MONTHS as _AMBIGUOUS_MONTHS
from router.romance import ROMANCE_MONTHS as _ROMANCE_MONTHS
from router.tax_words import TAX_NAME

_I = re.I | re.UNICODE

DateOrder = Literal["day_first", "month_first"]

#: Month words of every language the readers know (English, German, French, Spanish, Italian, Dutch, Portuguese),
#: from their own tables; words that are English words or names too ("set", "out", "mars") are left out: here a
#: month word stands without a day, so only unambiguous ones are read.
_ENGLISH_MONTHS = {name: number for number, names in enumerate(
    (("january", "jan"), ("february", "feb"), ("march", "mar"), ("april", "apr"), ("may",), ("june", "jun"),
     ("july", "jul"), ("august", "aug"), ("september", "sep", "sept"), ("october", "oct"), ("november", "nov"),
     ("december", "dec")), start=1) for name in names}
MONTH_WORDS: dict[str, int] = {
    **{w: n for w, n in _ROMANCE_MONTHS.items() if w not in _AMBIGUOUS_MONTHS},
    **{w: n for w, n in _ALL_MONTHS.items() if w not in _SHAPED_ONLY},
    **_GERMAN_MONTHS, "jän": 1, "mär": 3, "mrz": 3, "okt": 10, "dez": 12,
    **_ENGLISH_MONTHS,
}
_MONTH_W = "|".join(sorted(MONTH_WORDS, key=len, reverse=True))
#: Month words that are words or names too ("mars", "mai", "avr", "mei"): months here only with a year after them
#: ("mars 26", "avr. 2026", "mei '26"), where no other word stands. ("set", "ago", "out", "marco" stay out: "2 years
#: ago 2025", "left out 2025".)
YEAR_MONTH_WORDS: dict[str, int] = {w: n for w, n in (*_ROMANCE_MONTHS.items(), *_ALL_MONTHS.items())
                                    if w in {"mars", "mai", "ene", "dic", "avr", "abr", "mayo", "mei"}}
_YEAR_MONTH_W = "|".join(sorted(YEAR_MONTH_WORDS, key=len, reverse=True))
#: After a day number a month word is a month even when it is a word too ("2 mars", "16 mai"), except for the
#: words that also follow a number in English ("5 out of 10", "2 set", "3 ago").
DAY_MONTH_WORDS: dict[str, int] = {**{w: n for w, n in _ROMANCE_MONTHS.items() if w not in ("set", "ago")},
                                   **MONTH_WORDS}
_DAY_MONTH_W = "|".join(sorted(DAY_MONTH_WORDS, key=len, reverse=True))

#: "Today" in the languages: the end of a range running to the as-of date.
NOW_WORDS = ("today", "now", "to date", "date", "the present", "present", "heute", "jetzt", "dato", "aujourd'hui",
             "aujourd’hui", "aujourd hui", "aujourdhui", "hoy", "oggi", "vandaag", "nu", "hoje", "agora",
             # Polish, Czech, Romanian, Turkish, Swedish/Danish/Norwegian, Spanish
             "dziś", "dzis", "dzisiaj", "dnes", "dneška", "dneska", "azi", "astăzi", "astazi", "acum", "bugün",
             "bugun", "idag", "i dag", "ahora")
_NOW_W = "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in sorted(NOW_WORDS, key=len, reverse=True))

#: Quarter and half words after an ordinal ("3. Qu.", "3. Quartal", "2. HJ", "3rd quarter", "1er trimestre").
_QUARTER_UNIT = r"(?:q\.?|qu\.?|qt\.?|qtr\.?|qrt\.?|quart\.?|quartal|quarter|trimestre|trim\.?|kwartaal|kw\.?)"
_HALF_UNIT = r"(?:hj\.?|halbjahr|half(?:[- ]year)?|semestre|sem\.?|halfjaar)"
_ORDINAL = r"([1-4])\s?(?:\.|st|nd|rd|th|er|e|º|°|o)?"
_Y = r"(?:19|20)\d{2}"
#: What may follow a year: no digit, no amount.
_NO_AMOUNT = r"(?![\d,/]|[.,]\d|\s*(?:%|k\b|m\b|€|eur\b|usd\b|chf\b))"


#: What may follow a year joined to its atom by a dash, slash or apostrophe ("Feb-26, gross EUR", "Q3/25 EUR"): no
#: digit, and no year after a comma ("Dec-25, 2026" is a day); a currency or comma is no amount after such a year.
_NO_AMOUNT_JOINED = r"(?![\d/]|[.,]\d|,\s*(?:19|20)\d{2}|\s*(?:%|k\b|m\b))"


def _year_after(four: str, two: str) -> str:
    """The year after a month, quarter or half, four digits or two after a space, slash, dash or apostrophe, in
    the groups ``four`` and ``two``. After a space a two-digit number may be a day or an amount ("Feb 26, 2026",
    "Q3 25 EUR"); joined by a sign it is the year whatever follows."""
    return (rf"(?:(?P<{two}_sp>\s+)|\s*[/-]\s*|\s*['’]\s?)(?:(?P<{four}>{_Y})|(?P<{two}>\d{{2}}))"
            rf"(?({two}_sp){_NO_AMOUNT}|{_NO_AMOUNT_JOINED})")


def _ordinal(group: str) -> str:
    """An ordinal number 1 to 4 ("3.", "3rd", "1er", "2e", "1º") in the group ``group``."""
    return rf"(?P<{group}>[1-4])\s?(?:\.|st|nd|rd|th|er|e|º|°|o)?"


#: One period atom. Each alternative has its own groups; :func:`_atom` reads them.
_ATOM = (
    rf"(?P<iso>\d{{4}}-\d{{2}}-\d{{2}})(?![\d-])"
    rf"|(?P<dot>(?P<dot_d>\d{{1,2}})\.\s?(?P<dot_m>\d{{1,2}})\.(?:\s?(?P<dot_y>{_Y}|\d{{2}})(?![\d.]))?)(?![\d])"
    rf"|(?P<nmonth>(?P<nm_m>0?[1-9]|1[0-2])[./](?P<nm_y>{_Y}))(?![\d/]|\.\d)"
    rf"|(?P<slash>(?P<sl_a>\d{{1,2}})/(?P<sl_b>\d{{1,2}})(?:/(?P<sl_y>{_Y}|\d{{2}}))?)(?![\d/])"
    rf"|(?P<isomonth>(?P<im_y>{_Y})[-/](?P<im_m>0[1-9]|1[0-2]))(?![\d/]|-\d{{1,2}}(?!\d))"
    # "2025-Q3", "2025Q3", "2025-H2": a quarter or half written year first (a query's or dashboard's notation)
    rf"|(?P<isopart>(?P<ip_y>{_Y})-?(?:q(?P<ip_q>[1-4])|h(?P<ip_h>[12])))(?![\w-])"
    rf"|(?P<quarter>(?:q\s?(?P<q_n>[1-4])|t(?P<q_t>[1-4])|(?P<q_o>[1-4])\s?q|{_ordinal('q_w')}\s*{_QUARTER_UNIT})"
    rf"(?:{_year_after('q_y', 'q_yy')})?)(?![\w])"
    rf"|(?P<half>(?:h\s?(?P<h_n>[12])|(?P<h_o>[12])\s?h|{_ordinal('h_w')}\s*{_HALF_UNIT})"
    rf"(?:{_year_after('h_y', 'h_yy')})?)(?![\w])"
    rf"|(?P<dmonth>(?P<dm_d>\d{{1,2}})(?:st|nd|rd|th|er|º|°|\.)?\s*(?:de\s+|di\s+|of\s+)?(?P<dm_w>{_DAY_MONTH_W})\.?"
    rf"(?:\s+(?:de\s+|del\s+)?(?P<dm_y>{_Y}))?)(?![\w])"
    # ("Jul25", "Mar26": a month word with its two-digit year touching it, a tracker's column label)
    rf"|(?P<wmonth>(?P<wm_w>{_MONTH_W})\.?(?:{_year_after('wm_y', 'wm_yy')}|(?P<wm_yt>\d{{2}})(?![\w/]|[.,]\d))?)"
    rf"(?![\w])"
    rf"|(?P<ymonth>(?P<ym_w>{_YEAR_MONTH_W})\.?{_year_after('ym_y', 'ym_yy')})(?![\w])"
    # (a year after a quarter, half or month word is that atom's: "T3 2025" is no year 2025 to read alone)
    rf"|(?<![qths][1-4]\s)(?<![qths][1-4]/)(?P<year>{_Y})(?![\d])"
)


def _sided(pattern: str, side: str) -> str:
    """``pattern`` with its groups (and the conditions on them) named for one side of a range."""
    return pattern.replace("(?P<", f"(?P<{side}_").replace("(?(", f"(?({side}_")


@dataclass(frozen=True)
class RangeWord:
    """A range word of one language: the word between the two atoms, the word that may open the range (required
    when ``opened``), and whether an end day written after it is included (``None``: the period reader's
    convention for "to", router/periods.py)."""

    middle: str
    opening: str
    inclusive: bool | None
    opened: bool = False
    english: bool = False
    #: A sign, not a word ("..", "→"): it may touch the atoms ("Jan→Apr 2026").
    sign: bool = False
    #: Written without its opening word: a range only between two atoms that are no bare years ("jul/25 a
    #: mar/26"; "2025 a 2026" may be prose).
    bare: bool = False


#: The range words, one table for every language. A short middle word ("a", "e", "y", "und", "and", "et", "tot")
#: only joins a range its opening word began (``opened``).
RANGE_WORDS: tuple[RangeWord, ...] = (
    # German: "bis" includes its end ("vom 1. bis 15. März"), "bis ausschl." does not
    RangeWord(r"bis\s+(?:ausschl(?:\.|ie(?:ß|ss)lich)?|exkl\.?|exklusive|vor)", r"von|vom|ab", False),
    RangeWord(r"bis\s*(?:einschl(?:\.|ie(?:ß|ss)lich)?|inkl\.?|inklusive|zum|zur)?", r"von|vom|ab", True),
    RangeWord(r"und", r"zw\.|zwischen", True, opened=True),
    # French, Spanish, Italian, Portuguese
    RangeWord(r"jusqu['’ ]?(?:au|à|a)|au", r"du|de|des|depuis\s+le|depuis", True),
    RangeWord(r"et|y|e", r"entre", True, opened=True),
    RangeWord(r"a|à|al|ao|hasta|até|ate|fino\s+al?", r"de|desde|del|da|dal|dall['’]|dai|dalla", True, opened=True),
    # Dutch, Swedish, Danish, Norwegian "to and with" (written in English word by word too: "to and with",
    # "till and with", "up to and with"); Polish "od ... do"
    RangeWord(r"tot\s+en\s+met|t/m|t\.m\.|till\s+och\s+med|t\.o\.m\.?|til\s+og\s+med|"
              r"(?:up\s+)?(?:to|till|until|through)\s+and\s+(?:with|including)",
              r"van|vanaf|från|fran|fra|from|od", True),
    RangeWord(r"do", r"od", True, opened=True),
    RangeWord(r"tot", r"van|vanaf", False, opened=True),
    # English (the period reader's own words: rewritten only when an atom is in a notation it does not read)
    RangeWord(r"through|thru|until|till|up\s+to\s+and\s+including|up\s+(?:to|until|till)", r"from", True,
              english=True),
    RangeWord(r"and", r"between", None, opened=True, english=True),
    # ("2025-07..2026-04", "Jan→Apr 2026": the two dots or arrow of a query or a dashboard filter, which the period
    # reader does not read)
    RangeWord(r"\.\.\.?|…|→|->", r"from", None, sign=True),
    # (a dash may touch its atoms: "Q3'25–Q1'26", "2025/07-2026/04")
    RangeWord(r"-|–|—", r"from", None, english=True, sign=True),
    RangeWord(r"to", r"from", None, english=True),
    # ("2025/07～2025/12", "2026.01 ~ 2026.04": the wave dash of East-Asian writers, folded to "~" by
    # router/period_family.py; the period reader does not read it, so even English atoms are written out)
    RangeWord(r"~", r"from", None, sign=True),
    # ("jul/25 a mar/26", "Okt 2025 bis März 2026", "10.2025 do 03.2026": the range words of the languages
    # without their opening word, only between two atoms that are no bare years (checked in read_ranges))
    RangeWord(r"a|al|ao|à|até|ate|hasta|au|jusqu['’ ]?(?:au|à|a)|bis|do|až|az|până|pana|tot\s+en\s+met|t/m",
              r"(?!)", True, bare=True),
)
#: "between X and Y": an end day other than a first of the month is included (router/periods.py reads ISO days).
_BETWEEN = next(w for w in RANGE_WORDS if w.opening == "between")
#: "from X to Y": after a change verb, two periods compared (a grain, "per month", makes it one range again).
_FROM_TO = next(w for w in RANGE_WORDS if w.middle == "to")
_GRAIN_WORD = re.compile(r"\b(?:(?:per|by|each)\s+(?:calendar\s+)?(?:month|quarter|week)|monthly|quarterly|weekly|"
                         r"month[- ]by[- ]month|quarter[- ]by[- ]quarter)\b", _I)
_ARROW = next(w for w in RANGE_WORDS if "->" in w.middle)
#: An arrow from one period to another ("Q4 2025 -> Q1 2026", "2025 → 2026") in a question about a change: the
#: base before it, the current period after it, never one range running from the first to the second (the dash of
#: the arrow read as a range sign was a silent wrong: the change of a half-year against the one before).
_PERIOD_TOKEN = (r"(?:(?:Q[1-4]|H[12])\s(?:19|20)\d{2}|(?:January|February|March|April|May|June|July|August|"
                 r"September|October|November|December)\s(?:19|20)\d{2}|(?:19|20)\d{2}(?:[-/](?:0?[1-9]|1[0-2]))?)")
_PERIOD_ARROW = re.compile(rf"(?<![\w/-])(?P<a>{_PERIOD_TOKEN})\s*(?P<mid>-+>|→|=+>|⇒|⟶|➔)\s*(?P<b>{_PERIOD_TOKEN})"
                           r"(?![\w/]|[.,]\d)")


def _change_asked(m: re.Match[str]) -> bool:
    """The one arrow rule: an arrow between periods is a change (base before it, current after it) when a change
    verb comes before it or a change noun anywhere, and no grain word splits the span ("by month", "monthly")."""
    return bool((CHANGE_VERBS.search(m.string, 0, m.start()) or _CHANGE_NOUN.search(m.string))
                and not _GRAIN_WORD.search(m.string))


#: "2024 -> 2025 delta", "Q4 2025 -> Q1 2026, up or down?", "% Q3 -> Q4": a change named by a noun, before or after
#: the arrow (the one arrow rule: "broken down by month" names no change, its "down" is no direction)
_CHANGE_NOUN = re.compile(r"\b(?:compar(?:e|ed|ing|ison)|delta|diff(?:erence)?s?|growth|variance|chang(?:e[ds]?|ing)|"
                          r"increase[ds]?|decrease[ds]?|"
                          r"up\s+or\s+down|down\s+or\s+up|(?:went|go(?:ne|es)?)\s+(?:up|down))\b|%", _I)
#: The dots, arrow, dash or "to": between two days they include the end day, as "2 to 3 March 2026" does.
_DASH_OR_TO = tuple(w for w in RANGE_WORDS if w.middle in (r"\.\.\.?|…|→|->", "-|–|—", "to", "~"))
#: "incl", "inclusive", "einschl." after the end: the end day is included.
#: ("(both dates incl.)", "(both days inclusive)", "both ends included": the same, said of both ends)
#: ("Jul-Dec 25 incl VAT", "Jul 25 - Mar 26 incl. credit notes": the word included is a tax or the credit notes,
#: the figure's basis (router/tax_words.py), never the period's end)
#: ("do 14.02.2026 włącznie", "13.11.2025 dahil", "včetně", "inclusiv", "vklyuchno", "bezárólag": the same word in
#: Polish, Turkish, Czech, Romanian, Ukrainian / Russian transliterated and Hungarian, with and without diacritics)
INCLUDED_WORDS = ("włącznie", "wlacznie", "dahil", "dâhil", "včetně", "vcetne", "vrátane", "vratane", "inclusiv",
                  "vkliuchno", "vklyuchno", "vklyuchitelno", "bezárólag", "bezarolag")
_INCLUDED_AFTER = re.compile(r"\s*,?\s*\(?\s*(?:both\s+(?:dates|days|ends)\s+)?(?:incl\.?|inclusive|included|"
                             r"inclusief|incluso|inclus|inclusivo|einschl(?:\.|ie(?:ß|ss)lich)?|inkl\.?|"
                             + "|".join(sorted(INCLUDED_WORDS, key=len, reverse=True)) + r")\)?(?![\w])"
                             rf"(?![.)]*\s*(?:of\s+)?(?:the\s+|all\s+|any\s+)?(?:{TAX_NAME}|tax|taxes|credits?|"
                             r"credit[- ]?notes?|cns?|refunds?|returns?)(?![\w]))",
                             _I)


def _range_pattern(word: RangeWord) -> re.Pattern[str]:
    # (an article only after an opening word: "co a 1/2-15/3/26" keeps its "a", "desde el 5 de enero" drops "el")
    opening = rf"(?:(?P<open>(?:{word.opening})\s+){_ARTICLE})" + ("" if word.opened else "?")
    atom_a = _sided(_ATOM, "a")
    atom_b = _sided(_ATOM, "b")
    return re.compile(
        rf"(?<![\w/.,-]){opening}(?P<unit_a>{_UNIT_OF})(?P<qa>{_QUOTE})(?P<a>{atom_a})(?P=qa)\s*"
        + (rf"(?P<mid>{word.middle})\s*" if word.sign else rf"(?P<mid>(?<![^\W\d_])(?:{word.middle}))(?![^\W\d_])\s*")
        + rf"{_ARTICLE}{_UNIT_OF}(?P<qb>{_QUOTE})(?P<b>{atom_b}|(?P<now>{_NOW_W})(?![\w]))(?P=qb)(?![\w/-]|[.,]\d)", _I)


#: The unit a month is named with ("entre le mois de décembre 2025 et ...", "from the month of July 2025 to ...").
#: (never after a grouping word: "by month Jul-25 to Oct-25" is the grain, then the range)
_UNIT_OF = (r"(?:(?<!\bby\s)(?<!\bper\s)(?<!\beach\s)(?<!\bpro\s)(?<!\bpar\s)(?<!\bpor\s)"
            r"(?:mois|month|monat|mes|mese|maand|månad|måned)\s+(?:de\s+|d['’]\s?|of\s+|di\s+|van\s+)?)?")
#: A quote around an atom, as a query writes its literals ("BETWEEN '2025-07-01' AND '2025-09-30'").
_QUOTE = r"['\"‘’“”]?"
#: An article between a range word and its atom ("desde el 5 de enero", "bis zum 15.4.", "du le", "al la").
_ARTICLE = r"(?:(?:el|la|le|il|lo|the|dem|den|der|o|a)\s+)?"


#: A ranking word right before a range's unit ("peak month", "the busiest month").
_RANKED_BEFORE = re.compile(rf"\b(?:{RANK_WORDS})\s+$", _I)

_RANGES = tuple((word, _range_pattern(word)) for word in RANGE_WORDS)


@dataclass(frozen=True)
class Atom:
    """A period atom read: its first day, its end (exclusive), whether it is a whole unit or a day, and whether
    its year was written (an atom without one takes the other end's)."""

    start: dt.date
    end: dt.date
    unit: bool
    year_written: bool
    english: bool


def _year(four: str | None, two: str | None) -> int | None:
    return int(four) if four else (2000 + int(two) if two else None)


def _months_after(start: dt.date, months: int) -> dt.date:
    month = start.month - 1 + months
    return dt.date(start.year + month // 12, month % 12 + 1, 1)


def _atom(m: re.Match[str], side: str, year: int, order: DateOrder | None) -> Atom | None:
    """The atom of side ``side`` ("a" or "b") of a range match, its year ``year`` when it writes none; ``None``
    when it names no calendar period (or a slashed day whose order nothing settles)."""
    def g(name: str) -> str | None:
        return m.group(f"{side}_{name}")

    try:
        if g("iso"):
            day = dt.date.fromisoformat(str(g("iso")))
            return Atom(day, day + dt.timedelta(days=1), False, True, True)
        if g("dot"):
            written = _year(*((g("dot_y"), None) if g("dot_y") and len(str(g("dot_y"))) == 4 else (None, g("dot_y"))))
            day = dt.date(written or year, int(str(g("dot_m"))), int(str(g("dot_d"))))
            return Atom(day, day + dt.timedelta(days=1), False, written is not None, False)
        if g("nmonth"):
            start = dt.date(int(str(g("nm_y"))), int(str(g("nm_m"))), 1)
            return Atom(start, _months_after(start, 1), True, True, False)
        if g("slash"):
            if order is None:
                return None
            first, second = int(str(g("sl_a"))), int(str(g("sl_b")))
            day_n, month_n = (first, second) if order == "day_first" else (second, first)
            y = g("sl_y")
            written = _year(*((y, None) if y and len(y) == 4 else (None, y)))
            day = dt.date(written or year, month_n, day_n)
            return Atom(day, day + dt.timedelta(days=1), False, written is not None, False)
        if g("isomonth"):
            start = dt.date(int(str(g("im_y"))), int(str(g("im_m"))), 1)
            return Atom(start, _months_after(start, 1), True, True, False)  # (no range the period reader reads)
        if g("isopart"):
            months = 3 if g("ip_q") else 6
            start = dt.date(int(str(g("ip_y"))), months * int(str(g("ip_q") or g("ip_h"))) - months + 1, 1)
            return Atom(start, _months_after(start, months), True, True, False)
        if g("quarter"):
            number = int(str(g("q_n") or g("q_t") or g("q_o") or g("q_w")))
            written = _year(g("q_y"), g("q_yy"))
            start = dt.date(written or year, 3 * number - 2, 1)
            # ("Q3-2025", "Q1/26": a year joined by a dash or slash is no range form the period reader reads)
            english = bool(g("q_n") or g("q_o")) and not re.search(r"\d\s*[/'’-]\s*\d", str(g("quarter")))
            return Atom(start, _months_after(start, 3), True, written is not None, english)
        if g("half"):
            number = int(str(g("h_n") or g("h_o") or g("h_w")))
            if number > 2:
                return None
            written = _year(g("h_y"), g("h_yy"))
            start = dt.date(written or year, 6 * number - 5, 1)
            english = bool(g("h_n") or g("h_o")) and not re.search(r"\d\s*[/'’-]\s*\d", str(g("half")))
            return Atom(start, _months_after(start, 6), True, written is not None, english)
        if g("dmonth"):
            word = str(g("dm_w")).casefold()
            written = int(str(g("dm_y"))) if g("dm_y") else None
            day = dt.date(written or year, DAY_MONTH_WORDS[word], int(str(g("dm_d"))))
            return Atom(day, day + dt.timedelta(days=1), False, written is not None, word in _ENGLISH_MONTHS)
        if g("wmonth"):
            word = str(g("wm_w")).casefold()
            written = _year(g("wm_y"), g("wm_yy") or g("wm_yt"))
            start = dt.date(written or year, MONTH_WORDS[word], 1)
            # ("Jul-25", "Jul25", "Jul '25": a two-digit year is no range form the period reader reads whole)
            english = word in _ENGLISH_MONTHS and not (g("wm_yy") or g("wm_yt"))
            return Atom(start, _months_after(start, 1), True, written is not None, english)
        if g("ymonth"):
            written = _year(g("ym_y"), g("ym_yy"))
            start = dt.date(written or year, YEAR_MONTH_WORDS[str(g("ym_w")).casefold()], 1)
            return Atom(start, _months_after(start, 1), True, True, False)
        if g("year"):
            start = dt.date(int(str(g("year"))), 1, 1)
            return Atom(start, dt.date(start.year + 1, 1, 1), True, True, True)
    except ValueError:
        return None
    return None


def _written_year(m: re.Match[str], side: str) -> int | None:
    """The year an atom writes, if any (to lend it to the other end)."""
    for four, two in (("dot_y", None), ("sl_y", None), ("nm_y", None), ("ip_y", None), ("q_y", "q_yy"), ("h_y", "h_yy"),
                      ("wm_y", "wm_yy"), ("wm_yt", None), ("ym_y", "ym_yy"), ("dm_y", None), ("year", None),
                      ("im_y", None)):
        value = m.group(f"{side}_{four}")
        if value:
            return int(value) if len(value) == 4 else 2000 + int(value)
        if two and m.group(f"{side}_{two}"):
            return 2000 + int(m.group(f"{side}_{two}"))
    if m.group(f"{side}_iso"):
        return int(m.group(f"{side}_iso")[:4])
    return None


def _slash_order(text: str, order: DateOrder | None) -> DateOrder | None:
    """The order of the slashed days of ``text``: settled by a part above 12, else ``order`` (the tenant's)."""
    parts = re.findall(r"(?<![\w/.])(\d{1,2})/(\d{1,2})(?:/(?:(?:19|20)\d{2}|\d{2}))?(?![\w/])", text)
    if any(int(a) > 12 for a, _ in parts):
        return "day_first"
    if any(int(b) > 12 for _, b in parts):
        return "month_first"
    return order


def _one_range(m: re.Match[str], word: RangeWord, order: DateOrder | None) -> str | None:
    """The ISO reading of one range match, or ``None`` to leave it as written."""
    if m.group("b_slash") is None and m.group("a_slash") is not None and m.group("a_sl_y") is None:
        return None  # "1/11 - 15.12.25": a slashed day without a year beside another notation: not read here
    year_b = _written_year(m, "b") if m.group("now") is None else None
    year_a = _written_year(m, "a")
    if m.group("now") is not None and year_a is None:
        # "depuis le 1er janvier jusqu'à aujourd'hui", "from March till today": the latest such day (month) up to
        # the as-of date, in the words the period reader reads so ("since 1 January", "since March")
        if m.group("a_dmonth"):
            month = DAY_MONTH_WORDS[str(m.group("a_dm_w")).casefold()]
            return f"since {int(str(m.group('a_dm_d')))} {calendar.month_name[month]}"
        if m.group("a_wmonth"):
            return f"since {calendar.month_name[MONTH_WORDS[str(m.group('a_wm_w')).casefold()]]}"
        return None
    if year_a is None and year_b is None:
        return None  # no year anywhere: the period reader's defaults (router/periods.py) apply
    a = _atom(m, "a", year_a or year_b or 0, order)
    if a is None:
        return None
    if m.group("now") is not None:
        if a.english and m.group("now").casefold() == "date" and m.group("mid").casefold() == "to":
            return None  # "2026 to date", "Jul-25 to date": the period reader's own forms
        return f"since {a.start.isoformat()}"
    if year_a is None and m.group("b_year") is not None:
        return None  # "T1-2026", "Jan - 2026": the year is the first atom's own, no range's end
    b = _atom(m, "b", year_b or year_a or 0, order)
    if b is None:
        return None
    quoted = bool(m.group("qa") or m.group("qb"))
    if word.english and a.english and b.english and not quoted:
        return None  # the period reader's own range ("Q3 2025 to Q1 2026")
    if not a.year_written and a.start >= b.end:
        a = Atom(a.start.replace(year=a.start.year - 1), a.end.replace(year=a.end.year - 1), a.unit, False, a.english)
    if b.start < a.start:
        return None  # an end before the start: no range anyone writes; left for the reader to ask about
    included = word.inclusive
    if quoted or _INCLUDED_AFTER.match(m.string, m.end()):
        # (a query's BETWEEN includes both ends)
        included = True
    if included is None and word in _DASH_OR_TO and not a.unit and not b.unit:
        # a dash or "to" between two days includes the end day ("1/2-15/3/26", "2 to 3 March 2026")
        included = True
    if b.unit and included is not False:
        return f"from {a.start.isoformat()} through {(b.end - dt.timedelta(days=1)).isoformat()}"
    if included is False:
        return f"from {a.start.isoformat()} to before {b.start.isoformat()}"
    if included:
        return f"from {a.start.isoformat()} through {b.start.isoformat()}"
    if word is _BETWEEN and b.start.day != 1:
        # "between 18/01/2026 and 03/04/2026": days written as a writer writes them name both ends of the range
        return f"from {a.start.isoformat()} through {b.start.isoformat()}"
    return f"from {a.start.isoformat()} to {b.start.isoformat()}"


#: An interval in mathematical notation, as the answers themselves write a period ("[2025-07-01, 2026-01-01)",
#: "[2025-07, 2026-04]"): a square bracket includes its end, a round one leaves it out.
_INTERVAL = re.compile(r"\[\s*(?P<a>\d{4}-\d{2}(?:-\d{2})?)\s*[,;]\s*(?P<b>\d{4}-\d{2}(?:-\d{2})?)\s*(?P<close>[\])])")


def _interval(m: re.Match[str]) -> str:
    a, b = m.group("a"), m.group("b")
    try:
        start = dt.date.fromisoformat(a if len(a) == 10 else f"{a}-01")
        end = dt.date.fromisoformat(b if len(b) == 10 else f"{b}-01")
    except ValueError:
        return m.group(0)
    if len(b) == 7:  # a month at the end: the whole month, whatever the bracket
        end = _months_after(end, 1) if m.group("close") == "]" else end
        return f"from {start.isoformat()} to before {end.isoformat()}"
    if m.group("close") == "]":
        return f"from {start.isoformat()} through {end.isoformat()}"
    return f"from {start.isoformat()} to before {end.isoformat()}"


#: A start described in words and restated in brackets as a period: "since the files start (Jul-25)", "since the
#: summer (so from september on)", "from go-live (i.e. 2025-10-01)". The bracket is the start the writer means; the
#: words before it name no period (no digit), so the pair is one start, never two periods.
_RESTATED_START = re.compile(
    r"\b(?P<lead>since|from|starting(?:\s+(?:from|with|in))?|beginning(?:\s+(?:with|in))?)\s+"
    r"(?P<desc>(?:[^\W\d_][\w'’-]*\s+){0,5}?[^\W\d_][\w'’-]*)\s*\(\s*"
    r"(?:(?:so|i\.\s?e\.|ie|that\s+is|namely|=)\s*,?\s*)?(?:(?:from|since|starting(?:\s+in)?)\s+)?"
    rf"(?P<a>{_sided(_ATOM, 'a')})\s*(?:on(?:wards?)?\s*)?\)", _I)
#: A range word or end after the restated start: the start then opens that range ("... (Jul-25) to date").
_RANGE_AFTER = re.compile(r"\s*(?:to|till|until|thru|through|up\s+(?:to|until|till)|-|–|—|\.\.)\s", _I)


def _restated_start(m: re.Match[str]) -> str:
    if re.search(r"\b(?:of|in|for)$", m.group("desc"), _I):
        return m.group(0)  # "from the start of (Q3)": the words around the bracket are one phrase, not a gloss
    lead = "from" if _RANGE_AFTER.match(m.string, m.end()) or m.group("lead").casefold() == "from" else "since"
    return f"{lead} {m.group('a')}"


#: A period whose start a bracket moves: "H2 2025 (from Sept.)", "2025 (since October on)": from that start to the
#: period's end (the bracket restates which part of the period is meant; read alone it was dropped).
#: The words that open a range or a start in the languages of :data:`RANGE_WORDS`, and the start words of their own
#: ("since", "seit", "à partir de", "a partire da"): a bracket's start.
_START_WORDS = "|".join((*(w.opening for w in RANGE_WORDS), r"since|seit|starting(?:\s+(?:in|with|from))?",
                         r"beginning(?:\s+(?:in|with))?", r"[àa]\s+partir\s+(?:de|del|d['’]|du)", r"a\s+partire\s+da"))
_MOVED_START = re.compile(
    rf"(?<![\w-])(?P<a>{_sided(_ATOM, 'a')})\s*\(\s*(?:{_START_WORDS})\s+{_ARTICLE}"
    rf"(?P<b>{_sided(_ATOM, 'b')})\s*(?:on(?:wards?)?\s*)?\)", _I)


def _moved_start(m: re.Match[str]) -> str:
    year = _written_year(m, "a")
    if year is None:
        return m.group(0)
    outer, start = _atom(m, "a", year, None), _atom(m, "b", _written_year(m, "b") or year, None)
    if outer is None or start is None or not outer.unit or not outer.start < start.start < outer.end:
        return m.group(0)
    return f"from {start.start.isoformat()} through {(outer.end - dt.timedelta(days=1)).isoformat()}"


def read_ranges(text: str, order: DateOrder | None = None) -> str:
    """``text`` with each range of period atoms the grammar reads written as ISO days.

    >>> read_ranges("spend zw. 15.09.25 und 15.12.2025")
    'spend from 2025-09-15 through 2025-12-15'
    >>> read_ranges("Summe 7/2025 bis 3/2026, danke")
    'Summe from 2025-07-01 through 2026-03-31, danke'
    >>> read_ranges("Top 3 suppliers, Jul 2025 - today")
    'Top 3 suppliers, since 2025-07-01'
    """
    text = _PERIOD_ARROW.sub(lambda m: f"{m.group('b')} vs {m.group('a')}" if _change_asked(m) else m.group(0), text)
    text = _DASHED_SHORT_DAY.sub(_dashed_day, text)
    text = _RESTATED_START.sub(_restated_start, text)
    text = _MOVED_START.sub(_moved_start, text)
    text = _INTERVAL.sub(_interval, text)
    slash_order = _slash_order(text, order)
    for word, pattern in _RANGES:
        def sub(m: re.Match[str], word: RangeWord = word) -> str:
            # ("how much did spend drop feb->mar 2026": an arrow after a change verb points from the base to the
            # current period, as "from ... to" does)
            if (((word is _FROM_TO and m.group("open")) and CHANGE_VERBS.search(m.string, 0, m.start())
                 and not _GRAIN_WORD.search(m.string))
                    or (word is _ARROW and m.group("mid") in ("->", "→") and _change_asked(m))):
                return m.group(0)  # "how did spend move from 12/2025 to Jan '26": a base and a current period
            if word.bare and (m.group("a_year") is not None or m.group("b_year") is not None):
                return m.group(0)
            read = _one_range(m, word, slash_order)
            if read is None:
                return m.group(0)
            # "peak month Jul 25 - Apr 26", "busiest month 7/25 to 3/26": the unit is the ranked period (its head
            # noun), not the range's own unit: kept for the ranking reader (router/period_ranking.py)
            unit = m.group("unit_a") or ""
            if unit and not m.group("open") and _RANKED_BEFORE.search(m.string, 0, m.start()):
                return f"{unit}{read}"
            return read
        text = pattern.sub(sub, text)
    return _tenant_days(_INCLUDED_LEFT.sub(r"\1", text), order)


#: A slashed day with its year ("01/03/2026", "1/3/26").
_SLASHED_DAY = re.compile(rf"(?<![\w/.-])(\d{{1,2}})/(\d{{1,2}})/({_Y}|\d{{2}})(?![\w/-]|[.,]\d)")


#: An approval's or agreement's date: an approval word at most four words before the day ("approval start
#: 01/04/2026", "not approved before 01/10/2026", "valid to 01/01/2026"), read by the approval readers.
_APPROVAL_BEFORE = re.compile(r"\b(?:approv\w*|valid\w*|expir\w*|laps\w*|effective|genehmig\w*|freigabe|freigegeben|"
                              r"g(?:ü|ue)ltig\w*)\b\W*(?:[\w/]+\W+){0,4}$", _I)


def _tenant_days(text: str, order: DateOrder | None) -> str:
    """``text`` with its slashed days dotted day first (the notation every reader takes as day first): in the
    order the question settles (a part above 12) those with a two-digit year ("15/12/25", which the period reader
    does not read; it reads four-digit ones itself), else in the tenant's order ``order`` every one. Without an
    order they stay, and the period reader asks which reading is meant."""
    settled = _slash_order(text, None)
    if settled is None and order is None:
        return text

    def dotted(m: re.Match[str]) -> str:
        if settled is not None and len(m.group(3)) == 4:
            return m.group(0)  # (read by the period reader in the order the question settles)
        if settled is None and _APPROVAL_BEFORE.search(text, 0, m.start()):
            return m.group(0)  # an approval's date ("not approved before 01/10/2026"): the approval readers' own
        day, month = (m.group(1), m.group(2)) if (settled or order) == "day_first" else (m.group(2), m.group(1))
        year = m.group(3) if len(m.group(3)) == 4 else f"20{m.group(3)}"
        try:
            dt.date(int(year), int(month), int(day))
        except ValueError:
            return m.group(0)
        return f"{int(day)}.{int(month)}.{year}"
    return _SLASHED_DAY.sub(dotted, text)


#: An "incl" marker left after a range already read as including its end.
_INCLUDED_LEFT = re.compile(r"(through \d{4}-\d{2}-\d{2})" + _INCLUDED_AFTER.pattern, _I)


# --- single atoms in notations the period reader does not know ---------------------------------------------------

_AMOUNT_AFTER = r"(?!\s*(?:%|€|\$|£|eur\b|euros?\b|usd\b|chf\b|gbp\b|k\b|tsd\b|mio\b))"
#: "08.2025", "3.2026": a month and its year, dotted (German notation), never inside a number or a date.
_DOTTED_MONTH = re.compile(rf"(?<![\w.,/-])(0?[1-9]|1[0-2])\.({_Y})(?![\w/-]|[.,]\d){_AMOUNT_AFTER}", _I)
#: "15.09.25", "1.2.26": a dotted day with a two-digit year.
_DOTTED_SHORT_DAY = re.compile(r"(?<![\w.,/-])(\d{1,2})\.(\d{1,2})\.(\d{2})(?![\w/-]|[.,]\d)")
#: "3. Qu. 2025", "3.Qu 25", "2. HJ 2025", "3. Quartal 2025": German quarter and half abbreviations.
_GERMAN_PART = re.compile(
    rf"(?<![\w.])([1-4])\.\s?(?:(qu\.?|qt\.?|qrt\.?|quart\.?|qtl\.?)|(hj\.?|halbj\.?))\s*(?:({_Y})|(\d{{2}}))(?![\w/-]|[.,]\d)",
    _I)
#: "lfd. Jahr", "laufendes Quartal": the current unit (the year so far, as router/german.py reads "im laufenden
#: Jahr"; "lfd. GJ" is router/german_shopfloor.py's).
_CURRENT = re.compile(r"\b(?:lfd\.|lfd\b|laufende[snm]?|akt\.)\s*(jahr|quartal|monat)\b", _I)
_UNIT_EN = {"jahr": "year to date", "quartal": "this quarter", "monat": "this month"}
#: "full year 25", "full-year 2025", "the full year 2025": the calendar year.
_FULL_YEAR = re.compile(rf"\b(?:the\s+)?full[- ]year\s+(?:({_Y})|['’]?(\d{{2}}))(?![\w]|[.,]\d)", _I)
#: Abbreviated relative words: "prev quarter", "prev. month" are the previous unit.
_PREVIOUS = re.compile(r"\b(?:prev|prv)\.?\s+(quarter|qtr|month|year|yr|half|week|period)\b", _I)
#: Finance shorthand of the previous unit, capitals only ("invoiced LM", "spend LQ", "LY vs TY"): "last month" etc.
_LAST_UNIT_CODES = {"LM": "last month", "LQ": "last quarter", "LY": "last year"}
_LAST_UNIT = re.compile(rf"(?<![\w/.-])({'|'.join(_LAST_UNIT_CODES)})(?![\w/-]|\.\w)")
#: The code as the initials of a name ("Kestrel LM" for Lebensmittel): a capitalised word just before it, or a
#: colon or a capitalised word (a legal form) just after it ("kestrel LM: spend ...", "Kestrel LM GmbH").
_NAME_BEFORE = re.compile(r"\b[A-Z][\w&.-]*\s+$")
_NAME_AFTER = re.compile(r"\s*:|\s+[A-Z][a-z]")


def _last_unit(m: re.Match[str]) -> str:
    if _NAME_BEFORE.search(m.string[max(0, m.start() - 40):m.start()]) or _NAME_AFTER.match(m.string, m.end()):
        return m.group(0)
    return _LAST_UNIT_CODES[m.group(1)]


#: "all time to 2026-04-30", "ever - 31.12.2025": everything on file up to that end, the end's words the period
#: reader reads ("through").
_ALL_TIME_TO = re.compile(r"\b(all[- ]time|all\s+periods|ever)\s+(?:to|-|–|up\s+to)\s+(?=\d)", _I)
#: "VJ" (Vorjahr), the German abbreviation: the year before, read by router/german.py.
_VJ = re.compile(r"(?<![\w-])VJ(?![\w-])")


#: A period to the as-of date glossed by its start: "so far (from 01.01.2026)", "to date (since Jul 2025)".
_SO_FAR_FROM = re.compile(
    r"(?P<now>so\s+far|to\s+date|until\s+now|up\s+to\s+now|bis\s+heute|bisher|bislang|jusqu['’]\s?(?:à|a)\s+"
    r"pr(?:é|e)sent|hasta\s+(?:ahora|hoy))\s*\(\s*(?:from|since|starting|ab|seit|depuis|desde|vanaf|da)\s+"
    rf"{_ARTICLE}(?P<a>{_sided(_ATOM, 'a')})\s*\)", _I)


def _so_far_from(m: re.Match[str]) -> str:
    year = _written_year(m, "a")
    atom = _atom(m, "a", year, None) if year is not None else None
    return m.group(0) if atom is None else f"since {atom.start.isoformat()}"


#: A month word of any language the tables know, abbreviated or not, with a year of two digits ("mars 26", "avr. 26",
#: "kwiecień 26", "nov. 25:"): that month (read alone, "26" was no year and the period was missed). Not after a
#: day ("le 3 mars 26", "22. Oktober 2025", "22nd Oktober 2025": the day's month, which the range and day readers
#: read whole; written out alone it left "zwischen 7. und 22. October 2025", read as 22 October only) or "on"
#: ("on Dec 25", a day), nor before an amount or a count; English words without a dot
#: stay the period reader's ("dec 25", router/periods.py), unless the year touches them ("dec25", "Oct2025": a
#: tracker's column label, no day).
_FOREIGN_MONTH_W = "|".join(sorted({*(w for w in MONTH_WORDS if w not in _ENGLISH_MONTHS), *YEAR_MONTH_WORDS},
                                   key=len, reverse=True))
_MONTH_YY = re.compile(
    rf"(?<![\w.,/-])(?<!\d\s)(?<!\d\.\s)(?<!\d(?:st|nd|rd|th|er)\s)(?<!\bon\s)(?<!\bof\s)"
    rf"(?:(?P<w>{_FOREIGN_MONTH_W})|(?P<en>{'|'.join(_ENGLISH_MONTHS)})(?=\.|\d))"
    rf"\.?\s*['’]?\s?(?P<yy>\d{{2}}|{_Y})(?![\w/.,-]|\.\d|\s*(?:%|€|\$|£|eur\b|euros?\b|usd\b|chf\b|gbp\b|k\b|st\b|"
    rf"invoices?\b|factures?\b|units?\b|pcs\b|pieces?\b|lines?\b|suppliers?\b|fournisseurs?\b))", _I)


#: How far from the as-of year a two-digit number touching an English month word ("dec25", "feb26") may lie to be
#: read as its year: "dec15" or "mar31" are written days far more often than the years 2015 or 2031.
_TOUCHING_YEARS = 2
#: A four-digit year right after the touching digits ("mar31 2026", "dec15 2025"): the digits are the day.
_YEAR_AFTER = re.compile(rf"\s*,?\s*(?:{_Y})\b")


def _month_yy(m: re.Match[str], as_of: dt.date | None = None) -> str:
    word = (m.group("w") or m.group("en")).casefold()
    number = YEAR_MONTH_WORDS.get(word) or MONTH_WORDS[word]
    year = m.group("yy")
    if m.group("en") and m.end("en") == m.start("yy") and len(year) == 2 and int(year) <= 31:
        # "dec25" is December 2025 but "dec15" or "mar31 2026" a day: the digits are the year only when no year
        # follows and they lie near the as-of year; a day with its year is written out, anything else is left as
        # written (a period the reader asks about, never a silent year 2015 or 2031)
        if _YEAR_AFTER.match(m.string, m.end()) and int(year) >= 1:
            return f"{int(year)} {calendar.month_name[number]}"
        if as_of is None or abs(2000 + int(year) - as_of.year) > _TOUCHING_YEARS:
            return m.group(0)
    return f"{calendar.month_name[number]} {year if len(year) == 4 else '20' + year}"


#: A quarter or half written number first with its year joined by a sign ("2H-25", "3Q'25", "1H/26", "4Q-2025"),
#: which the period reader does not read (it reads "2H 2025", "Q3-25", "H2/25").
_PART_JOINED = re.compile(rf"(?<![\w./-])(?:([1-4])\s?q|([12])\s?h)\s*(?:[-/]\s*|['’]\s?)({_Y}|\d{{2}})"
                          rf"(?![\w/-]|[.,]\d){_AMOUNT_AFTER}", _I)


def _part_joined(m: re.Match[str]) -> str:
    year = m.group(3) if len(m.group(3)) == 4 else f"20{m.group(3)}"
    return f"Q{m.group(1)} {year}" if m.group(1) else f"H{m.group(2)} {year}"


#: A day written with dashes and a two-digit year ("15-11-25", "08-12-25"): the clerk's slashed day, so that one
#: reader (the slashed days': the order the question settles, else the tenant's) reads both.
_DASHED_SHORT_DAY = re.compile(r"(?<![\w/.:-])(\d{1,2})-(\d{1,2})-(\d{2})(?![\w/-]|[.,:]\d)")


def _dashed_day(m: re.Match[str]) -> str:
    first, second = int(m.group(1)), int(m.group(2))
    if not (1 <= first <= 31 and 1 <= second <= 31 and min(first, second) <= 12):
        return m.group(0)  # no day of any calendar: left as written
    return f"{m.group(1)}/{m.group(2)}/{m.group(3)}"


def read_atoms(text: str, as_of: dt.date | None = None) -> str:
    """``text`` with single period atoms in German or numeric notation written as the period reader reads them.

    >>> read_atoms("Anzahl Rechnungen COMP-A 08.2025, Spend 3. Qu. 2025, Ausgaben lfd. Jahr")
    'Anzahl Rechnungen COMP-A August 2025, Spend Q3 2025, Ausgaben year to date'
    """
    text = _SO_FAR_FROM.sub(_so_far_from, text)
    text = _DOTTED_SHORT_DAY.sub(lambda m: f"{m.group(1)}.{m.group(2)}.20{m.group(3)}", text)
    text = _DOTTED_MONTH.sub(lambda m: f"{calendar.month_name[int(m.group(1))]} {m.group(2)}", text)
    text = _MONTH_YY.sub(lambda m: _month_yy(m, as_of), text)
    text = _PART_JOINED.sub(_part_joined, text)
    text = _GERMAN_PART.sub(lambda m: f"{'Q' if m.group(2) else 'H'}{m.group(1)} "
                                      f"{m.group(4) or '20' + m.group(5)}", text)
    text = _CURRENT.sub(lambda m: _UNIT_EN[m.group(1).casefold()], text)
    text = _FULL_YEAR.sub(lambda m: f"in {m.group(1) or '20' + m.group(2)}", text)
    text = _PREVIOUS.sub(r"previous \1", text)
    text = _LAST_UNIT.sub(_last_unit, text)
    text = _ALL_TIME_TO.sub(r"\1 through ", text)
    return _VJ.sub("Vorjahr", text)


def read_period_grammar(text: str, order: DateOrder | None = None, as_of: dt.date | None = None) -> str:
    """:func:`read_ranges` then :func:`read_atoms`: ranges first, so that both ends are read together."""
    return read_atoms(read_ranges(text, order), as_of)
